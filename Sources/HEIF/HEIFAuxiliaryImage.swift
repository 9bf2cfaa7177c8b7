import CHeif
import Foundation

/// An auxiliary image of a HEIF file's primary image, as its `auxC` property names it: an alpha plane,
/// a depth map, or an iPhone's HDR gain map (``appleHDRGainMapType``).
public struct HEIFAuxiliaryImage: Sendable, Equatable {
  /// The type an iPhone gives its HDR gain map.
  public static let appleHDRGainMapType = "urn:com:apple:photo:2020:aux:hdrgainmap"

  /// The auxiliary type (a URN).
  public var type: String
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bits of its luma (or only) channel.
  public var bitDepth: Int
  /// Its own XMP packet, when it has one.
  public var xmp: Data?
}

extension HEIFFile {
  /// The primary image's auxiliary images, alpha and depth included, in the file's order.
  ///
  /// - Throws: ``HEIFError`` when libheif cannot open one of them.
  public func auxiliaryImages() throws -> [HEIFAuxiliaryImage] {
    let count = heif_image_handle_get_number_of_auxiliary_images(primary, 0)
    guard count > 0 else { return [] }
    var ids = [heif_item_id](repeating: 0, count: Int(count))
    let listed = heif_image_handle_get_list_of_auxiliary_image_IDs(primary, 0, &ids, count)
    return try ids.prefix(Int(max(0, listed))).map { id in
      var handle: OpaquePointer?
      try HEIFError.check(
        heif_image_handle_get_auxiliary_image_handle(primary, id, &handle),
        "\(name): cannot open auxiliary image \(id)")
      guard let handle else { throw HEIFError("\(name): cannot open auxiliary image \(id)") }
      defer { heif_image_handle_release(handle) }
      var type: UnsafePointer<CChar>?
      try HEIFError.check(
        heif_image_handle_get_auxiliary_type(handle, &type),
        "\(name): cannot read the type of auxiliary image \(id)")
      defer { heif_image_handle_free_auxiliary_types(handle, &type) }
      return HEIFAuxiliaryImage(
        type: type.map { String(cString: $0) } ?? "",
        width: Int(heif_image_handle_get_width(handle)),
        height: Int(heif_image_handle_get_height(handle)),
        bitDepth: Int(heif_image_handle_get_luma_bits_per_pixel(handle)),
        xmp: try Self.metadata(
          of: handle, type: "mime", contentType: "application/rdf+xml", what: "XMP data"))
    }
  }
}
