import CHeif
import Foundation

/// An ISO 21496-1 gain map to write beside a picture: its 8-bit one-channel samples and its metadata
/// (the `tmap` item's data).
package struct HEIFToneMapPicture: Sendable {
  /// The gain map's width and height in pixels.
  package var width: Int
  package var height: Int
  /// `width × height` samples, row by row.
  package var samples: [UInt8]
  /// The `tmap` item's data.
  package var metadata: Data

  package init(width: Int, height: Int, samples: [UInt8], metadata: Data) {
    (self.width, self.height, self.samples, self.metadata) = (width, height, samples, metadata)
  }
}

extension HEIFPicture {
  /// Writes the picture as ``write(to:encoding:metadata:auxiliary:)`` does, with `toneMap` as an
  /// ISO 21496-1 gain map: the gain map as an image of its own, a `tmap` item holding the metadata
  /// and derived (`dimg`) from the picture and the gain map, and the `tmap` brand. libheif 1.19
  /// writes no `altr` group (which tells readers that know no `tmap` to show the picture) and cannot
  /// hide the gain map image, so the file serves FrameDial's reading of the form (its tests), not
  /// HDR displays.
  ///
  /// `auxiliary` and `metadata` are written as that method writes them (an iOS 18 photo has Apple's
  /// gain map and EXIF too); `brand` false leaves the `tmap` brand out, as a file whose gain map
  /// readers pass over.
  package func write(
    to path: String, encoding: HEIFEncoding, metadata: HEIFMetadata = HEIFMetadata(),
    auxiliary: [HEIFAuxiliaryPicture] = [], toneMap: HEIFToneMapPicture, brand: Bool = true
  ) throws {
    try write(to: path, encoding: encoding, metadata: metadata, auxiliary: auxiliary) {
      context, primary, encoder in
      let what = "the gain map image"
      guard toneMap.samples.count == toneMap.width * toneMap.height,
        let width = Int32(exactly: toneMap.width), let height = Int32(exactly: toneMap.height),
        width > 0, height > 0, let size = Int32(exactly: toneMap.metadata.count)
      else {
        throw HEIFError(
          "\(what) cannot be \(toneMap.width)×\(toneMap.height) with \(toneMap.samples.count) samples"
        )
      }
      let image = try Self.monochrome(toneMap.samples, width: width, height: height, what: what)
      defer { heif_image_release(image) }
      let map = try Self.encoded(image, beside: primary, in: context, encoder: encoder, what: what)
      defer { heif_image_handle_release(map) }
      var item: heif_item_id = 0
      try toneMap.metadata.withUnsafeBytes { raw in
        try HEIFError.check(
          heif_context_add_item(context, "tmap", raw.baseAddress, size, &item),
          "cannot add the tmap item")
      }
      var inputs = [heif_image_handle_get_item_id(primary), heif_image_handle_get_item_id(map)]
      try HEIFError.check(
        heif_context_add_item_references(context, fourCC("dimg"), item, &inputs, 2),
        "cannot derive the tmap item from the picture and the gain map")
      if brand { heif_context_add_compatible_brand(context, fourCC("tmap")) }
    }
  }
}
