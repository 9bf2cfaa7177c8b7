import CJPEGHeader
import CVips
import Foundation

extension Image {
  /// The JPEG `file` decoded at `options.jpegEighths`/8 of its size by libjpeg-turbo, with the metadata
  /// libvips's `loader` reads from `source` (EXIF, ICC profile, XMP, orientation), the pixel limit
  /// checked on the scaled size and damage refused as `options.failOn` says; turned upright when
  /// `options.autoRotate` asks. Nil for a JPEG that is not YCbCr, RGB or grey (CMYK): libvips decodes it.
  static func scaledJPEG(
    _ file: CheckedFile, loader: String, source: LoadSource, options: LoadOptions, name: String
  ) throws -> Image? {
    let bytes = try contents(of: file, name: name)
    var decoded = FDJPEGScaledImage()
    defer { fd_jpeg_scaled_free(&decoded) }
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBytes { raw in
      fd_jpeg_decode_scaled(
        raw.baseAddress, raw.count, Int32(options.jpegEighths), jpegFailLevel(options.failOn),
        Int64(options.pixelLimit ?? 0), &decoded, &message, message.count)
    }
    switch Int(status) {
    case Int(FD_JPEG_SCALED_OK):
      break
    case Int(FD_JPEG_SCALED_UNSUPPORTED):
      return nil
    case Int(FD_JPEG_SCALED_OVER_LIMIT):
      throw overPixelLimit(
        name, width: Int(decoded.width), height: Int(decoded.height), limit: options.pixelLimit ?? 0
      )
    default:
      let text = String(
        decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let failure = status == FD_JPEG_SCALED_DAMAGED ? "cannot decode the image" : "cannot read"
      throw VipsError("\(name): \(failure): \(text)")
    }
    let (width, height, bands) = (Int(decoded.width), Int(decoded.height), Int(decoded.bands))
    guard let pixels = decoded.pixels,
      let memory = vips_image_new_from_memory_copy(
        pixels, width * height * bands, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR
      )
    else { throw VipsError.fromLibvips("\(name): cannot hold a \(width)×\(height) picture") }
    // The header alone: libvips decodes no pixel of it.
    var headerOptions = options
    (headerOptions.pixelLimit, headerOptions.autoRotate, headerOptions.shrink) = (nil, false, 1)
    headerOptions.jpegEighths = 8
    let header = try runLoader(loader, source: source, options: headerOptions, name: name)
    let typed = try Operation.call(
      "copy",
      [
        "in": .image(Image(owning: memory)), "interpretation": .string(bands == 1 ? "b-w" : "srgb"),
        "xres": .double(header.pointer.pointee.Xres * Double(width) / Double(header.width)),
        "yres": .double(header.pointer.pointee.Yres * Double(height) / Double(header.height)),
      ]
    ).image()
    let image = try typed.editingMetadata { editor in
      for field in header.fieldNames where vips_image_get_typeof(editor.pointer, field) == 0 {
        var value = GValue()
        guard vips_image_get(header.pointer, field, &value) == 0 else {
          _ = VipsError.takeLibvipsMessage()
          continue
        }
        vips_image_set(editor.pointer, field, &value)
        g_value_unset(&value)
      }
      if options.failOn == .warning { editor.setInt(jpegDataCheckedField, 1) }
    }.noting(try? JPEGHeader(file, name: name))
    guard options.autoRotate, image.orientation != 1 else { return image }
    return try image.autoRotated()
  }
}

/// libjpeg's warnings that stop a decode at each fail-on level, as ``verifyDecoding(_:options:)``
/// judges libvips's decodes: truncation from `.truncated` on, every warning at `.warning`.
private func jpegFailLevel(_ failOn: LoadOptions.FailOn) -> Int32 {
  switch failOn {
  case .none: Int32(FD_JPEG_FAIL_ON_NONE)
  case .truncated, .error: Int32(FD_JPEG_FAIL_ON_TRUNCATED)
  case .warning: Int32(FD_JPEG_FAIL_ON_WARNING)
  }
}
