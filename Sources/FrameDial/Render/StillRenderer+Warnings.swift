import Foundation
import Vips

extension StillRenderer {
  /// The metadata of `image` that `format` cannot hold, as warnings naming `input`: XMP over
  /// ``Vips/ImageFormat/largestXMP`` bytes, which a JPEG leaves out.
  static func metadataWarnings(_ image: Image, format: ImageFormat, input: String) -> [String] {
    guard let limit = format.largestXMP, image.hasField(Image.xmpField),
      let xmp = try? image.blob(Image.xmpField), xmp.count > limit
    else { return [] }
    return [
      "\(input): its XMP metadata (\(xmp.count) bytes) was left out: a \(format.rawValue) file "
        + "holds at most \(limit) bytes of XMP"
    ]
  }
}
