import Controls
import Foundation
import HEIF
import TestSupport
import Testing
import Vips

@testable import FrameDial

/// HEIC written through libheif (``HEIFOutput``) and HEIC inputs read once, with their XMP.
@Suite(.serialized) struct HEICOutputTests {
  let renderer = StillRenderer()

  static let xmp = Data(
    """
    <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">\
    <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Rating>4</xmp:Rating></rdf:Description></rdf:RDF>\
    </x:xmpmeta><?xpacket end="w"?>
    """.utf8)

  /// `exiftool -s3 -n ARGUMENTS… PATH`: the values, one a line.
  static func exiftool(_ arguments: [String], _ path: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["exiftool", "-s3", "-n"] + arguments + [path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// A photo-like `width` × `height` picture (a sample enlarged), written as a HEIC at `path` by
  /// libheif with `xmp`.
  static func writeHEIC(
    _ path: String, width: Int, height: Int, xmp: Data? = nil
  ) throws {
    try HDRPhotos.coffee(width: width, height: height).write(
      to: path, encoding: HEIFEncoding(quality: 80, preset: .ultrafast),
      metadata: HEIFMetadata(xmp: xmp))
  }

  /// The bytes this process has read so far (`rchar` of /proc/self/io: every read, from disk or cache).
  static func bytesRead() throws -> Int {
    let text = try String(contentsOfFile: "/proc/self/io", encoding: .utf8)
    let line = text.split(separator: "\n").first { $0.hasPrefix("rchar:") }
    return Int(line?.split(separator: " ").last ?? "") ?? 0
  }

  static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    let squares = zip(a, b).reduce(0.0) { sum, pair in
      let difference = Double(pair.0) - Double(pair.1)
      return sum + difference * difference
    }
    return 10 * log10(255 * 255 / max(squares / Double(a.count), 1e-9))
  }

  @Test func writesTheRenderedPixelsWithProfileEXIFAndXMP() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A photo turned by EXIF orientation 6, with XMP added.
    let input = folder.appendingPathComponent("rotated.jpg").path
    try Image(contentsOf: RenderFixtures.sample("rocket_exif_rotated.jpg"))
      .editingMetadata { $0.setBlob(Image.xmpField, Self.xmp) }
      .write(to: input, options: SaveOptions(quality: 95))
    #expect(try Self.exiftool(["-Orientation"], input) == ["6"])
    let state = ControlState(exposureBias: 0.5, saturation: 1.3)
    let heic = folder.appendingPathComponent("out.heic").path
    let png = folder.appendingPathComponent("out.png").path
    let result = try renderer.renderFile(at: input, to: heic, state: state)
    try renderer.renderFile(at: input, to: png, state: state)
    #expect(result.format == .heic && result.width == 640 && result.height == 427)

    let written = try Image(contentsOf: heic)
    #expect(written.loader == "heifload")
    #expect(written.width == 640 && written.height == 427 && written.bands == 3)
    // The lossless render's pixels, as close as x265 slow (`--effort small`, libvips's heifsave
    // setting) brings them at the same quality, in at most 10 % more bytes.
    let reference = try Image(contentsOf: png)
    let slow = folder.appendingPathComponent("slow.heic").path
    try renderer.renderFile(
      at: png, to: slow, state: ControlState(), options: StillOptions(quality: 60, effort: .small))
    let referenceBytes = try reference.pixelBytes()
    let quality = Self.psnr(try written.pixelBytes(), referenceBytes)
    let slowQuality = Self.psnr(try Image(contentsOf: slow).pixelBytes(), referenceBytes)
    #expect(quality > slowQuality - 0.3, "PSNR \(quality) dB; x265 slow's \(slowQuality) dB")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: heic)).count
    let slowBytes = try Data(contentsOf: URL(fileURLWithPath: slow)).count
    #expect(
      bytes > 10_000 && bytes < slowBytes + slowBytes / 10, "\(bytes); x265 slow's \(slowBytes)")

