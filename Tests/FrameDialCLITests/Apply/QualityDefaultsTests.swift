import Foundation
import JPEG
import TestSupport
import Testing
import Vips

@Suite struct QualityDefaultsTests {
  /// A folder `in` holding astronaut.png as `fine.jpg` (quality 95, 4:4:4) and `coarse.jpg` (60, 4:2:0).
  func jpegFolder(_ root: URL) throws -> URL {
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let photo = try Image(contentsOf: CLIRunner.sample("astronaut.png"))
    try photo.write(
      to: input.appendingPathComponent("fine.jpg").path,
      options: SaveOptions(quality: 95, chromaSubsampling: .off))
    try photo.write(
      to: input.appendingPathComponent("coarse.jpg").path,
      options: SaveOptions(quality: 60, chromaSubsampling: .on))
    return input
  }

  func quality(_ path: String) throws -> (quality: Int, chroma: String?) {
    (
      try JPEGHeader(contentsOf: path).estimatedQuality,
      try Image(contentsOf: path).jpegChromaSubsampling
    )
  }

  func size(_ path: String) throws -> Double {
    Double((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
  }

  @Test func batchKeepsEachJPEGsQualityAndChroma() throws {
    let root = try CLIRunner.scratchFolder("quality-batch")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try jpegFolder(root)
    let output = root.appendingPathComponent("out")
    let result = try CLIRunner.run(["batch", input.path, "-o", output.path, "--jobs", "2"])
    #expect(result.status == 0, "\(result.standardError)")
    let fine = try quality(output.appendingPathComponent("fine.jpg").path)
    #expect(abs(fine.quality - 95) <= 1 && fine.chroma == "4:4:4")
    let coarse = try quality(output.appendingPathComponent("coarse.jpg").path)
    #expect(abs(coarse.quality - 60) <= 1 && coarse.chroma == "4:2:0")
    // The identity writes about as many bytes as it read.
    for name in ["fine.jpg", "coarse.jpg"] {
      let ratio =
        try size(output.appendingPathComponent(name).path)
        / size(input.appendingPathComponent(name).path)
      #expect((0.7...1.4).contains(ratio), "\(name): output is \(ratio) × the input")
    }
    #expect(!result.standardError.contains("note:"))

    let forced = root.appendingPathComponent("forced")
    let overridden = try CLIRunner.run([
      "batch", input.path, "-o", forced.path, "--quality", "50", "--set", "ev=0.3",
    ])
    #expect(overridden.status == 0)
    for name in ["fine.jpg", "coarse.jpg"] {
      let written = try quality(forced.appendingPathComponent(name).path)
      #expect(written.quality == 50 && written.chroma == "4:2:0", "\(name)")
    }
  }

  @Test func applyKeepsTheQualityUnlessAskedAndPNGBecomesJPEG90() throws {
    let root = try CLIRunner.scratchFolder("quality-apply")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = try jpegFolder(root)
    let kept = root.appendingPathComponent("kept.jpg").path
    #expect(
      try CLIRunner.run([
        "apply", input.appendingPathComponent("fine.jpg").path, "-o", kept, "--set", "ev=0.3",
      ]).status == 0)
    let written = try quality(kept)
    #expect(abs(written.quality - 95) <= 1 && written.chroma == "4:4:4")
    let asked = root.appendingPathComponent("asked.jpg").path
    #expect(
      try CLIRunner.run([
        "apply", input.appendingPathComponent("fine.jpg").path, "-o", asked, "-q", "50",
      ]).status == 0)
    #expect(try quality(asked).quality == 50)
    let fromPNG = root.appendingPathComponent("coffee.jpg").path
    #expect(
      try CLIRunner.run(["apply", CLIRunner.sample("coffee.png"), "-o", fromPNG]).status == 0)
    let png = try quality(fromPNG)
    #expect(png.quality == 90 && png.chroma == "4:4:4")
  }

  @Test func helpStatesTheDefaults() throws {
    for command in ["apply", "batch"] {
      let help = try CLIRunner.run([command, "--help"])
      #expect(help.status == 0)
      #expect(
        help.standardOutput.contains(
          "a JPEG from a JPEG keeps the input's quality and chroma subsampling; otherwise JPEG 90 "
            + "4:4:4, WebP 90, HEIC 60, AVIF 80"), "\(command)")
    }
  }

  @Test func aBatchOfHEICsSaysOnceThatJPEGIsFaster() throws {
    let root = try CLIRunner.scratchFolder("quality-heic")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    let tiny = try Image(contentsOf: CLIRunner.sample("coffee.png")).extractArea(
      left: 200, top: 100, width: 64, height: 48)
    let png = root.appendingPathComponent("tiny.png").path
    try tiny.write(to: png)
    for name in ["a.heic", "b.heic"] {
      try HEICPictures.run(
        "heif-enc", ["-q", "50", png, "-o", input.appendingPathComponent(name).path])
    }
    let plain = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("o1").path,
    ])
    #expect(plain.status == 0)
    let notes = plain.standardError.components(separatedBy: "\n").filter { $0.hasPrefix("note:") }
    #expect(
      notes == [
        "note: HEIC outputs took 100 % of the time spent writing; their software encoders take "
          + "many times as long as JPEG's (HEIC about 20 times its CPU time; --format jpeg writes "
          + "JPEGs instead)"
      ])
    // A dry run says it from the plan.
    let planned = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("o2").path, "--dry-run",
    ])
    #expect(planned.standardError.contains("note: HEIC outputs are 2 of the 2 files planned"))
    // JSON: a field of the summary, no plain text.
    let json = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("o3").path, "--json",
    ])
    #expect(!json.standardError.contains("note"))
    let summary = json.standardOutput.components(separatedBy: "\n").last { !$0.isEmpty } ?? ""
    let object = try JSONSerialization.jsonObject(with: Data(summary.utf8)) as? [String: Any]
    #expect((object?["note"] as? String)?.hasPrefix("HEIC outputs took 100 %") == true)
    // Asked for by --format, or beaten by JPEG: no note.
    let asked = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("o4").path, "--format", "heic",
    ])
    #expect(asked.status == 0 && !asked.standardError.contains("note:"))
    let converted = try CLIRunner.run([
      "batch", input.path, "-o", root.appendingPathComponent("o5").path, "--format", "jpeg",
    ])
    #expect(converted.status == 0 && !converted.standardError.contains("note:"))
  }
}
