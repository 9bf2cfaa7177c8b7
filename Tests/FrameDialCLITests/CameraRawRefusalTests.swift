import Foundation
import Testing
import Vips

/// Camera raws built like TIFF files are recognised by their content, whatever their names, and never
/// written: libvips's TIFF loader would read a NEF-like file as its small preview and a DNG as its
/// undeveloped mosaic.
@Suite struct CameraRawRefusalTests {
  @Test(arguments: ["DSC_0001.tif", "DSC_0001", "DSC_0001.NEF"])
  func aNEFLikeFileIsRefusedNotWrittenAsItsPreview(name: String) throws {
    let folder = try CLIRunner.scratchFolder("raw-nef")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent(name)
    try RawLikeFiles.nefLike().write(to: input)
    let output = folder.appendingPathComponent("out.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 1, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "a camera raw file (NIKON CORPORATION NIKON Z 6_2), a colour filter array mosaic of 4032×3024"
      ),
      "\(result.standardError)")
    #expect(result.standardError.hasPrefix("framedial apply: "))
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func aBayerDNGIsRefusedByContentFromAFileAndFromStandardInput() throws {
    let folder = try CLIRunner.scratchFolder("raw-dng")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("IMG_0001.tiff")
    let dng = RawLikeFiles.bayerDNG()
    try dng.write(to: input)
    let output = folder.appendingPathComponent("out.png")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains(
        "a DNG (Apple iPhone 16 Pro), a colour filter array mosaic of 96×64"),
      "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
    let piped = try CLIRunner.run(["apply", "-", "-o", "-", "--format", "png"], input: dng)
    #expect(piped.status == 1)
    #expect(piped.standardError.contains("a DNG"), "\(piped.standardError)")
    #expect(piped.outputBytes.isEmpty)
  }

  @Test func aBatchReportsRawsAsFailedAndWritesTheRest() throws {
    let folder = try CLIRunner.scratchFolder("raw-batch")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    let output = folder.appendingPathComponent("out")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try RawLikeFiles.nefLike().write(to: input.appendingPathComponent("DSC_0002"))
    try RawLikeFiles.bayerDNG().write(to: input.appendingPathComponent("IMG_0002.tif"))
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"),
      toPath: input.appendingPathComponent("rocket.jpg").path)
    // An ordinary TIFF, camera tags and all, still reads.
    try Image.fromPixels(
      [UInt8](repeating: 120, count: 16 * 8 * 3), width: 16, height: 8, bands: 3
    ).write(to: input.appendingPathComponent("plain.tif").path)
    let result = try CLIRunner.run(["batch", input.path, "-o", output.path])
    #expect(result.status == 1)
    #expect(result.standardError.contains("2 done, 0 skipped, 2 failed"), "\(result.standardError)")
    let written = try FileManager.default.contentsOfDirectory(atPath: output.path)
      .filter { !$0.hasPrefix(".") }.sorted()
    #expect(written == ["plain.tif", "rocket.jpg"])
    let refusals = result.standardError.split(separator: "\n")
      .filter { $0.contains("FrameDial does not develop camera raw files yet") }
    #expect(refusals.count == 2, "\(result.standardError)")
  }
}
