import CVips
import Foundation
import JPEG

extension Image {
  /// The JPEG `file` decoded at `options.jpegEighths`/8 of its size by libjpeg-turbo, with the metadata
  /// libvips's `loader` reads from `source` (EXIF, ICC profile, XMP, orientation), the pixel limit
  /// checked on the scaled size and damage refused as `options.failOn` says; turned upright when
  /// `options.autoRotate` asks. Nil for a JPEG that is not YCbCr, RGB or grey (CMYK): libvips decodes it.
  static func scaledJPEG(
    _ file: CheckedFile, loader: String, source: LoadSource, options: LoadOptions, name: String
  ) throws -> Image? {
    let bytes = try contents(of: file, name: name)
    let decoded: JPEGScaledPicture
    do {
      guard
        let picture = try JPEGScaledPicture.decode(
          bytes, eighths: options.jpegEighths, failOn: jpegFailLevel(options.failOn),
          pixelLimit: options.pixelLimit)
      else { return nil }
      decoded = picture
    } catch .overPixelLimit(let width, let height) {
      throw overPixelLimit(name, width: width, height: height, limit: options.pixelLimit ?? 0)
    } catch .damaged(let text) {
      throw VipsError("\(name): cannot decode the image: \(text)")
    } catch .unreadable(let text) {
      throw VipsError("\(name): cannot read: \(text)")
    }
    let (width, height, bands) = (decoded.width, decoded.height, decoded.bands)
    // libvips copies the pixels while `decoded`, which owns them, is still alive.
    let copied = withExtendedLifetime(decoded) {
      decoded.pixels.flatMap {
        vips_image_new_from_memory_copy(
          $0, width * height * bands, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
      }
    }
    guard let memory = copied
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
    }.noting(try? JPEG.JPEGHeader(descriptor: file.descriptor, name: name))
    guard options.autoRotate, image.orientation != 1 else { return image }
    return try image.autoRotated()
  }
}

/// libjpeg's warnings that stop a decode at each fail-on level, as ``verifyDecoding(_:options:)``
/// judges libvips's decodes: truncation from `.truncated` on, every warning at `.warning`.
private func jpegFailLevel(_ failOn: LoadOptions.FailOn) -> JPEGScaledPicture.FailOn {
  switch failOn {
  case .none: .none
  case .truncated, .error: .truncated
  case .warning: .warning
  }
}
