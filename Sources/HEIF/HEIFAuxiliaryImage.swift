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
    try compactMapAuxiliaryImages { _, handle, type in
      HEIFAuxiliaryImage(
        type: type,
        width: Int(heif_image_handle_get_width(handle)),
        height: Int(heif_image_handle_get_height(handle)),
        bitDepth: Int(heif_image_handle_get_luma_bits_per_pixel(handle)),
        xmp: try Self.metadata(
          of: handle, type: "mime", contentType: "application/rdf+xml", what: "XMP data"))
    }
  }

  /// `body`'s non-nil results for the primary image's auxiliary images (item ID, handle, type), in
  /// the file's order; `stopsAtFirst` stops at the first.
  private func compactMapAuxiliaryImages<T>(
    stopsAtFirst: Bool = false, _ body: (heif_item_id, OpaquePointer, String) throws -> T?
  ) throws -> [T] {
    let count = heif_image_handle_get_number_of_auxiliary_images(primary, 0)
    guard count > 0 else { return [] }
    var ids = [heif_item_id](repeating: 0, count: Int(count))
    let listed = heif_image_handle_get_list_of_auxiliary_image_IDs(primary, 0, &ids, count)
    var results: [T] = []
    for id in ids.prefix(Int(max(0, listed))) {
      var opened: OpaquePointer?
      try HEIFError.check(
        heif_image_handle_get_auxiliary_image_handle(primary, id, &opened),
        "\(name): cannot open auxiliary image \(id)")
      guard let handle = opened else {
        throw HEIFError("\(name): cannot open auxiliary image \(id)")
      }
      defer { heif_image_handle_release(handle) }
      var named: UnsafePointer<CChar>?
      try HEIFError.check(
        heif_image_handle_get_auxiliary_type(handle, &named),
        "\(name): cannot read the type of auxiliary image \(id)")
      let type = named.map { String(cString: $0) } ?? ""
      heif_image_handle_release_auxiliary_type(handle, &named)
      if let result = try body(id, handle, type) {
        results.append(result)
        if stopsAtFirst { break }
      }
    }
    return results
  }
}

/// An auxiliary picture of one 8-bit channel (an HDR gain map), read from a HEIF file
/// (``HEIFFile/decodeAuxiliaryImage(type:)``) or written beside a picture's primary image
/// (``HEIFPicture/write(to:encoding:metadata:auxiliary:)``).
public struct HEIFAuxiliaryPicture: Sendable, Equatable {
  /// The auxiliary type (a URN), written as its `auxC` property.
  public var type: String
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// `width × height` samples, row by row.
  public var samples: [UInt8]
  /// Its own XMP packet, when it has one.
  public var xmp: Data?
  /// The quality 1 … 100 it is encoded at; nil takes the primary picture's.
  public var quality: Int?

  /// Creates a picture; `samples` must hold `width × height` samples.
  public init(
    type: String, width: Int, height: Int, samples: [UInt8], xmp: Data? = nil, quality: Int? = nil
  ) {
    self.type = type
    self.width = width
    self.height = height
    self.samples = samples
    self.xmp = xmp
    self.quality = quality
  }
}

extension HEIFFile {
  /// The primary image's first auxiliary image of `type`, decoded (turned as the file asks, like
  /// the primary image) to one 8-bit channel; nil when it has none.
  ///
  /// - Throws: ``HEIFError`` when libheif cannot open or decode it.
  public func decodeAuxiliaryImage(type: String) throws -> HEIFAuxiliaryPicture? {
    try compactMapAuxiliaryImages(stopsAtFirst: true) {
      id, handle, itsType -> HEIFAuxiliaryPicture? in
      guard itsType == type else { return nil }
      var decoded: OpaquePointer?
      try HEIFError.check(
        heif_decode_image(
          handle, &decoded, heif_colorspace_monochrome, heif_chroma_monochrome, nil),
        "\(name): cannot decode auxiliary image \(id)")
      guard let image = decoded else {
        throw HEIFError("\(name): cannot decode auxiliary image \(id)")
      }
      defer { heif_image_release(image) }
      let width = Int(heif_image_get_width(image, heif_channel_Y))
      let height = Int(heif_image_get_height(image, heif_channel_Y))
      var stride: Int32 = 0
      guard width > 0, height > 0, heif_image_get_bits_per_pixel_range(image, heif_channel_Y) == 8,
        let plane = heif_image_get_plane_readonly(image, heif_channel_Y, &stride), stride > 0
      else { throw HEIFError("\(name): auxiliary image \(id) is not one 8-bit channel") }
      var samples = [UInt8](repeating: 0, count: width * height)
      samples.withUnsafeMutableBufferPointer { target in
        for row in 0..<height {
          let from = plane + row * Int(stride)
          for x in 0..<width { target[row * width + x] = from[x] }
        }
      }
      return HEIFAuxiliaryPicture(
        type: type, width: width, height: height, samples: samples,
        xmp: try Self.metadata(
          of: handle, type: "mime", contentType: "application/rdf+xml", what: "XMP data"))
    }.first
  }
}
