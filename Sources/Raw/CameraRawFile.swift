import Foundation
import TIFF
import Vips

/// Camera raw files told apart from images before any libvips loader sees them, for the callers that
/// develop them on LibRaw instead (libvips's own loaders refuse them, see `Image.init(contentsOf:options:)`).
public struct CameraRawFile: Sendable, Equatable {
  /// What the file is, such as "a DNG (Apple iPhone 16 Pro), a colour filter array mosaic of
  /// 4032×3024", or "a camera raw file (.cr3)" for one known only by its name.
  public let description: String
  /// True when the raw picture is JPEG XL–compressed (DNG 1.7, as iOS 18 writes ProRAW).
  public let isJPEGXL: Bool
  /// The camera's maker and model as the file's TIFF tags spell them ("Canon", "Canon EOS 350D
  /// DIGITAL"); nil when the file is not built like a TIFF or does not say.
  public let make: String?
  public let model: String?

  /// Extensions of camera raw formats, lower-cased: DNG and the makers' own (Canon CR2/CR3/CRW, Nikon
  /// NEF/NRW, Sony ARW/SR2/SRF, Fujifilm RAF, Olympus ORF, Panasonic RW2, Pentax PEF, Samsung SRW,
  /// Leica RWL, Hasselblad 3FR, Phase One IIQ, Sigma X3F, Minolta MRW, Kodak DCR/KDC, Epson ERF, Leaf
  /// MOS).
  public static let extensions: Set<String> = [
    "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "sr2", "srf", "raf", "orf", "rw2", "pef",
    "srw",
    "rwl", "3fr", "iiq", "x3f", "mrw", "dcr", "kdc", "erf", "mos",
  ]

  /// The raw file at `path`: one built like a TIFF (a DNG version tag, a colour filter array or linear
  /// raw picture, Canon's CR2 signature, a preview in front of a larger sub-image), whatever its name,
  /// or one whose extension names a raw format; nil otherwise, and for what is not a readable regular
  /// file.
  public init?(path: String) {
    guard let file = try? CheckedFile(opening: path) else { return nil }
    if let finding = CameraRawSniffer.finding(descriptor: file.descriptor, size: file.size) {
      description = finding.description
      isJPEGXL = finding.isJPEGXL
      make = finding.make
      model = finding.model
      return
    }
    let ext = (path as NSString).pathExtension.lowercased()
    guard Self.extensions.contains(ext) else { return nil }
    description = "a camera raw file (.\(ext))"
    isJPEGXL = false
    make = nil
    model = nil
  }
}
