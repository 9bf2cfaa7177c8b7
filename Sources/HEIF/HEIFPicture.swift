import CHeif
import Foundation

/// An 8-bit interleaved RGB or RGBA picture in libheif's memory, filled by the caller and then written as
/// a HEIC or AVIF file.
public final class HEIFPicture {
  /// The libheif image this object owns.
  private let image: OpaquePointer
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// True when the picture has a fourth, alpha band.
  public let hasAlpha: Bool

  /// Allocates a `width` × `height` picture of 3 bands (RGB) or 4 (RGBA).
  public init(width: Int, height: Int, hasAlpha: Bool) throws {
    guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
      throw HEIFError("a HEIC picture cannot be \(width)×\(height)")
    }
    var created: OpaquePointer?
    try HEIFError.check(
      heif_image_create(
        Int32(width), Int32(height), heif_colorspace_RGB,
        hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &created),
      "cannot create a \(width)×\(height) HEIC picture")
    guard let created else { throw HEIFError("cannot create a \(width)×\(height) HEIC picture") }
    image = created
    self.width = width
    self.height = height
    self.hasAlpha = hasAlpha
    try HEIFError.check(
      heif_image_add_plane(created, heif_channel_interleaved, Int32(width), Int32(height), 8),
      "cannot allocate a \(width)×\(height) HEIC picture")
  }

  deinit {
    heif_image_release(image)
  }

  /// Bands per pixel: 3, or 4 with alpha.
  public var bands: Int { hasAlpha ? 4 : 3 }

  /// Calls `body` with the picture's rows (`height` rows of `width` × ``bands`` bytes, each starting
  /// `rowStride` bytes after the previous one) for it to fill.
  public func withPixels<T>(
    _ body: (_ rows: UnsafeMutableRawBufferPointer, _ rowStride: Int) throws -> T
  ) throws -> T {
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride), stride > 0
    else { throw HEIFError("the HEIC picture has no pixel memory") }
    let rowStride = Int(stride)
    let bytes = rowStride * (height - 1) + width * bands
    return try body(UnsafeMutableRawBufferPointer(start: plane, count: bytes), rowStride)
  }

  /// Compresses the picture with `encoding` and writes it, with `metadata`, as a HEIC file (HEVC) or an
  /// AVIF file (AV1) at `path` (directly: callers that must never leave a partial file write to a
  /// temporary name and rename it).
  ///
  /// - Throws: ``HEIFError`` when libheif cannot encode the picture, or `PATH: cannot write: REASON`
  ///   with the system's reason (`no space left on device`) when the file cannot be written whole.
  public func write(to path: String, encoding: HEIFEncoding, metadata: HEIFMetadata) throws {
    guard (1...100).contains(encoding.quality) else {
      throw HEIFError("quality \(encoding.quality) is out of range: it must be 1 … 100")
    }
    guard let context = heif_context_alloc() else { throw HEIFError("libheif is out of memory") }
    defer { heif_context_free(context) }
    let encoder = try Self.encoder(for: encoding, in: context)
    defer { heif_encoder_release(encoder) }
    if let profile = metadata.iccProfile, !profile.isEmpty {
      try profile.withUnsafeBytes { raw in
        try HEIFError.check(
          heif_image_set_raw_color_profile(image, "prof", raw.baseAddress, raw.count),
          "cannot attach the ICC profile")
      }
    }
    var coded: OpaquePointer?
    try HEIFError.check(
      heif_context_encode_image(context, image, encoder, nil, &coded),
      "cannot encode \(encoding.codec.name)")
    guard let handle = coded else { throw HEIFError("cannot encode \(encoding.codec.name)") }
    defer { heif_image_handle_release(handle) }
    if let exif = metadata.exif, !exif.isEmpty {
      try exif.withUnsafeBytes { raw in
        try HEIFError.check(
          heif_context_add_exif_metadata(context, handle, raw.baseAddress, try length(raw)),
          "cannot add the EXIF data")
      }
    }
    if let xmp = metadata.xmp, !xmp.isEmpty {
      try xmp.withUnsafeBytes { raw in
        try HEIFError.check(
          heif_context_add_XMP_metadata(context, handle, raw.baseAddress, try length(raw)),
          "cannot add the XMP data")
      }
    }
    try HEIFFileWriter.write(context, to: path)
  }

  /// libheif's encoder for `encoding`'s codec in `context`, set to its quality, chroma and codec
  /// settings; the caller releases it.
  private static func encoder(for encoding: HEIFEncoding, in context: OpaquePointer) throws
    -> OpaquePointer
  {
    let name = encoding.codec.name
    var found: OpaquePointer?
    let compression: heif_compression_format =
      switch encoding.codec {
      case .hevc: heif_compression_HEVC
      case .av1: heif_compression_AV1
      }
    try HEIFError.check(
      heif_context_get_encoder_for_format(context, compression, &found),
      "libheif has no \(name) encoder")
    guard let encoder = found else { throw HEIFError("libheif has no \(name) encoder") }
    do {
      try HEIFError.check(
        heif_encoder_set_lossy_quality(encoder, Int32(encoding.quality)), "cannot set the quality")
      try HEIFError.check(
        heif_encoder_set_parameter_string(encoder, "chroma", encoding.chroma.rawValue),
        "the \(name) encoder refuses chroma \(encoding.chroma.rawValue)")
      switch encoding.codec {
      case .hevc(let preset, let parameters):
        try HEIFError.check(
          heif_encoder_set_parameter_string(encoder, "preset", preset.rawValue),
          "x265 refuses preset \(preset.rawValue)")
        for parameter in parameters {
          try HEIFError.check(
            heif_encoder_set_parameter_string(encoder, "x265:\(parameter.name)", parameter.value),
            "libheif refuses x265 option \(parameter.name)=\(parameter.value)")
        }
      case .av1(let speed):
        try HEIFError.check(
          heif_encoder_set_parameter_integer(encoder, "speed", Int32(clamping: speed)),
          "the AV1 encoder refuses speed \(speed)")
      }
    } catch {
      heif_encoder_release(encoder)
      throw error
    }
    return encoder
  }
}

extension HEIFEncoding.Codec {
  /// The codec's name in messages: "HEVC" or "AV1".
  var name: String {
    switch self {
    case .hevc: "HEVC"
    case .av1: "AV1"
    }
  }
}

/// The byte count of a metadata block as libheif's `int`; over 2 GB is refused.
private func length(_ bytes: UnsafeRawBufferPointer) throws -> Int32 {
  guard let count = Int32(exactly: bytes.count) else {
    throw HEIFError("a metadata block of \(bytes.count) bytes is too large for HEIC")
  }
  return count
}
