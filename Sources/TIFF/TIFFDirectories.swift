import CTIFF
import Foundation

/// What each image of a TIFF file's directory chain says it is, read by libtiff: the only code that
/// calls libtiff (libvips's TIFF loader, which decodes the pixels, links its own).
///
/// A TIFF holds its images in a chain of directories. A camera or a scanner may put a small preview
/// first and the picture after it: the preview's NewSubfileType has bit 0 set ("a reduced-resolution
/// version of another image"). libvips 8.14's TIFF loader reads the first directory unless it is given
/// another page, and does not say which pages are reduced-resolution copies; ``firstFullResolutionPage``
/// does.
public struct TIFFDirectories: Sendable, Equatable {
  /// One directory's description of its image.
  public struct Directory: Sendable, Equatable {
    /// NewSubfileType (tag 254): bit 0 a reduced-resolution copy, bit 1 one page of many, bit 2 a
    /// transparency mask; 0 when the tag is absent. (libtiff ignores the old SubfileType, tag 255.)
    public var subfileType: UInt32

    /// True when the directory is a reduced-resolution copy of another image (bit 0) or a
    /// transparency mask (bit 2): not a picture of its own at full size.
    public var isReducedOrMask: Bool { subfileType & 0b101 != 0 }
  }

  /// The directories of the main chain in file order (a page's index in it is libvips's `page`), up to
  /// the first that is a picture at full size: later ones are not read. At most ``largestCount`` are
  /// read.
  public var directories: [Directory]
  /// True when every directory read is a reduced-resolution copy or a mask and the chain goes on, but
  /// libtiff cannot read the next directory (the file is cut short or damaged there): the picture the
  /// preview stands for is missing.
  public var pictureMissing: Bool

  /// How many directories are read at most: a preview comes first or second, and a hostile file may
  /// chain many.
  public static let largestCount = 64
  /// The largest single allocation libtiff may make while reading a directory.
  static let largestAllocation = 64 << 20

  private init(directories: [Directory], pictureMissing: Bool) {
    self.directories = directories
    self.pictureMissing = pictureMissing
  }

  /// Reads the directory chain of the TIFF in the open file `descriptor` of `size` bytes, with pread
  /// (the descriptor's offset does not move); nil when libtiff cannot read its header or first
  /// directory. libtiff's messages are never printed.
  public init?(descriptor: Int32, size: Int) {
    guard
      let read = Self.read(
        fd_tiff_input(
          descriptor: descriptor, bytes: nil, size: UInt64(max(0, size)), offset: 0))
    else { return nil }
    self = read
  }

  /// Reads the directory chain of the TIFF in `bytes`; nil when libtiff cannot read its header or
  /// first directory.
  public init?(bytes: Data) {
    let read = bytes.withUnsafeBytes { raw -> TIFFDirectories? in
      guard let base = raw.baseAddress else { return nil }
      return Self.read(
        fd_tiff_input(
          descriptor: -1, bytes: base.assumingMemoryBound(to: UInt8.self),
          size: UInt64(raw.count), offset: 0))
    }
    guard let read else { return nil }
    self = read
  }

  /// The index of the first directory that is neither a reduced-resolution copy nor a transparency
  /// mask; 0 (the first, as libvips reads by default) when every directory read is one.
  public var firstFullResolutionPage: Int {
    directories.firstIndex { !$0.isReducedOrMask } ?? 0
  }

  /// The directories read from `source` up to the first full-resolution one. libtiff keeps the
  /// input's address for every later read, so it lives on the heap until the file is closed.
  private static func read(_ source: fd_tiff_input) -> TIFFDirectories? {
    let input = UnsafeMutablePointer<fd_tiff_input>.allocate(capacity: 1)
    input.initialize(to: source)
    defer { input.deallocate() }
    guard let tiff = fd_tiff_open(input, tmsize_t(largestAllocation)) else { return nil }
    defer { TIFFClose(tiff) }
    var directories: [Directory] = []
    while true {
      let directory = Directory(subfileType: fd_tiff_subfile_type(tiff))
      directories.append(directory)
      if !directory.isReducedOrMask || TIFFLastDirectory(tiff) != 0
        || directories.count == largestCount
      {
        return TIFFDirectories(directories: directories, pictureMissing: false)
      }
      if TIFFReadDirectory(tiff) != 1 {
        return TIFFDirectories(directories: directories, pictureMissing: true)
      }
    }
  }
}
