import Foundation
import Testing

@testable import Vips

/// The one-thread decode that decides whether a file is damaged, libvips's error history, and loader
/// choices for damaged files.
@Suite struct DecodeVerificationTests {
  /// rocket.jpg shrunk to a few KB, its frame header patched to claim `side × side`.
  func jpegClaiming(side: UInt16, in folder: URL) throws -> String {
    let small = try Image(contentsOf: Samples.path("rocket.jpg")).resized(by: 0.1)
    var bytes = [UInt8](try small.encoded(as: .jpeg))
    var index = 2
    while index + 9 < bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xC0 {
      index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
    }
    for offset in [5, 7] {
      bytes[index + offset] = UInt8(side >> 8)
      bytes[index + offset + 1] = UInt8(side & 0xFF)
    }
    let path = folder.appendingPathComponent("claims.jpg").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func intactFilesPassAndCutOnesFailWithTheDecodersMessage() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["coffee.png", "rocket.jpg"] {
      try Image.verifyDecoding(Samples.path(name))
    }
    let png = try Data(contentsOf: URL(fileURLWithPath: Samples.path("coffee.png")))
    let cut = folder.appendingPathComponent("cut.png").path
    try png.prefix(png.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
    #expect(throws: VipsError("cannot decode the image: vipspng: libpng read error")) {
      try Image.verifyDecoding(cut)
    }
    try Image.verifyDecoding(cut, options: LoadOptions(failOn: .none))
  }

  @Test func aJPEGWhoseDataEndsEarlyIsTruncatedUnlessFailOnIsNone() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try jpegClaiming(side: 2000, in: folder)
    // libvips itself decodes it at `.truncated` without an error, filling the missing part with grey.
    try Image(contentsOf: path, options: LoadOptions(failOn: .truncated)).decodeEveryPixel()
    #expect(
      throws: VipsError(
        "cannot decode the image: VipsJpeg: Corrupt JPEG data: premature end of data segment")
    ) {
      try Image.verifyDecoding(path)
    }
    try Image.verifyDecoding(path, options: LoadOptions(failOn: .none))
  }

  @Test func errorsRaisedCountsMessagesWhoeverReadsThem() throws {
    let mark = Vips.errorMark()
    _ = try Image(contentsOf: Samples.path("coffee.png")).average()
    #expect(!Vips.errorsRaised(since: mark))
    let failedCall = Vips.errorMark()
    #expect(throws: VipsError.self) {
      try Image(contentsOf: Samples.path("coffee.png")).extractArea(
        left: 900, top: 0, width: 10, height: 10)
    }
    #expect(Vips.errorsRaised(since: failedCall))
    #expect(!Vips.errorsRaised(since: Vips.errorMark()))
  }

  @Test func anArgumentOutOfRangeIsAnErrorNotAGLibWarning() throws {
    let image = try Image(contentsOf: Samples.path("coffee.png"))
    #expect(
      throws: VipsError("argument 'width' of libvips operation thumbnail_image is out of range")
    ) {
      try image.thumbnailed(width: 20_000_000, height: 10)
    }
  }

  @Test func aTIFFWithADamagedDirectoryIsReadByTheTIFFLoader() throws {
    let folder = try Samples.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var bytes = [UInt8](try Image(contentsOf: Samples.path("coffee.png")).encoded(as: .tiff))
    bytes.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0x7F])
    let path = folder.appendingPathComponent("damaged.tif").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    #expect(Image.loaderName(forFile: path) == "magickload")
    do {
      _ = try Image(contentsOf: path)
      Issue.record("a damaged TIFF was read")
    } catch let error as VipsError {
      #expect(error.message.hasPrefix("\(path): cannot read: damaged TIFF: "), "\(error.message)")
    }
  }
}
