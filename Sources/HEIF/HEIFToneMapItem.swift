import CHeif
import Foundation

/// An ISO 21496-1 gain map in a HEIF file (HEIC or AVIF): a `tmap` item, derived from the base image
/// and the gain map image it references (`dimg`, in that order), whose data is the gain map's
/// metadata. A file holds one when its `ftyp` box lists the `tmap` brand (the rule readers of the
/// form follow: without the brand, the item is passed over).
public struct HEIFToneMapItem: Sendable, Equatable {
  /// The `tmap` item's data: the metadata's bytes, as ISO 21496-1 lays them out.
  public var metadata: Data
  /// The gain map image's width in pixels.
  public var width: Int
  /// The gain map image's height in pixels.
  public var height: Int
  /// Bits of the gain map image's luma (or only) channel.
  public var bitDepth: Int
}

extension HEIFFile {
  /// The file's ISO 21496-1 gain map whose base image is the primary image; nil when the file has
  /// none, or does not list the `tmap` brand.
  ///
  /// - Throws: ``HEIFError`` when libheif cannot read the `tmap` item or open its gain map image.
  public func toneMapItem() throws -> HEIFToneMapItem? {
    guard brands.contains("tmap") else { return nil }
    let count = heif_context_get_number_of_items(context)
    guard count > 0 else { return nil }
    var ids = [heif_item_id](repeating: 0, count: Int(count))
    let listed = heif_context_get_list_of_item_IDs(context, &ids, count)
    let base = heif_image_handle_get_item_id(primary)
    for id in ids.prefix(Int(max(0, listed)))
    where heif_item_get_item_type(context, id) == fourCC("tmap") {
      let inputs = derivedFrom(id)
      guard inputs.count == 2, inputs[0] == base else { continue }
      var opened: OpaquePointer?
      try HEIFError.check(
        heif_context_get_image_handle(context, inputs[1], &opened),
        "\(name): cannot open the gain map image \(inputs[1])")
      guard let handle = opened else {
        throw HEIFError("\(name): cannot open the gain map image \(inputs[1])")
      }
      defer { heif_image_handle_release(handle) }
      return HEIFToneMapItem(
        metadata: try itemData(id, what: "the gain map's metadata (tmap item \(id))"),
        width: Int(heif_image_handle_get_width(handle)),
        height: Int(heif_image_handle_get_height(handle)),
        bitDepth: Int(heif_image_handle_get_luma_bits_per_pixel(handle)))
    }
    return nil
  }

  /// The items `id` is derived from (its `dimg` references), in order.
  private func derivedFrom(_ id: heif_item_id) -> [heif_item_id] {
    for index in 0..<64 {
      var type: UInt32 = 0
      var targets: UnsafeMutablePointer<heif_item_id>?
      let count = heif_context_get_item_references(context, id, Int32(index), &type, &targets)
      defer { if targets != nil { heif_release_item_references(context, &targets) } }
      guard count > 0, let targets else { return [] }
      if type == fourCC("dimg") { return Array(UnsafeBufferPointer(start: targets, count: count)) }
    }
    return []
  }

  /// The data of item `id` (decompressed by libheif where it is stored compressed).
  private func itemData(_ id: heif_item_id, what: String) throws -> Data {
    var bytes: UnsafeMutablePointer<UInt8>?
    var size = 0
    try HEIFError.check(
      heif_item_get_item_data(context, id, nil, &bytes, &size), "\(name): cannot read \(what)")
    defer { if bytes != nil { heif_release_item_data(context, &bytes) } }
    return bytes.map { Data(bytes: $0, count: size) } ?? Data()
  }
}
