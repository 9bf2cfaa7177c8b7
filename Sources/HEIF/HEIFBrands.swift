import CHeif

/// The brands of the `ftyp` box an ISO base media file (HEIF, AVIF, MP4, QuickTime) starts with, as
/// libheif reads them: a HEIF file need not name a HEIF brand first, so long as it lists one among its
/// compatible brands (ISO/IEC 23008-12).
public enum HEIFBrands {
  /// The compatible brands of the `ftyp` box `bytes` start with (four characters each, such as
  /// `mif1`); empty when the bytes do not start with one, or hold only part of it.
  public static func compatible(inHeader bytes: [UInt8]) -> [String] {
    guard bytes.count >= 12, bytes.count <= Int(Int32.max) else { return [] }
    var brands: UnsafeMutablePointer<heif_brand2>?
    var count: Int32 = 0
    let error = heif_list_compatible_brands(bytes, Int32(bytes.count), &brands, &count)
    guard error.code == heif_error_Ok, let brands else { return [] }
    defer { heif_free_list_of_compatible_brands(brands) }
    return UnsafeBufferPointer(start: brands, count: Int(max(0, count))).map { brand in
      String(
        decoding: (0..<4).map { UInt8(truncatingIfNeeded: brand >> (24 - 8 * $0)) }, as: UTF8.self)
    }
  }
}
