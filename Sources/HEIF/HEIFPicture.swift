import CHeif
import Foundation

/// An interleaved RGB or RGBA picture in libheif's memory, 8 bits a sample or 10 or 12 (each in a
/// little-endian 16-bit word), filled by the caller and then written as a HEIC or AVIF file.
public final class HEIFPicture {
  /// The libheif image this object owns.
  private let image: OpaquePointer
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// True when the picture has a fourth, alpha band.
  public let hasAlpha: Bool
  /// Bits a sample: 8, 10 or 12.
  public let bitDepth: Int

  /// Allocates a `width` × `height` picture of 3 bands (RGB) or 4 (RGBA) of `bitDepth` bits a sample
  /// (8, 10 or 12; above 8, each sample is a little-endian 16-bit word of 0 … 2^bitDepth − 1).
  public init(width: Int, height: Int, hasAlpha: Bool, bitDepth: Int = 8) throws {
    guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
      throw HEIFError("a HEIC picture cannot be \(width)×\(height)")
    }
    guard [8, 10, 12].contains(bitDepth) else {
      throw HEIFError("a HEIC picture has 8, 10 or 12 bits a sample, not \(bitDepth)")
    }
    let chroma =
      bitDepth == 8
      ? (hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
      : (hasAlpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
    var created: OpaquePointer?
    try HEIFError.check(
      heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, chroma, &created),
      "cannot create a \(width)×\(height) HEIC picture")
    guard let created else { throw HEIFError("cannot create a \(width)×\(height) HEIC picture") }
    image = created
    self.width = width
    self.height = height
    self.hasAlpha = hasAlpha
    self.bitDepth = bitDepth
    try HEIFError.check(
      heif_image_add_plane(
        created, heif_channel_interleaved, Int32(width), Int32(height), Int32(bitDepth)),
      "cannot allocate a \(width)×\(height) HEIC picture")
  }

  deinit {
    heif_image_release(image)
  }

  /// Bands per pixel: 3, or 4 with alpha.
  public var bands: Int { hasAlpha ? 4 : 3 }

  /// Bytes a sample: 1 at 8 bits, 2 above.
  public var sampleBytes: Int { bitDepth > 8 ? 2 : 1 }

