import Foundation
import HEIF
import Synchronization
import TestSupport
import Testing
import Video
import Vips

/// HEIC pictures decoded by FFmpeg's HEVC decoder through libheif's plugin interface
/// (``HEVCStillDecoder`` registered by ``HEVCDecoderPlugin``), against libheif's own libde265: the two
/// decode the same bitstream to the same samples (HEVC's decoding is exactly specified, so bit-exact is
/// the tolerance), whatever the picture's layout.
@Suite(.serialized) struct HEVCStillDecoderTests {
  /// FFmpeg's decoder, counting its calls, the layouts it returned and the most calls at once.
  final class Recorder: Sendable {
    struct Counts {
      var calls = 0
      var running = 0
      var mostAtOnce = 0
      var layouts: Set<String> = []
    }
    let counts = Mutex(Counts())
  }

  struct RecordingDecoder: HEVCPictureDecoder {
    let inner = HEVCStillDecoder()
    let recorder: Recorder

    func decodePicture<Result>(
      _ nalUnits: UnsafeRawBufferPointer, strict: Bool, _ body: (HEVCPicture) throws -> Result
    ) throws -> Result {
      recorder.counts.withLock {
        $0.calls += 1
        $0.running += 1
        $0.mostAtOnce = max($0.mostAtOnce, $0.running)
      }
      defer { recorder.counts.withLock { $0.running -= 1 } }
      return try inner.decodePicture(nalUnits, strict: strict) { picture in
        recorder.counts.withLock { _ = $0.layouts.insert("\(picture.chroma) \(picture.bitDepth)") }
        // Long enough that libheif's tile threads overlap on a busy machine.
        usleep(20_000)
        return try body(picture)
      }
    }
  }

  /// Registers a new recording decoder and returns its recorder.
  static func recording() throws -> Recorder {
    let recorder = Recorder()
    try HEVCDecoderPlugin.register(
      RecordingDecoder(recorder: recorder), name: HEVCStillDecoder.name)
    return recorder
  }

  /// Decodes `path` with each decoder: libde265's samples (the plugin withdrawn), FFmpeg's, and what
  /// the FFmpeg one recorded.
  static func bothDecoders(_ path: String) throws -> (
    libde265: HEIFDecodedImage, ffmpeg: HEIFDecodedImage, recorded: Recorder.Counts
  ) {
    let file = try HEIFFile(path: path)
    let withdrawn = try recording()
    HEVCDecoderPlugin.withdraw()
    let reference = try file.decodePrimary()
    #expect(withdrawn.counts.withLock { $0.calls } == 0)
    let recorder = try recording()
    let decoded = try file.decodePrimary()
    return (reference, decoded, recorder.counts.withLock { $0 })
  }

  /// `path` decoded by libde265 (the plugin withdrawn, then FFmpeg's decoder registered again).
  static func libde265Samples(_ path: String) throws -> [UInt16] {
    HEVCDecoderPlugin.withdraw()
    defer { try? HEVCDecoderPlugin.register(HEVCStillDecoder(), name: HEVCStillDecoder.name) }
    return try HEIFFile(path: path).decodePrimary().samples()
  }

  /// Root mean square difference of two sample lists.
  static func rms(_ a: [UInt16], _ b: [UInt16]) -> Double {
    let squares = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
    return (squares / Double(max(1, a.count))).squareRoot()
  }

  /// The PNG at `path` as 8-bit samples (`bands` of them a pixel).
  static func pngSamples(_ path: String, bands: Int) throws -> [UInt16] {
    let image = try Image(contentsOf: path)
    var bytes = [UInt8](repeating: 0, count: image.width * image.height * bands)
    try bytes.withUnsafeMutableBytes { raw in
      try image.render(
        into: raw, layout: FrameLayout(width: image.width, height: image.height, bands: bands))
    }
    return bytes.map(UInt16.init)
  }

  @Test(arguments: [("420", 641, 479), ("444", 320, 240)])
  func eightBitPicturesDecodeToLibde265sSamples(chroma: String, width: Int, height: Int) throws {
    let folder = try CLIRunner.scratchFolder("hevc-8bit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("photo.png").path
    let heic = folder.appendingPathComponent("photo.heic").path
    try HEICPictures.photo(png, width: width, height: height)
    try HEICPictures.run("heif-enc", ["-q", "80", "-p", "chroma=\(chroma)", png, "-o", heic])
    let (reference, decoded, recorded) = try Self.bothDecoders(heic)
    #expect(recorded.calls == 1)
    #expect(recorded.layouts == [chroma == "420" ? "yuv420 8" : "yuv444 8"])
    #expect(
      (decoded.width, decoded.height, decoded.bands, decoded.bitDepth) == (width, height, 3, 8))
    let samples = try decoded.samples()
    #expect(samples == (try reference.samples()))
    // And both are the photo (not the same wrong picture): quality 80 is within a few code values.
    #expect(Self.rms(samples, try Self.pngSamples(png, bands: 3)) < 6)
  }

  @Test func tenBitPictureKeepsItsDepthAndDecodesAlike() throws {
    let folder = try CLIRunner.scratchFolder("hevc-10bit")
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("photo16.png").path
    let heic = folder.appendingPathComponent("photo10.heic").path
    try HEICPictures.photo(png, width: 333, height: 250, ["colourspace", "rgb16"])
    try HEICPictures.run("heif-enc", ["-b", "10", "-q", "80", png, "-o", heic])
    let (reference, decoded, recorded) = try Self.bothDecoders(heic)
    #expect(recorded.layouts == ["yuv420 10"])
    #expect(decoded.bitDepth == 10)
    let samples = try decoded.samples()
    #expect(samples == (try reference.samples()))
    #expect(samples.max() ?? 0 > 255)
    #expect(samples.max() ?? 0 <= 1023)
  }

