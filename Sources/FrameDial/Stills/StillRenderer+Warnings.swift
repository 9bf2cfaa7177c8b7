import Foundation
import Vips

extension StillRenderer {
  /// The warning for an image with transparency flattened onto `colour` because `format` has no alpha.
  static func flatteningWarning(_ colour: SIMD3<Double>, format: ImageFormat, input: String)
    -> String
  {
    let hex = [colour.x, colour.y, colour.z].map { String(format: "%02X", Int($0.rounded())) }
      .joined()
    let name = hex == "FFFFFF" ? "white" : hex == "000000" ? "black" : "#\(hex)"
    return
      "\(input): its transparency was flattened onto \(name) (\(format.rawValue) has no alpha; "
      + "--background sets the colour)"
  }

  /// The warning for a picture written in Display P3 rather than in the profile `--profile` asks
  /// for (see ``ProfileFallback``).
  static func profileWarning(_ fallback: ProfileFallback, input: String) -> String {
    switch fallback {
    case .inputOnly:
      return "\(input): nothing can be converted into its ICC profile (it has no relative "
        + "colorimetric table back from the connection space), so the picture was converted to "
        + "Display P3, whose profile is embedded"
    case .refused(let format, let profile, let illuminantNotD50):
      let name = profile.map { "the profile \($0)" } ?? "its ICC profile"
      let reason =
        format == .png && illuminantNotD50
        ? " (libpng refuses a profile whose connection-space illuminant is not exactly D50)" : ""
      return "\(input): \(name) cannot be written in a \(format.rawValue) file\(reason), so the "
        + "picture was converted to Display P3, whose profile is embedded"
    }
  }

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
