import Foundation
import SeededRandom
import TestSupport
import Vips

/// A corpus of broken, unusual and hostile inputs, generated on the spot (nothing is downloaded).
enum HostileCorpus {
  /// What a file in the corpus should give: an output, a failure whose message contains `reason`, or
  /// nothing (a file that is not an image by extension or by the first bytes of a format FrameDial
  /// writes: ignored in a folder, as videos and sidecars are).
  enum Expectation: Equatable {
    case output
    case failure(String)
    case ignored
  }

  /// Writes the corpus into `folder` and returns each file's name with its expectation.
  static func write(into folder: URL) throws -> [String: Expectation] {
    var expectations: [String: Expectation] = [:]
    func put(_ name: String, _ data: Data, _ expectation: Expectation) throws {
      try data.write(to: folder.appendingPathComponent(name))
      expectations[name] = expectation
    }
    func save(_ image: Image, _ name: String, _ arguments: [String: Argument] = [:]) throws {
      var all = arguments
      all["in"] = .image(image)
      all["filename"] = .string(folder.appendingPathComponent(name).path)
      let saver = [
        "jpg": "jpegsave", "png": "pngsave", "gif": "gifsave", "tif": "tiffsave",
        "heic": "heifsave",
      ][(name as NSString).pathExtension]
      _ = try Operation.call(saver ?? "pngsave", all)
      expectations[name] = .output
    }
    let rocket = try Image(contentsOf: CLIRunner.sample("rocket.jpg"))
    let small = try rocket.resized(by: 0.25)

    // A cut JPEG or PNG fails while its pixels are decoded; a cut HEIC already at its header.
    for (sample, reason) in [
      ("rocket.jpg", "cannot decode the image: VipsJpeg: Premature end of input file"),
      ("coffee.png", "cannot decode the image"), ("coffee.heic", "cannot read"),
    ] {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample(sample)))
      let ext = (sample as NSString).pathExtension
      try put("truncated-\(ext).\(ext)", bytes.prefix(bytes.count / 2), .failure(reason))
    }
    try put("zero-bytes.jpg", Data(), .failure("empty file"))
    // Seeded: a run of unseeded bytes now and then looks enough like a format of ImageMagick's for
    // libvips to offer its (refused) loader, which is another message.
    var generator = SeededGenerator(seed: 5000)
    try put(
      "random.png", Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }),
      .failure("not a known image format"))
    try put(
      "bomb.png", pngHeaderOnly(width: 100_000, height: 100_000), .failure("over the pixel limit"))

    try save(small, "progressive.jpg", ["interlace": true])
    let cmyk = try Operation.call(
      "icc_transform", ["in": .image(small), "output-profile": "cmyk", "input-profile": "srgb"]
    ).image()
    try save(cmyk, "cmyk.jpg")
    let sixteen = try Operation.call(
      "copy", ["in": .image(small.linear([257], [0]).cast(to: .ushort)), "interpretation": "rgb16"]
    ).image()
    try save(sixteen, "sixteen-bit.png")
    let grey = try small.colourspace("b-w")
    try save(grey, "grey.png")
    let alpha = try small.extractBands(0).linear([0.5], [64], uchar: true)
    try save(Image.joinBands([grey, alpha]), "grey-alpha.png")
    try save(Image.joinBands([small, alpha]), "rgba.png")
    let pages = try Operation.call(
      "arrayjoin",
      ["in": .images([small, small.linear([-1], [255], uchar: true), small]), "across": 1]
    ).image()
    let animated = try pages.editingMetadata { $0.setInt("page-height", small.height) }
    try save(animated, "animated.gif")
    try save(animated, "multipage.tif")

    try put(
      "drawing.svg",
      Data(
        #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30"/></svg>"#
          .utf8),
      .ignored)
    try put(
      "document.pdf",
      Data(
        "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 30 20]>>endobj\ntrailer<</Root 1 0 R>>\n"
          .utf8), .ignored)
    try put("portable.ppm", Data("P3\n2 1\n255\n255 0 0 0 0 255\n".utf8), .ignored)
    // Named as images, a blocked format still fails plainly rather than being passed over.
    try put(
      "drawing.png",
      Data(
        #"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3"/></svg>"#
          .utf8), .failure("format not allowed"))
    return expectations
  }

  /// A PNG whose header claims `width × height` followed by no pixel data: a decompression bomb's header.
  static func pngHeaderOnly(width: UInt32, height: UInt32) -> Data {
    var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    var header = Data("IHDR".utf8)
    for value in [width, height] { header += withUnsafeBytes(of: value.bigEndian) { Data($0) } }
    header += Data([8, 2, 0, 0, 0])
    data += withUnsafeBytes(of: UInt32(13).bigEndian) { Data($0) }
    data += header
    data += withUnsafeBytes(of: crc32(header).bigEndian) { Data($0) }
    var idat = Data("IDAT".utf8)
    idat += Data([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
    data += withUnsafeBytes(of: UInt32(8).bigEndian) { Data($0) }
    data += idat
    data += withUnsafeBytes(of: crc32(idat).bigEndian) { Data($0) }
    let end = Data("IEND".utf8)
    data += withUnsafeBytes(of: UInt32(0).bigEndian) { Data($0) }
    data += end
    data += withUnsafeBytes(of: crc32(end).bigEndian) { Data($0) }
    return data
  }

  /// CRC-32 (IEEE), as PNG chunks carry it.
  static func crc32(_ data: Data) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in data {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return crc ^ 0xFFFF_FFFF
  }
}