  @Test func greyPictureIsMonochrome() throws {
    let folder = try CLIRunner.scratchFolder("hevc-grey")
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("grey.png").path
    let heic = folder.appendingPathComponent("grey.heic").path
    try HEICPictures.photo(png, width: 300, height: 201, ["colourspace", "b-w"])
    try HEICPictures.run("heif-enc", ["-q", "80", png, "-o", heic])
    let (reference, decoded, recorded) = try Self.bothDecoders(heic)
    #expect(recorded.layouts == ["monochrome 8"])
    #expect(try decoded.samples() == (try reference.samples()))
  }

  @Test func alphaImageIsDecodedByThePluginToo() throws {
    let folder = try CLIRunner.scratchFolder("hevc-alpha")
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("rgba.png").path
    let heic = folder.appendingPathComponent("rgba.heic").path
    try HEICPictures.photo(png, width: 256, height: 160, ["bandjoin_const", "180"])
    try HEICPictures.run("heif-enc", ["-q", "90", png, "-o", heic])
    let (reference, decoded, recorded) = try Self.bothDecoders(heic)
    // The colour picture and the alpha picture (a monochrome auxiliary image), one call each.
    #expect(recorded.calls == 2)
    #expect(recorded.layouts == ["yuv420 8", "monochrome 8"])
    #expect(decoded.bands == 4)
    let samples = try decoded.samples()
    #expect(samples == (try reference.samples()))
    let alpha = stride(from: 3, to: samples.count, by: 4).map { Int(samples[$0]) }
    #expect(alpha.allSatisfy { abs($0 - 180) <= 2 })
  }

  @Test func gridTilesDecodeOnSeveralThreadsToLibde265sSamples() throws {
    let folder = try CLIRunner.scratchFolder("hevc-grid")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (columns, rows, tile) = (3, 2, (128, 96))
    let png = folder.appendingPathComponent("photo.png").path
    try HEICPictures.photo(png, width: columns * tile.0, height: rows * tile.1)
    var tiles: [URL] = []
    for row in 0..<rows {
      for column in 0..<columns {
        let part = folder.appendingPathComponent("tile-\(row)-\(column).png").path
        let coded = folder.appendingPathComponent("tile-\(row)-\(column).heic")
        try HEICPictures.run(
          "vips",
          ["crop", png, part, "\(column * tile.0)", "\(row * tile.1)", "\(tile.0)", "\(tile.1)"])
        try HEICPictures.run("heif-enc", ["-q", "85", part, "-o", coded.path])
        tiles.append(coded)
      }
    }
    // The grid's picture is cropped at the right and bottom, as a camera's is.
    let grid = folder.appendingPathComponent("grid.heic")
    let size = (columns * tile.0 - 17, rows * tile.1 - 5)
    try GridHEIC.write(
      grid, tiles: tiles, columns: columns, rows: rows, tileSize: tile, size: size)
    let (reference, decoded, recorded) = try Self.bothDecoders(grid.path)
    #expect(recorded.calls == columns * rows)
    #expect(recorded.mostAtOnce > 1)
    #expect((decoded.width, decoded.height) == size)
    let samples = try decoded.samples()
    #expect(samples == (try reference.samples()))
    let photo = try Self.pngSamples(png, bands: 3)
    let photoRow = columns * tile.0 * 3
    var cropped: [UInt16] = []
    for row in 0..<size.1 {
      let start = row * photoRow
      cropped += photo[start..<start + size.0 * 3]
    }
    #expect(Self.rms(samples, cropped) < 6)
  }

  @Test func libvipsHeifloadDecodesThroughThePlugin() throws {
    let folder = try CLIRunner.scratchFolder("hevc-vips")
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("photo.png").path
    let heic = folder.appendingPathComponent("photo.heic").path
    try HEICPictures.photo(png, width: 400, height: 300)
    try HEICPictures.run("heif-enc", ["-q", "80", png, "-o", heic])
    let recorder = try Self.recording()
    let viaVips = try Self.pngSamples(heic, bands: 3)
    #expect(recorder.counts.withLock { $0.calls } == 1)
    #expect(viaVips == (try Self.libde265Samples(heic)))
  }

  @Test func damagedDataIsAnErrorNamingTheProblem() throws {
    let folder = try CLIRunner.scratchFolder("hevc-damaged")
    defer { try? FileManager.default.removeItem(at: folder) }
    let damaged = try HEICPictures.cutShort(in: folder)
    _ = try Self.recording()
    #expect {
      try HEIFFile(path: damaged.path).decodePrimary()
    } throws: { error in
      "\(error)".contains("cannot decode the HEIF picture") && "\(error)".contains("cut short")
    }
  }

  @Test func repositorySampleHEICDecodesAlike() throws {
    let recorder = try Self.recording()
    let heic = CLIRunner.sample("coffee.heic")
    let decoded = try HEIFFile(path: heic).decodePrimary()
    #expect(recorder.counts.withLock { $0.calls } == 1)
    #expect(try decoded.samples() == (try Self.libde265Samples(heic)))
  }
}
