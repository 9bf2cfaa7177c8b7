/// How an image is read.
public struct LoadOptions: Sendable, Equatable, Encodable {
  /// How much damage a decoder may report before the file is refused. Each level refuses what the
  /// levels before it refuse, and more.
  public enum FailOn: String, Sendable, Equatable, Encodable, CaseIterable {
    /// Never refuse: write what the decoder could decode (a cut-short file's missing part comes out
    /// grey or black, a damaged strip as the decoder concealed it).
    case none
    /// Refuse a file whose data ends early (libjpeg's "premature end of data segment", a PNG or TIFF
    /// cut short); let through what decoders recover from on their own.
    case truncated
    /// Also refuse what a decoder calls an error (a corrupt compressed stream, a bad CRC in the
    /// picture data).
    case error
    /// Also refuse anything a decoder warns about (libjpeg's "extraneous bytes before marker", a PNG
    /// chunk out of place or with a bad CRC): the default, so that no damage a decoder notices is
    /// written as a picture.
    case warning
  }

  /// Read top to bottom once (lower memory for a single pass; the image cannot be read twice).
  public var sequential: Bool
  /// What counts as a broken file (default ``FailOn/warning``).
  public var failOn: FailOn
  /// Turn the pixels upright from the EXIF orientation and reset the orientation to 1.
  public var autoRotate: Bool
  /// The largest number of pixels (width × height) accepted, checked from the header before any pixel is
  /// decoded, on the size the file is decoded at (after any ``shrink``); `nil` turns the check off.
  public var pixelLimit: Int?
  /// Shrink-on-load: decode at about 1/`shrink` of the full size where the format can do it for less
  /// work than a full decode — JPEG by DCT scaling (factors 2, 4, 8; anything else is rounded down to
  /// one of them), WebP by its scaled decoder. Other formats ignore it and decode at full size, so the
  /// loaded image's own size says what happened. 1 (the default) decodes at full size.
  public var shrink: Int
  /// A JPEG file decoded by libjpeg-turbo at `jpegEighths`/8 of its size (1 … 8, its DCT scaling,
  /// each side rounded up), used only where that is smaller than what ``shrink`` gives and the file is
  /// YCbCr, RGB or grey (a CMYK JPEG is decoded by libvips as ``shrink`` says). The file's metadata is
  /// kept as libvips reads it; the decode is done when the image is opened, not lazily. 8 (the default)
  /// leaves decoding to libvips. Only files opened with `Image(contentsOf:options:)` are scaled so.
  public var jpegEighths: Int

  /// 100 megapixels: FrameDial's default limit.
  public static let defaultPixelLimit = 100_000_000

  /// Creates options; the defaults are random access, fail on any warning, no rotation, 100 MP, full
  /// size.
  public init(
    sequential: Bool = false, failOn: FailOn = .warning, autoRotate: Bool = false,
    pixelLimit: Int? = LoadOptions.defaultPixelLimit, shrink: Int = 1, jpegEighths: Int = 8
  ) {
    self.shrink = shrink
    self.jpegEighths = jpegEighths
    self.sequential = sequential
    self.failOn = failOn
    self.autoRotate = autoRotate
    self.pixelLimit = pixelLimit
  }
}