    #expect(try Self.exiftool(["-Orientation"], heic) == ["1"])
    #expect(try Self.exiftool(["-ExifImageWidth", "-ExifImageHeight"], heic) == ["640", "427"])
    // The sample carries Adobe RGB (1998): kept in its own space (`--profile keep`), profile written.
    #expect(try Self.exiftool(["-ICC_Profile:ProfileDescription"], heic) == ["Adobe RGB (1998)"])
    #expect(try Self.exiftool(["-XMP-xmp:Rating"], heic) == ["4"])
    #expect(try Self.exiftool(["-ChromaFormat"], heic) == ["1"])  // 4:2:0 below quality 90
    #expect(try HEIFFile(path: heic).xmp() == Self.xmp)
  }

  @Test func qualityNinetyKeepsFullChroma() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let heic = folder.appendingPathComponent("out.heic").path
    try renderer.renderFile(
      at: RenderFixtures.sample("coffee.png"), to: heic, state: ControlState(),
      options: StillOptions(quality: 90))
    #expect(try Self.exiftool(["-ChromaFormat"], heic) == ["3"])  // 4:4:4
  }

  /// Mean SSIM of the luma (BT.601 weights) of two RGB pictures, over 8 × 8 windows 4 pixels apart.
  static func lumaSSIM(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, bands: Int) -> Double {
    func luma(_ pixels: [UInt8]) -> [Double] {
      stride(from: 0, to: width * height * bands, by: bands).map {
        0.299 * Double(pixels[$0]) + 0.587 * Double(pixels[$0 + 1]) + 0.114 * Double(pixels[$0 + 2])
      }
    }
    let (x, y) = (luma(a), luma(b))
    let (c1, c2) = (pow(0.01 * 255, 2.0), pow(0.03 * 255, 2.0))
    var (sum, windows) = (0.0, 0)
    for top in stride(from: 0, through: height - 8, by: 4) {
      for left in stride(from: 0, through: width - 8, by: 4) {
        var (sx, sy, sxx, syy, sxy) = (0.0, 0.0, 0.0, 0.0, 0.0)
        for row in top..<(top + 8) {
          for index in (row * width + left)..<(row * width + left + 8) {
            sx += x[index]
            sy += y[index]
            sxx += x[index] * x[index]
            syy += y[index] * y[index]
            sxy += x[index] * y[index]
          }
        }
        let (mx, my) = (sx / 64, sy / 64)
        let (vx, vy, cxy) = (sxx / 64 - mx * mx, syy / 64 - my * my, sxy / 64 - mx * my)
        sum += (2 * mx * my + c1) * (2 * cxy + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2))
        windows += 1
      }
    }
    return sum / Double(windows)
  }

  /// The bytes `points` (bytes and luma SSIM at several qualities) need for `ssim`, read off the line
  /// between the two points around it (in log bytes against −log(1 − SSIM)); nil outside them.
  static func bytes(at ssim: Double, _ points: [(bytes: Int, ssim: Double)]) -> Double? {
    let line = points.map { (quality: -log10(1 - $0.ssim), bytes: log(Double($0.bytes))) }
      .sorted { $0.quality < $1.quality }
    let target = -log10(1 - ssim)
    for (low, high) in zip(line, line.dropFirst())
    where low.quality <= target && target <= high.quality && high.quality > low.quality {
      return exp(
        low.bytes + (high.bytes - low.bytes) * (target - low.quality) / (high.quality - low.quality)
      )
    }
    return nil
  }

  /// Each effort's file size for x265 `slow`'s quality (`small`, libvips's heifsave): `fast`'s options
  /// take fewer bytes than plain x265 `ultrafast`, `balanced` comes within a few percent of `slow`.
  @Test func eachEffortsBytesForSlowsQuality() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let png = folder.appendingPathComponent("lossless.png").path
    try renderer.renderFile(
      at: RenderFixtures.sample("astronaut.png"), to: png, state: ControlState())
    let reference = try RenderFixtures.pixels(of: png)
    func measured(_ heic: String) throws -> (bytes: Int, ssim: Double) {
      let decoded = try Image(contentsOf: heic).pixelBytes()
      return (
        try Data(contentsOf: URL(fileURLWithPath: heic)).count,
        Self.lumaSSIM(
          decoded, reference.bytes, width: reference.width, height: reference.height,
          bands: reference.bands)
      )
    }
    var points: [String: [(bytes: Int, ssim: Double)]] = [:]
    for quality in [50, 55, 60, 65, 70] {
      for effort in EncodingEffort.allCases {
        let heic = folder.appendingPathComponent("\(effort)-\(quality).heic").path
        try renderer.renderFile(
          at: png, to: heic, state: ControlState(),
          options: StillOptions(quality: quality, effort: effort))
        points[effort.rawValue, default: []].append(try measured(heic))
      }
      // x265 ultrafast as the preset alone makes it (FrameDial's `fast` before its options).
      let plain = folder.appendingPathComponent("plain-\(quality).heic").path
      let picture = try HEIFPicture(
        width: reference.width, height: reference.height, hasAlpha: false)
      try picture.withPixels { rows, stride in
        try Image(contentsOf: png).render(
          into: rows,
          layout: FrameLayout(
            width: reference.width, height: reference.height, bands: 3, rowStride: stride))
      }
      try picture.write(
        to: plain, encoding: HEIFEncoding(quality: quality, preset: .ultrafast),
        metadata: HEIFMetadata())
      points["plain", default: []].append(try measured(plain))
    }
    let slow = try #require(points["small"]?[2])  // quality 60
    func ratio(_ name: String) throws -> Double {
      try #require(Self.bytes(at: slow.ssim, points[name] ?? [])) / Double(slow.bytes)
    }
    let (plain, fast, balanced) = (try ratio("plain"), try ratio("fast"), try ratio("balanced"))
    #expect(plain > 1.2 && fast < plain - 0.05, "ultrafast \(plain)×, fast \(fast)×")
    #expect(balanced < 1.06 && balanced < fast - 0.1, "balanced \(balanced)×, fast \(fast)×")
  }

  @Test func aHEICInputKeepsItsXMP() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("tagged.heic").path
    try Self.writeHEIC(input, width: 320, height: 240, xmp: Self.xmp)
    #expect(try Self.exiftool(["-XMP-xmp:Rating"], input) == ["4"])
    // libvips 8.14's reader alone does not show it.
    #expect(!(try Image(contentsOf: input).hasField(Image.xmpField)))
    for name in ["out.jpg", "out.heic", "out.png"] {
      let output = folder.appendingPathComponent(name).path
      try renderer.renderFile(at: input, to: output, state: ControlState(contrast: 1.2))
      #expect(try Self.exiftool(["-XMP-xmp:Rating"], output) == ["4"], "\(name)")
    }
  }

  @Test func aHEICInputIsDecodedOnce() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("photo.heic").path
    try Self.writeHEIC(input, width: 1600, height: 1200)
    let fileBytes = try Data(contentsOf: URL(fileURLWithPath: input)).count
    // Decoding raises no message that would have the file decoded again (DecodeVerdict).
    let mark = Vips.errorMark()
    try Image(bytes: Data(contentsOf: URL(fileURLWithPath: input))).decodeEveryPixel()
    #expect(!Vips.errorsRaised(since: mark))
    // The file is read from disk once, for the pixels and the XMP alike.
    let before = try Self.bytesRead()
    try renderer.renderFile(
      at: input, to: folder.appendingPathComponent("out.jpg").path,
      state: ControlState(exposureBias: 0.5))
    let read = try Self.bytesRead() - before
    #expect(
      read >= fileBytes && read < fileBytes + fileBytes / 4, "read \(read) of \(fileBytes) bytes")
  }

  @Test func aDamagedHEICIsNamedAndNothingIsWritten() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = folder.appendingPathComponent("whole.heic").path
    try Self.writeHEIC(whole, width: 640, height: 480)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
    let cut = folder.appendingPathComponent("cut.heic").path
    try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
    let output = folder.appendingPathComponent("out.heic").path
    #expect {
      try renderer.renderFile(at: cut, to: output, state: ControlState(exposureBias: 0.5))
    } throws: { error in
      // libheif 1.19 opens a file whose coded data is cut and refuses it when decoding.
      "\(error)".hasPrefix("\(cut): cannot decode the image: damaged HEIF: ")
        && "\(error)".contains("end of file")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(Set(left) == ["whole.heic", "cut.heic"])
  }
}
