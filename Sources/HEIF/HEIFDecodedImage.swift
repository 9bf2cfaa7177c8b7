import CHeif

/// A HEIF file's primary image decoded to interleaved R′G′B′ samples (with alpha last when the file has
/// an alpha image), 8 bits a sample, or the file's deeper samples in 16-bit containers.
public final class HEIFDecodedImage {
  /// The libheif image this object owns.
  private let image: OpaquePointer
  /// Width and height in pixels, as displayed.
  public let width: Int
  public let height: Int
  /// 3 (RGB) or 4 (RGBA).
  public let bands: Int
  /// Bits a sample (8 … 16).
  public let bitDepth: Int

  init(image: OpaquePointer) {
    self.image = image
    width = Int(heif_image_get_primary_width(image))
    height = Int(heif_image_get_primary_height(image))
    let chroma = heif_image_get_chroma_format(image)
    bands =
      [heif_chroma_interleaved_RGBA, heif_chroma_interleaved_RRGGBBAA_LE].contains(chroma) ? 4 : 3
    bitDepth = Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))
  }

  deinit {
    heif_image_release(image)
  }

  /// Every sample, row by row (`width` × ``bands`` a row).
  public func samples() throws -> [UInt16] {
    var stride: Int32 = 0
    guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
      throw HEIFError("the decoded HEIF image has no pixel memory")
    }
    let rowSamples = width * bands
    var samples = [UInt16]()
    samples.reserveCapacity(rowSamples * height)
    for row in 0..<height {
      let start = UnsafeRawPointer(plane) + row * Int(stride)
      if bitDepth > 8 {
        let values = start.bindMemory(to: UInt16.self, capacity: rowSamples)
        samples.append(contentsOf: UnsafeBufferPointer(start: values, count: rowSamples))
      } else {
        let values = start.bindMemory(to: UInt8.self, capacity: rowSamples)
        samples.append(
          contentsOf: UnsafeBufferPointer(start: values, count: rowSamples).lazy.map(UInt16.init))
      }
    }
    return samples
  }
}

extension HEIFFile {
  /// Decodes the primary image (tiles, alpha and the file's rotation applied) to R′G′B′ samples, with
  /// the HEVC decoder libheif ranks highest (see ``HEVCDecoderPlugin``). A picture that decoder finds
  /// damaged is an error unless ``HEVCDecoderPlugin/damagedPictures`` conceals damage; `strict` makes
  /// it an error then too (and a colour code point libheif does not know).
  ///
  /// - Throws: ``HEIFError`` when the picture cannot be decoded.
  public func decodePrimary(strict: Bool = false) throws -> HEIFDecodedImage {
    guard let options = heif_decoding_options_alloc() else {
      throw HEIFError("libheif is out of memory")
    }
    defer { heif_decoding_options_free(options) }
    options.pointee.strict_decoding = strict ? 1 : 0
    let deep = heif_image_handle_get_luma_bits_per_pixel(primary) > 8
    let alpha = heif_image_handle_has_alpha_channel(primary) != 0
    let chroma =
      deep
      ? (alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE)
      : (alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB)
    var decoded: OpaquePointer?
    try HEIFError.check(
      heif_decode_image(primary, &decoded, heif_colorspace_RGB, chroma, options),
      "\(name): cannot decode the HEIF picture")
    guard let decoded else { throw HEIFError("\(name): cannot decode the HEIF picture") }
    return HEIFDecodedImage(image: decoded)
  }
}
