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

  /// The bytes as `Data`.
  var data: Data { Data(bytes) }

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

  private var ifd0: Int? {
    guard let offset = u32(base + 4), let count = u16(base + offset),
      base + offset + 2 + 12 * count + 4 <= bytes.count
    else { return nil }
    return base + offset
  }

  /// The positions of the entries of the IFD at `start` (none when it does not fit the block).
  private func entries(of start: Int) -> [Int] {
    guard let count = u16(start), start + 2 + 12 * count <= bytes.count else { return [] }
    return (0..<count).map { start + 2 + 12 * $0 }
  }

  private func tag(_ entry: Int) -> Int? { u16(entry) }

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

  private func u16(_ at: Int) -> Int? {
    guard at >= base, at + 2 <= bytes.count else { return nil }
    let (a, b) = (Int(bytes[at]), Int(bytes[at + 1]))
    return little ? a | b << 8 : a << 8 | b
  }

  private func u32(_ at: Int) -> Int? {
    guard let first = u16(at), let second = u16(at + 2) else { return nil }
    return little ? first | second << 16 : first << 16 | second
  }
}
