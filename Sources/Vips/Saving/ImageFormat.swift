/// The file formats FrameDial writes.
public enum ImageFormat: String, Sendable, CaseIterable, Equatable, Encodable {
  case jpeg, png, webp, tiff, heic, avif

  /// The format a file name's extension names, if any (case-insensitive: `jpg`, `jpeg`, `heif`, `tif`, …).
  public init?(fileExtension: String) {
    switch fileExtension.lowercased() {
    case "jpg", "jpeg", "jpe": self = .jpeg
    case "png": self = .png
    case "webp": self = .webp
    case "tif", "tiff": self = .tiff
    case "heic", "heif": self = .heic
    case "avif": self = .avif
    default: return nil
    }
  }

  /// The format of the file at `path`, from its extension.
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    self.init(fileExtension: String(path[path.index(after: dot)...]))
  }

  /// The usual file extension.
  public var fileExtension: String {
    switch self {
    case .jpeg: "jpg"
    case .png: "png"
    case .webp: "webp"
    case .tiff: "tif"
    case .heic: "heic"
    case .avif: "avif"
    }
  }

  /// True when the format stores more than 8 bits per band, so that a 16-bit picture is rendered at 16
  /// bits for it: PNG and TIFF store 16, HEIC 10 and AVIF 12 (FrameDial's HEIF writer; see
  /// `HEIFOutput.bitDepth(of:format:)`).
  public var supportsSixteenBits: Bool { self != .jpeg && self != .webp }

  /// True when the format keeps an alpha band (JPEG does not).
  public var supportsAlpha: Bool { self != .jpeg }

  /// True when a quality setting applies.
  public var hasQuality: Bool { self != .png }

  /// The largest XMP packet, in bytes, that libvips writes in this format; nil when any size is written.
  /// A JPEG APP1 segment holds at most 65 533 bytes and libvips's JPEG saver leaves out (with only a
  /// hidden warning) XMP over 60 000 bytes; it cannot write extended XMP.
  public var largestXMP: Int? { self == .jpeg ? 60_000 : nil }

  /// libvips's saver for files and for memory.
  ///
  /// - Throws: `VipsError` for HEIC and AVIF: libvips 8.14's `heifsave` cannot write with the libheif
  ///   FrameDial runs on (1.19 refuses its writer's answer), so FrameDial writes both through libheif
  ///   itself (its HEIF module).
  func saver() throws -> (file: String, buffer: String) {
    switch self {
    case .jpeg: return ("jpegsave", "jpegsave_buffer")
    case .png: return ("pngsave", "pngsave_buffer")
    case .webp: return ("webpsave", "webpsave_buffer")
    case .tiff: return ("tiffsave", "tiffsave_buffer")
    case .heic, .avif:
      throw VipsError(
        "\(rawValue.uppercased()) is written through libheif (FrameDial's HEIF module), not libvips"
      )
    }
  }
}

/// How an image is written.
public struct SaveOptions: Sendable, Equatable {
  /// Whether the colour of a JPEG, HEIC or AVIF is stored at half resolution (libvips's
  /// `subsample-mode`). libvips 8.14 writes only 4:2:0 or 4:4:4.
  public enum ChromaSubsampling: String, Sendable, Equatable {
    /// libvips's choice: 4:2:0 below quality 90, 4:4:4 from 90 up.
    case auto
    /// 4:2:0: colour at half the width and half the height.
    case on
    /// 4:4:4: colour at full resolution.
    case off
  }

  /// Quality 1 … 100 for lossy formats; `nil` keeps libvips's default for the format.
  public var quality: Int?
  /// Chroma subsampling for JPEG, HEIC and AVIF (other formats ignore it).
  public var chromaSubsampling: ChromaSubsampling
  /// Keep metadata (EXIF, XMP, ICC profile); false strips it.
  public var keepMetadata: Bool

  /// Creates options; by default libvips's quality and subsampling, and all metadata kept.
  public init(
    quality: Int? = nil, chromaSubsampling: ChromaSubsampling = .auto, keepMetadata: Bool = true
  ) {
    self.quality = quality
    self.chromaSubsampling = chromaSubsampling
    self.keepMetadata = keepMetadata
  }
}
