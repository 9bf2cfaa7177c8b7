import Foundation

/// Edits an EXIF block (a TIFF structure, as libvips holds it, with or without the `Exif\0\0` marker)
/// in place: removes the GPS IFD or the thumbnail IFD (IFD1). What is removed is unlinked and its bytes
/// overwritten with zeros, so nothing of it is left even unreferenced; everything else keeps its place,
/// so offsets elsewhere (maker notes) stay right. A block that cannot be read is returned unchanged.
struct ExifBlock {
  /// The GPS IFD pointer tag.
  static let gpsPointerTag = 0x8825
  /// The thumbnail's offset and length tags (IFD1).
  static let thumbnailOffsetTag = 0x0201
  static let thumbnailLengthTag = 0x0202

  /// The block's bytes.
  private(set) var bytes: [UInt8]
  /// Where the TIFF header starts (offsets count from there).
  private let base: Int
  private let little: Bool

  /// Reads the header of `data`; nil when it is no TIFF structure.
  init?(_ data: Data) {
    bytes = [UInt8](data)
    base = bytes.starts(with: Array("Exif\0\0".utf8)) ? 6 : 0
    guard bytes.count >= base + 8 else { return nil }
    switch (bytes[base], bytes[base + 1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
  }

  /// A TIFF-like structure whose offsets count from `base` in `bytes`, in the byte order given (a maker
  /// note's own directory).
  init(bytes: [UInt8], base: Int, littleEndian: Bool) {
    self.bytes = bytes
    self.base = base
    little = littleEndian
  }

  /// The bytes as `Data`.
  var data: Data { Data(bytes) }

  /// The Exif IFD's pointer tag, and the maker note's tag in it.
  static let exifPointerTag = 0x8769
  static let makerNoteTag = 0x927C

  /// The maker note's bytes (the Exif IFD's tag 0x927C), nil when there is none or it does not fit.
  var makerNote: [UInt8]? {
    guard let ifd0, let pointer = entry(Self.exifPointerTag, in: ifd0),
      let offset = u32(pointer + 8),
      let note = entry(Self.makerNoteTag, in: base + offset), let length = u32(note + 4),
      let start = u32(note + 8), length > 4, base + start + length <= bytes.count
    else { return nil }
    return Array(bytes[(base + start)..<(base + start + length)])
  }

  /// The entry of `tag` in the IFD at `start`.
  func entry(_ tag: Int, in start: Int) -> Int? {
    entries(of: start).first { self.tag($0) == tag }
  }

  /// The first value of the rational entry at `entry` (TIFF types 5 and 10, unsigned and signed), read
  /// at its offset from `base`; nil for other types or a zero denominator.
  func rational(_ entry: Int) -> Double? {
    guard let type = u16(entry + 2), type == 5 || type == 10, let count = u32(entry + 4),
      count >= 1,
      let offset = u32(entry + 8), let numerator = u32(base + offset),
      let denominator = u32(base + offset + 4), denominator != 0
    else { return nil }
    if type == 5 { return Double(numerator) / Double(denominator) }
    return Double(Int32(truncatingIfNeeded: numerator))
      / Double(Int32(truncatingIfNeeded: denominator))
  }

  /// Removes the GPS IFD and its pointer from IFD0.
  mutating func removeGPS() {
    guard let ifd0 = ifd0,
      let entry = entries(of: ifd0).first(where: { tag($0) == Self.gpsPointerTag }),
      let offset = u32(entry + 8)
    else { return }
    zeroIFD(at: base + offset)
    removeEntry(entry, from: ifd0)
  }

  /// Removes IFD1 (the thumbnail's tags) and the thumbnail it points to.
  mutating func removeThumbnail() {
    guard let ifd0 = ifd0, let count = u16(ifd0) else { return }
    let link = ifd0 + 2 + 12 * count
    guard let next = u32(link), next != 0 else { return }
    let ifd1 = base + next
    let tags = entries(of: ifd1)
    if let start = tags.first(where: { tag($0) == Self.thumbnailOffsetTag }).flatMap({ u32($0 + 8) }
    ),
      let length = tags.first(where: { tag($0) == Self.thumbnailLengthTag }).flatMap({
        u32($0 + 8)
      })
    {
      zero(base + start, length)
    }
    zeroIFD(at: ifd1)
    zero(link, 4)
  }

  /// Where IFD0 starts, nil when it does not fit.
  var ifd0: Int? {
    guard let offset = u32(base + 4), let count = u16(base + offset),
      base + offset + 2 + 12 * count + 4 <= bytes.count
    else { return nil }
    return base + offset
  }

  /// The positions of the entries of the IFD at `start` (none when it does not fit the block).
  func entries(of start: Int) -> [Int] {
    guard let count = u16(start), start + 2 + 12 * count <= bytes.count else { return [] }
    return (0..<count).map { start + 2 + 12 * $0 }
  }

  func tag(_ entry: Int) -> Int? { u16(entry) }

  /// Overwrites the IFD at `start`, and the values its entries point to, with zeros.
  private mutating func zeroIFD(at start: Int) {
    // Bytes per value of the TIFF field types 1 … 12.
    let sizes = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8]
    let all = entries(of: start)
    for entry in all {
      guard let type = u16(entry + 2), let number = u32(entry + 4), type < sizes.count else {
        continue
      }
      let length = sizes[type] * number
      if length > 4, let offset = u32(entry + 8) { zero(base + offset, length) }
    }
    zero(start, 2 + 12 * all.count + (all.isEmpty ? 0 : 4))
  }

  /// Removes the entry at `entry` from the IFD at `start`: later entries and the next-IFD link move up.
  private mutating func removeEntry(_ entry: Int, from start: Int) {
    guard let count = u16(start) else { return }
    let end = start + 2 + 12 * count + 4
    bytes.replaceSubrange(entry..<(end - 12), with: Array(bytes[(entry + 12)..<end]))
    zero(end - 12, 12)
    let newCount = count - 1
    bytes[start] = UInt8(little ? newCount & 0xFF : newCount >> 8)
    bytes[start + 1] = UInt8(little ? newCount >> 8 : newCount & 0xFF)
  }

  private mutating func zero(_ start: Int, _ length: Int) {
    guard start >= base, length > 0, start + length <= bytes.count else { return }
    for index in start..<(start + length) { bytes[index] = 0 }
  }

  func u16(_ at: Int) -> Int? {
    guard at >= base, at + 2 <= bytes.count else { return nil }
    let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
    return little ? a | b << 8 : a << 8 | b
  }

  func u32(_ at: Int) -> Int? {
    guard let first = u16(at), let second = u16(at + 2) else { return nil }
    return little ? first | second << 16 : first << 16 | second
  }
}
