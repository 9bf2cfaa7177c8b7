import Vips

/// A photo-like 8-bit RGB frame: a sample photo cropped to the frame's aspect ratio and enlarged with
/// libvips (Lanczos 3). Not random noise, which would defeat caches unfairly.
struct SampleFrame: Sendable {
  /// The frame's name in the report, e.g. "1080p".
  var name: String
  /// Width in pixels.
  var width: Int
  /// Height in pixels.
  var height: Int
  /// Packed RGB pixels, `width × height × 3` bytes.
  var pixels: [UInt8]

  /// The photo at `path`, centre-cropped to `width : height` and enlarged to exactly that size.
  static func make(name: String, from path: String, width: Int, height: Int) throws -> SampleFrame {
    let image = try enlargedPhoto(path, width: width, height: height)
    return SampleFrame(name: name, width: width, height: height, pixels: try image.pixelBytes())
  }

  /// The photo at `path` as an 8-bit, 3-band image of exactly `width × height`.
  static func enlargedPhoto(_ path: String, width: Int, height: Int) throws -> Image {
    let photo = try Image(contentsOf: path).autoRotated()
    guard photo.bands == 3, photo.format == .uchar else {
      throw VipsError("\(path): the sample photo must be 8-bit RGB, not \(photo.bands) bands")
    }
    // The largest centred window of the target's aspect ratio.
    let cropWidth = min(photo.width, photo.height * width / height)
    let cropHeight = min(photo.height, photo.width * height / width)
    let window = try photo.extractArea(
      left: (photo.width - cropWidth) / 2, top: (photo.height - cropHeight) / 2,
      width: cropWidth, height: cropHeight)
    let scale = max(Double(width) / Double(cropWidth), Double(height) / Double(cropHeight))
    let enlarged = try window.resized(by: scale * (1 + 1e-9)).cast(to: .uchar)
    guard enlarged.width >= width, enlarged.height >= height else {
      throw VipsError(
        "enlarging the sample gave \(enlarged.width)×\(enlarged.height), not \(width)×\(height)")
    }
    return try enlarged.extractArea(
      left: (enlarged.width - width) / 2, top: (enlarged.height - height) / 2, width: width,
      height: height)
  }
}
