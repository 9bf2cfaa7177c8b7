import Foundation

/// EXIF data made true of a rendered picture, for writers that store the EXIF block as it is (libheif):
/// the orientation (IFD0's tag 0x0112) set to 1, since the pixels are turned upright, and the pixel
/// dimensions (the EXIF IFD's 0xA002 and 0xA003) set to the picture's, as libvips's own savers do.
///
/// Only values already present are changed in place; nothing is added or moved, so any well-formed block
/// stays well-formed. A block that cannot be parsed is returned unchanged.
enum EXIFUpright {
  /// `exif` (with or without the `Exif\0\0` prefix) with orientation 1 and dimensions `width` × `height`.
  static func patched(_ exif: Data, width: Int, height: Int) -> Data {
    let bytes = [UInt8](exif)
    let start = bytes.starts(with: Array("Exif\0\0".utf8)) ? 6 : 0
    guard var tiff = TIFFBlock(bytes: bytes, start: start) else { return exif }
    if let ifd0 = tiff.firstIFD {
      tiff.setShort(0x0112, in: ifd0, to: 1)
      if let exifIFD = tiff.pointer(0x8769, in: ifd0) {
        tiff.setShortOrLong(0xA002, in: exifIFD, to: width)
        tiff.setShortOrLong(0xA003, in: exifIFD, to: height)
      }
    }
    return Data(tiff.bytes)
  }
}

/// A TIFF structure (EXIF's container) in memory, read and changed with every offset checked.
private struct TIFFBlock {
  var bytes: [UInt8]
  /// Where the TIFF header starts; offsets in the block count from here.
  let start: Int
  let littleEndian: Bool

  init?(bytes: [UInt8], start: Int) {
    guard bytes.count >= start + 8 else { return nil }
    switch (bytes[start], bytes[start + 1]) {
    case (0x49, 0x49): littleEndian = true
    case (0x4D, 0x4D): littleEndian = false
    default: return nil
    }
    self.bytes = bytes
    self.start = start
  }

  /// The offset of IFD0.
  var firstIFD: Int? { read(at: 4, size: 4) }

  /// The offset an IFD's LONG entry `tag` points to (a sub-IFD).
  func pointer(_ tag: UInt16, in ifd: Int) -> Int? {
    guard let entry = entry(tag, in: ifd), read(at: entry + 2, size: 2) == 4 else { return nil }
    return read(at: entry + 8, size: 4)
  }

  /// Sets a SHORT entry with one value.
  mutating func setShort(_ tag: UInt16, in ifd: Int, to value: Int) {
    guard let entry = entry(tag, in: ifd), read(at: entry + 2, size: 2) == 3,
      read(at: entry + 4, size: 4) == 1
    else { return }
    write(value, at: entry + 8, size: 2)
  }

  /// Sets a SHORT or LONG entry with one value (a SHORT only when the value fits).
  mutating func setShortOrLong(_ tag: UInt16, in ifd: Int, to value: Int) {
    guard let entry = entry(tag, in: ifd), read(at: entry + 4, size: 4) == 1 else { return }
    switch read(at: entry + 2, size: 2) {
    case 3 where value <= 0xFFFF: write(value, at: entry + 8, size: 2)
    case 4 where value <= 0xFFFF_FFFF: write(value, at: entry + 8, size: 4)
    default: return
    }
  }

  /// The offset of the 12-byte entry `tag` in the IFD at `ifd`.
  private func entry(_ tag: UInt16, in ifd: Int) -> Int? {
    guard let count = read(at: ifd, size: 2) else { return nil }
    for index in 0..<count {
      let entry = ifd + 2 + index * 12
      guard let found = read(at: entry, size: 2) else { return nil }
      if found == Int(tag) { return entry }
    }
    return nil
  }

  /// The unsigned integer of `size` bytes at TIFF offset `offset`; nil outside the block.
  private func read(at offset: Int, size: Int) -> Int? {
    let position = start + offset
    guard offset >= 0, position + size <= bytes.count else { return nil }
    var value = 0
    for index in 0..<size {
      let byte = Int(bytes[position + (littleEndian ? size - 1 - index : index)])
      value = value << 8 | byte
    }
    return value
  }

  private mutating func write(_ value: Int, at offset: Int, size: Int) {
    let position = start + offset
    guard offset >= 0, position + size <= bytes.count else { return }
    for index in 0..<size {
      let shift = 8 * (littleEndian ? index : size - 1 - index)
      bytes[position + index] = UInt8(truncatingIfNeeded: value >> shift)
    }
  }
}
