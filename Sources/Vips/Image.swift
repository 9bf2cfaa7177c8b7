import CVips
import Foundation

/// A libvips image: a lazy recipe for pixels that libvips computes on demand, tile by tile.
///
/// The handle holds one reference and releases it when it goes away. Images are never changed in place
/// (metadata edits return a new image), so a handle may be shared between threads.
public final class Image: @unchecked Sendable {
  /// The libvips image this handle owns one reference to.
  let pointer: UnsafeMutablePointer<VipsImage>
  /// Memory that must outlive the image (a caller's buffer this image reads without copying).
  private let keepAlive: AnyObject?

  /// Takes ownership of one reference to `pointer`.
  init(owning pointer: UnsafeMutablePointer<VipsImage>, keepAlive: AnyObject? = nil) {
    self.pointer = pointer
    self.keepAlive = keepAlive
  }

  deinit {
    g_object_unref(pointer)
  }

  /// Width in pixels.
  public var width: Int { Int(vips_image_get_width(pointer)) }
  /// Height in pixels.
  public var height: Int { Int(vips_image_get_height(pointer)) }
  /// Number of bands (channels), alpha included.
  public var bands: Int { Int(vips_image_get_bands(pointer)) }
  /// The numeric format of each band.
  public var format: BandFormat { BandFormat(raw: vips_image_get_format(pointer)) }
  /// libvips's interpretation of the bands, as its nickname ("srgb", "b-w", "rgb16", "cmyk", …).
  public var interpretation: String {
    nickname(vips_interpretation_get_type(), Int32(vips_image_get_interpretation(pointer).rawValue))
  }
  /// True when the last band is alpha.
  public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
  /// The EXIF orientation (1 … 8; 1 when the image has none).
  public var orientation: Int { (try? int("orientation")) ?? 1 }
  /// True when the image carries an ICC profile.
  public var hasICCProfile: Bool { hasField(Image.iccProfileField) }
  /// The number of pages (frames of a GIF, pages of a TIFF); 1 for most images.
  public var pages: Int { Int(vips_image_get_n_pages(pointer)) }
  /// The nickname of the loader that read the image ("jpegload", "heifload", …), if it came from a loader.
  public var loader: String? { (try? string("vips-loader")).map(displayName) }

  /// The header facts of this image.
  public var header: ImageHeader {
    ImageHeader(
      width: width, height: height, bands: bands, format: format, interpretation: interpretation,
      orientation: orientation, hasAlpha: hasAlpha, hasICCProfile: hasICCProfile, pages: pages,
      loader: loader)
  }

  /// The metadata field that holds the ICC profile.
  public static let iccProfileField = "icc-profile-data"
  /// The metadata field that holds EXIF data.
  public static let exifField = "exif-data"
  /// The metadata field that holds XMP data.
  public static let xmpField = "xmp-data"
  /// The metadata field that holds IPTC data (Photoshop's image resource block).
  public static let iptcField = "iptc-data"
  /// The metadata field that holds the JPEG thumbnail of the EXIF data (its IFD1); libvips writes a
  /// JPEG's EXIF without a thumbnail when the field is gone.
  public static let exifThumbnailField = "jpeg-thumbnail-data"
}

/// The numeric format of an image's bands.
public enum BandFormat: String, Sendable, Equatable, CaseIterable {
  case uchar, char, ushort, short, uint, int, float, complex, double, dpcomplex, unknown

  init(raw: VipsBandFormat) {
    switch raw {
    case VIPS_FORMAT_UCHAR: self = .uchar
    case VIPS_FORMAT_CHAR: self = .char
    case VIPS_FORMAT_USHORT: self = .ushort
    case VIPS_FORMAT_SHORT: self = .short
    case VIPS_FORMAT_UINT: self = .uint
    case VIPS_FORMAT_INT: self = .int
    case VIPS_FORMAT_FLOAT: self = .float
    case VIPS_FORMAT_COMPLEX: self = .complex
    case VIPS_FORMAT_DOUBLE: self = .double
    case VIPS_FORMAT_DPCOMPLEX: self = .dpcomplex
    default: self = .unknown
    }
  }

  /// Bytes per band value.
  public var byteSize: Int {
    switch self {
    case .uchar, .char: 1
    case .ushort, .short: 2
    case .uint, .int, .float: 4
    case .double, .complex: 8
    case .dpcomplex: 16
    case .unknown: 0
    }
  }
}

/// What the header of an image says, read without decoding any pixel.
public struct ImageHeader: Sendable, Equatable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels (of one page).
  public var height: Int
  /// Number of bands, alpha included.
  public var bands: Int
  /// Numeric format of each band.
  public var format: BandFormat
  /// libvips's interpretation nickname.
  public var interpretation: String
  /// EXIF orientation, 1 … 8.
  public var orientation: Int
  /// True when the last band is alpha.
  public var hasAlpha: Bool
  /// True when an ICC profile is attached.
  public var hasICCProfile: Bool
  /// Number of pages.
  public var pages: Int
  /// The loader's nickname.
  public var loader: String?

  /// Width × height.
  public var pixelCount: Int { width * height }
}

/// The nickname of enum `value` of GType `type`.
func nickname(_ type: GType, _ value: Int32) -> String {
  vips_enum_nick(type, value).map { String(cString: $0) } ?? String(value)
}
