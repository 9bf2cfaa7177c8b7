import Controls
import Foundation
import Testing

@testable import FrameDial

/// The rule that keeps a batch's records honest: a record counts only while the output still is the
/// file it names, so a crash between the record and the rename never makes a stale output trusted.
@Suite struct OutputRecordsTests {
  let vivid: RenderSettings
  let noir: RenderSettings

  init() throws {
    vivid = try RenderSettings(state: .identity, options: StillOptions(quality: 80))
    noir = try RenderSettings(state: .identity, options: StillOptions(quality: 50))
  }

  /// Writes `text` to `relative` in `folder` the way a batch does: temporary file, record, rename.
  func write(
    _ text: String, _ relative: String, in folder: URL, _ settings: RenderSettings,
    records: OutputRecords, renames: Bool = true
  ) throws {
    let temporary = folder.appendingPathComponent(".\(relative).partial")
    try Data(text.utf8).write(to: temporary)
    try records.record(relative, file: temporary.path, settings: settings)
    if renames {
      #expect(rename(temporary.path, folder.appendingPathComponent(relative).path) == 0)
    } else {
      unlink(temporary.path)  // a crash: the temporary is removed, the rename never happens
    }
  }

  @Test func aRecordWrittenBeforeACrashNeverVouchesForTheOldOutput() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("a.jpg").path
    try write(
      "made with vivid", "a.jpg", in: folder, vivid,
      records: OutputRecords(outputFolder: folder.path))
    #expect(
      OutputRecords(outputFolder: folder.path).verdict(for: "a.jpg", at: output, settings: vivid)
        == .sameSettings)
    // A second run, with other settings, records its file and dies before the rename.
    try write(
      "made with noir", "a.jpg", in: folder, noir,
      records: OutputRecords(outputFolder: folder.path),
      renames: false)
    let after = OutputRecords(outputFolder: folder.path)
    #expect(after.verdict(for: "a.jpg", at: output, settings: vivid) == .sameSettings)
    #expect(after.verdict(for: "a.jpg", at: output, settings: noir) == .otherSettings)
    #expect(after.verdict(for: "b.jpg", at: output + "-missing", settings: noir) == .missing)
    // Replaced by anything else, the output is no longer known.
    try Data("by hand".utf8).write(to: URL(fileURLWithPath: output))
    #expect(
      OutputRecords(outputFolder: folder.path).verdict(for: "a.jpg", at: output, settings: vivid)
        == .unrecorded)
  }

  @Test func recordsThatDisagreeAboutOneFileMakeItUnrecorded() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("a.jpg")
    try Data("pixels".utf8).write(to: output)
    let records = OutputRecords(outputFolder: folder.path)
    try records.record("a.jpg", file: output.path, settings: vivid)
    #expect(
      OutputRecords(outputFolder: folder.path).verdict(
        for: "a.jpg", at: output.path, settings: vivid)
        == .sameSettings)
    try records.record("a.jpg", file: output.path, settings: noir)
    #expect(
      OutputRecords(outputFolder: folder.path).verdict(
        for: "a.jpg", at: output.path, settings: vivid)
        == .unrecorded)
  }

  @Test func settingsCoverEveryOptionButThePixelLimit() throws {
    var options = StillOptions(format: .jpeg)
    let base = try RenderSettings(state: .identity, options: options)
    options.load.pixelLimit = 1000
    options.load.sequential = true
    // The HEIC encoder's effort leaves a JPEG's bytes alone, and a HEIC's not.
    options.effort = .small
    #expect(try RenderSettings(state: .identity, options: options) == base)
    let heic = try RenderSettings(state: .identity, options: StillOptions(format: .heic))
    #expect(
      try RenderSettings(state: .identity, options: StillOptions(format: .heic, effort: .small))
        != heic)
    // A HEIC's record names the encoder settings its effort stands for, so a HEIC written when an
    // effort meant other settings is redone.
    #expect(
      heic.text.contains("\"effort\":\"\(EncodingEffort.fast.x265Description)\""), "\(heic.text)")
    #expect(EncodingEffort.fast.x265Description.contains("aq-strength"))
    for change: (inout StillOptions) -> Void in [
      { $0.format = .png }, { $0.quality = 90 }, { $0.zoomKernel = .bilinear },
      { $0.background = SIMD3(0, 0, 0) }, { $0.fit = ScreenFit(width: 10, height: 20) },
      { $0.optimized = false },
    ] {
      var changed = StillOptions(format: .jpeg)
      change(&changed)
      #expect(try RenderSettings(state: .identity, options: changed) != base)
    }
    var state = ControlState.identity
    state.exposureBias = 0.5
    #expect(try RenderSettings(state: state, options: StillOptions(format: .jpeg)) != base)
    #expect(base.text.contains("\"frameDial\":\"\(FrameDialVersion.string)\""))
  }
}