  /// Calls `body` with the picture's rows (`height` rows of `width` × ``bands`` samples of
  /// ``sampleBytes`` bytes, each row starting `rowStride` bytes after the previous one) for it to fill.
  public func withPixels<T>(
    _ body: (_ rows: UnsafeMutableRawBufferPointer, _ rowStride: Int) throws -> T
  ) throws -> T {
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride), stride > 0
    else { throw HEIFError("the HEIC picture has no pixel memory") }
    let rowStride = Int(stride)
    let bytes = rowStride * (height - 1) + width * bands * sampleBytes
    return try body(UnsafeMutableRawBufferPointer(start: plane, count: bytes), rowStride)
  }

  /// Compresses the picture with `encoding` and writes it, with `metadata`, as a HEIC file (HEVC) or an
  /// AVIF file (AV1) at `path` (directly: callers that must never leave a partial file write to a
  /// temporary name and rename it).
  ///
  /// - Throws: ``HEIFError`` when libheif cannot encode the picture, or `PATH: cannot write: REASON`
  ///   with the system's reason (`no space left on device`) when the file cannot be written whole.
  ///
  /// Each of `auxiliary` is encoded with the same settings (at its own quality, when it has one) as an
  /// auxiliary image of the primary one:
  /// its `auxl` reference, its type as an essential `auxC` property, its own XMP.
  public func write(
    to path: String, encoding: HEIFEncoding, metadata: HEIFMetadata,
    auxiliary: [HEIFAuxiliaryPicture] = []
  ) throws {
    try write(to: path, encoding: encoding, metadata: metadata, auxiliary: auxiliary) { _, _, _ in }
  }

  /// ``write(to:encoding:metadata:auxiliary:)``, with `adding` run on the context, the primary
  /// image's handle and the encoder before the file is written (the ISO 21496-1 gain map of
  /// `write(to:encoding:metadata:auxiliary:toneMap:brand:)`).
  func write(
    to path: String, encoding: HEIFEncoding, metadata: HEIFMetadata,
    auxiliary: [HEIFAuxiliaryPicture],
    adding: (_ context: OpaquePointer, _ primary: OpaquePointer, _ encoder: OpaquePointer) throws
      -> Void
  ) throws {
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
    try Self.addXMP(metadata.xmp, to: handle, in: context, what: "the XMP data")
    for picture in auxiliary {
      try Self.add(picture, to: handle, in: context, encoder: encoder)
    }
    try adding(context, handle, encoder)
    try HEIFFileWriter.write(context, to: path)
  }

  /// Encodes `picture` with `encoder` into `context` as an auxiliary image of `primary`, which stays
  /// the file's primary image.
  private static func add(
    _ picture: HEIFAuxiliaryPicture, to primary: OpaquePointer, in context: OpaquePointer,
    encoder: OpaquePointer
  ) throws {
    let what = "the auxiliary image \(picture.type)"
    guard picture.width > 0, picture.height > 0,
      picture.samples.count == picture.width * picture.height,
      let width = Int32(exactly: picture.width), let height = Int32(exactly: picture.height)
    else {
      throw HEIFError(
        "\(what) cannot be \(picture.width)×\(picture.height) with \(picture.samples.count) samples"
      )
    }
    let image = try monochrome(picture.samples, width: width, height: height, what: what)
    defer { heif_image_release(image) }
    if let quality = picture.quality {
      guard (1...100).contains(quality) else {
        throw HEIFError("quality \(quality) of \(what) is out of range: it must be 1 … 100")
      }
      try HEIFError.check(
        heif_encoder_set_lossy_quality(encoder, Int32(quality)), "cannot set the quality of \(what)"
      )
    }
    let handle = try encoded(image, beside: primary, in: context, encoder: encoder, what: what)
    defer { heif_image_handle_release(handle) }
    let id = heif_image_handle_get_item_id(handle)
    try HEIFError.check(
      heif_context_add_item_reference(
        context, fourCC("auxl"), id, heif_image_handle_get_item_id(primary)),
      "cannot reference \(what) from the primary image")
    // auxC is a full box: version and flags (four zero bytes), then the type, ended by a zero.
    let property = [UInt8](repeating: 0, count: 4) + Array(picture.type.utf8) + [0]
    try HEIFError.check(
      heif_item_add_raw_property(
        context, id, fourCC("auxC"), nil, property, property.count, 1, nil),
      "cannot write the type of \(what)")
    try addXMP(picture.xmp, to: handle, in: context, what: "the XMP data of \(what)")
  }

  /// `image` encoded with `encoder` into `context` beside `primary`, which stays the file's primary
  /// image: its handle, which the caller releases. `what` names it in errors.
  static func encoded(
    _ image: OpaquePointer, beside primary: OpaquePointer, in context: OpaquePointer,
    encoder: OpaquePointer, what: String
  ) throws -> OpaquePointer {
    var coded: OpaquePointer?
    try HEIFError.check(
      heif_context_encode_image(context, image, encoder, nil, &coded), "cannot encode \(what)")
    guard let handle = coded else { throw HEIFError("cannot encode \(what)") }
    do {
      try HEIFError.check(
        heif_context_set_primary_image(context, primary), "cannot keep the primary image first")
      return handle
    } catch {
      heif_image_handle_release(handle)
      throw error
    }
  }

  /// A one-channel 8-bit libheif image of `samples` (`width × height`, row by row); the caller
  /// releases it. `what` names it in errors.
  static func monochrome(_ samples: [UInt8], width: Int32, height: Int32, what: String) throws
    -> OpaquePointer
  {
    var created: OpaquePointer?
    try HEIFError.check(
      heif_image_create(
        width, height, heif_colorspace_monochrome, heif_chroma_monochrome, &created),
      "cannot create \(what)")
    guard let image = created else { throw HEIFError("cannot create \(what)") }
    do {
      try HEIFError.check(
        heif_image_add_plane(image, heif_channel_Y, width, height, 8), "cannot allocate \(what)")
      var stride: Int32 = 0
      guard let plane = heif_image_get_plane(image, heif_channel_Y, &stride), stride > 0 else {
        throw HEIFError("\(what) has no pixel memory")
      }
      let columns = Int(width)
      samples.withUnsafeBufferPointer { samples in
        for row in 0..<Int(height) {
          let target = plane + row * Int(stride)
          for x in 0..<columns { target[x] = samples[row * columns + x] }
        }
      }
      return image
    } catch {
      heif_image_release(image)
      throw error
    }
  }

  /// Adds `xmp`, when there is some, to the image `handle` in `context`; `what` names it in errors.
  private static func addXMP(
    _ xmp: Data?, to handle: OpaquePointer, in context: OpaquePointer, what: String
  ) throws {
    guard let xmp, !xmp.isEmpty else { return }
    try xmp.withUnsafeBytes { raw in
      try HEIFError.check(
        heif_context_add_XMP_metadata(context, handle, raw.baseAddress, try length(raw)),
        "cannot add \(what)")
    }
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

/// A four-character code as libheif's 32-bit number (the first character in the highest byte).
func fourCC(_ code: StaticString) -> UInt32 {
  code.withUTF8Buffer { $0.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
}

/// The byte count of a metadata block as libheif's `int`; over 2 GB is refused.
private func length(_ bytes: UnsafeRawBufferPointer) throws -> Int32 {
  guard let count = Int32(exactly: bytes.count) else {
    throw HEIFError("a metadata block of \(bytes.count) bytes is too large for HEIC")
  }
  return count
}
