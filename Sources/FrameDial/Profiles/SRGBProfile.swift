import Foundation
import Vips

/// The sRGB ICC profile FrameDial attaches to outputs that carry no profile of their own.
enum SRGBProfile {
  /// libvips's built-in sRGB profile (empty if libvips cannot provide it, in which case none is attached).
  static let data: Data = (try? Vips.builtinICCProfile("srgb")) ?? Data()
}
