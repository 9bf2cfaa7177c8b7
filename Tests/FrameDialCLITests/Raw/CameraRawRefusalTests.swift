import Foundation
import Raw
import TestSupport
import Testing
import Vips

/// Camera raws are recognised by their content, whatever their names, and developed on LibRaw, never
/// read by a libvips loader: libvips's TIFF loader would read a NEF-like file as its small preview and a
/// DNG as its undeveloped mosaic. What LibRaw cannot develop is refused, naming the camera and LibRaw's
/// version, and never written.
@Suite struct CameraRawRefusalTests {
  @Test(arguments: ["DSC_0001.tif", "DSC_0001", "DSC_0001.NEF"])
  func aNEFLikeFileLibRawCannotDecodeIsRefusedNotWrittenAsItsPreview(name: String) throws {
    let folder = try CLIRunner.scratchFolder("raw-nef")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent(name)
    try RawLikeFiles.nefLike().write(to: input)
    let output = folder.appendingPathComponent("out.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path, "--set", "ev=0.3"])
    #expect(result.status == 1, "\(result.standardError)")
    // Its mosaic's strip is cut short (64 of its 4032 × 3024 × 2 bytes are there, at the end of the
    // file): refused before LibRaw decodes anything, and LibRaw says nothing of its own.
    let size = RawLikeFiles.nefLike().count
    #expect(
      result.standardError
        == "framedial apply: \(input.path): a camera raw file (NIKON Z 6_2), a colour filter array "
        + "mosaic of 4032×3024: the file is damaged: its raw strip 1 of 1 runs from byte "
        + "\(size - 64) to \(size - 64 + 4032 * 3024 * 2), past the end of the \(size)-byte file (it is "
        + "cut short)\n")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func aBayerDNGIsDevelopedNotReadAsItsMosaicFromAFileAndFromStandardInput() throws {
    let folder = try CLIRunner.scratchFolder("raw-dng")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("IMG_0001.tiff")
    let dng = RawLikeFiles.bayerDNG()
    try dng.write(to: input)
    // libvips itself never opens it.
    #expect(throws: VipsError.self) { try Image(contentsOf: input.path) }
    let output = folder.appendingPathComponent("out.png")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    // libvips's TIFF loader would give the one-band mosaic of codes.
    let developed = try Image(contentsOf: output.path)
    #expect(developed.bands == 3 && developed.width == 96 && developed.height == 64)
    let piped = try CLIRunner.run(["apply", "-", "-o", "-", "--format", "png"], input: dng)
    #expect(piped.status == 0, "\(piped.standardError)")
    let fromPipe = try Image(bytes: piped.outputBytes)
    #expect(fromPipe.bands == 3 && fromPipe.width == 96)
  }

  @Test func aRawLibRawDoesNotRecogniseIsAFailedEntryNamingLibRawsVersion() throws {
    let folder = try CLIRunner.scratchFolder("raw-unknown")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    // A Canon CR3's container header with nothing LibRaw can parse behind it.
    let header = [0, 0, 0, 0x18] + Array("ftypcrx ".utf8) + [0, 0, 0, 1] + Array("crx isom".utf8)
    try Data(header + [UInt8](repeating: 0, count: 3000)).write(
      to: input.appendingPathComponent("IMG_0009.CR3"))
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"),
      toPath: input.appendingPathComponent("rocket.jpg").path)
    let output = folder.appendingPathComponent("out")
    let result = try CLIRunner.run(["batch", input.path, "-o", output.path])
    #expect(result.status == 1)
    #expect(
      result.standardError.contains(
        "failed  \(input.path)/IMG_0009.CR3: a camera raw file (.cr3): LibRaw "
          + "\(RawFile.libRawVersion) cannot open it: unsupported file format or not raw file (this "
          + "camera or format is unknown to LibRaw \(RawFile.libRawVersion))"),
      "\(result.standardError)")
    #expect(result.standardError.contains("1 done, 0 skipped, 1 failed"))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: output.path).filter {
        !$0.hasPrefix(".")
      } == ["rocket.jpg"])
  }

  @Test func aJPEGXLCompressedDNGIsRefusedNamingTheCompressionAndLibRawsVersion() throws {
    let folder = try CLIRunner.scratchFolder("raw-jxl")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene()
    scene.make = "Apple"
    scene.model = "iPhone 16 Pro"
    scene.compression = 52546
    let input = folder.appendingPathComponent("IMG_0003.DNG")
    try scene.data().write(to: input)
    let output = folder.appendingPathComponent("out.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 1)
    #expect(
      result.standardError.hasPrefix(
        "framedial apply: \(input.path): a DNG (Apple iPhone 16 Pro), a colour filter array mosaic "
          + "of 64×48, JPEG XL–compressed: LibRaw \(RawFile.libRawVersion) cannot decode JPEG XL"),
      "\(result.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output.path))
  }

  @Test func aBatchDevelopsRawsReportsWhatLibRawCannotAndWritesTheRest() throws {
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
    #expect(result.standardError.contains("3 done, 0 skipped, 1 failed"), "\(result.standardError)")
    let written = try FileManager.default.contentsOfDirectory(atPath: output.path)
      .filter { !$0.hasPrefix(".") }.sorted()
    // The DNG named .tif is developed to a JPEG: a raw cannot be written back.
    #expect(written == ["IMG_0002.jpg", "plain.tif", "rocket.jpg"])
    #expect(
      result.standardError.contains(
        "failed  \(input.path)/DSC_0002: a camera raw file (NIKON Z 6_2), a colour filter array "
          + "mosaic of 4032×3024: the file is damaged: its raw strip 1 of 1 runs from byte"),
      "\(result.standardError)")
  }
}
