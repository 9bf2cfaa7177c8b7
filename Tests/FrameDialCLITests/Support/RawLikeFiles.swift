import Foundation

/// Little-endian TIFF files built entry by entry, shaped like camera raws: a NEF-like file (a small RGB
/// preview first, the sensor's mosaic in a sub-directory), a Bayer DNG (the mosaic in the first
/// directory, with the DNG version tag), and DNGs that LibRaw develops (``DNGScene``).
enum RawLikeFiles {
  /// One directory entry: a tag, its TIFF type (1 byte, 2 ASCII, 3 short, 4 long, 5 rational, 10 signed
  /// rational; a rational's numerator and denominator are two values) and its values.
  struct Entry {
    let tag: UInt16
    let type: UInt16
    let values: [UInt32]
    var text: String?

    static func short(_ tag: UInt16, _ values: UInt32...) -> Entry {
      Entry(tag: tag, type: 3, values: values)
    }
    static func long(_ tag: UInt16, _ values: UInt32...) -> Entry {
      Entry(tag: tag, type: 4, values: values)
    }
    static func bytes(_ tag: UInt16, _ values: UInt32...) -> Entry {
      Entry(tag: tag, type: 1, values: values)
    }
    static func ascii(_ tag: UInt16, _ text: String) -> Entry {
      Entry(tag: tag, type: 2, values: [], text: text)
    }
    /// Rationals (type 5), or signed ones (type 10), each with a denominator of 10 000.
    static func rationals(_ tag: UInt16, _ values: [Double], signed: Bool = false) -> Entry {
      Entry(
        tag: tag, type: signed ? 10 : 5,
        values: values.flatMap { [UInt32(bitPattern: Int32(($0 * 10_000).rounded())), 10_000] })
    }

    /// The bytes of the values.
    var payload: [UInt8] {
      if let text { return Array(text.utf8) + [0] }
      return values.flatMap { value -> [UInt8] in
        switch type {
        case 1: [UInt8(truncatingIfNeeded: value)]
        case 3: le16(value)
        default: le32(value)
        }
      }
    }
    var count: UInt32 {
      UInt32(
        text.map { $0.utf8.count + 1 }
          ?? (type == 5 || type == 10 ? values.count / 2 : values.count))
    }
  }

  static func le16(_ value: UInt32) -> [UInt8] {
    [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)]
  }
  static func le32(_ value: UInt32) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }

  /// A TIFF file whose directories come one after the other from offset 8, each followed by the values
  /// that do not fit in its entries; `pixels` are appended, and the values of strip and tile offset
  /// entries (tags 273 and 324) in a directory are offsets into that directory's pixels. A directory's sub-directory entry (tag 330) or EXIF
  /// directory entry (34665) or GPS directory entry (34853) with value `k` points to directory `k`. Only directories listed in `chain` are linked as the main chain.
  static func tiff(directories: [[Entry]], pixels: [[UInt8]], chain: [Int] = [0]) -> Data {
    // Lay out twice: first to learn the offsets, then to write with them.
    func layout(directoryOffsets: [UInt32], pixelOffsets: [UInt32]) -> (
      Data, [UInt32], [UInt32]
    ) {
      var file: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(directoryOffsets.first ?? 8)
      var offsets: [UInt32] = []
      for (index, entries) in directories.enumerated() {
        offsets.append(UInt32(file.count))
        let sorted = entries.sorted { $0.tag < $1.tag }
        let tableEnd = file.count + 2 + sorted.count * 12 + 4
        var extra: [UInt8] = []
        var table: [UInt8] = le16(UInt32(sorted.count))
        for entry in sorted {
          var resolved = entry
          if entry.tag == 273 || entry.tag == 324 {
            resolved = Entry(
              tag: entry.tag, type: 4, values: entry.values.map { pixelOffsets[index] &+ $0 })
          }
          if entry.tag == 330 || entry.tag == 34665 || entry.tag == 34853 {
            resolved = .long(entry.tag, entry.values.map { directoryOffsets[Int($0)] }.first ?? 0)
          }
          let payload = resolved.payload
          table += le16(UInt32(resolved.tag)) + le16(UInt32(resolved.type)) + le32(resolved.count)
          if payload.count <= 4 {
            table += payload + [UInt8](repeating: 0, count: 4 - payload.count)
          } else {
            table += le32(UInt32(tableEnd + extra.count))
            extra += payload
            if extra.count % 2 == 1 { extra.append(0) }
          }
        }
        let position = chain.firstIndex(of: index)
        let next = position.flatMap { $0 + 1 < chain.count ? directoryOffsets[chain[$0 + 1]] : nil }
        table += le32(next ?? 0)
        file += table + extra
      }
      var pixelStarts: [UInt32] = []
      for block in pixels {
        pixelStarts.append(UInt32(file.count))
        file += block
      }
      return (Data(file), offsets, pixelStarts)
    }
    let zeros = [UInt32](repeating: 0, count: directories.count)
    let (_, offsets, starts) = layout(directoryOffsets: zeros, pixelOffsets: zeros)
    return layout(directoryOffsets: offsets, pixelOffsets: starts).0
  }

  /// A NEF-like file: a 256×192 RGB preview in the first directory, marked as a reduced-resolution
  /// copy, and a 4032×3024 colour filter array in its sub-directory (whose strip is left short).
  static func nefLike() -> Data {
    var preview: [UInt8] = []
    for i in 0..<(256 * 192) {
      preview += [UInt8(i % 256), UInt8(i / 256 % 256), 90]
    }
    var first: [Entry] = []
    first.append(.long(254, 1))
    first.append(.long(256, 256))
    first.append(.long(257, 192))
    first.append(.short(258, 8, 8, 8))
    first.append(.short(259, 1))
    first.append(.short(262, 2))
    first.append(.ascii(271, "NIKON CORPORATION"))
    first.append(.ascii(272, "NIKON Z 6_2"))
    first.append(.long(273, 0))
    first.append(.short(277, 3))
    first.append(.long(278, 192))
    first.append(.long(279, UInt32(preview.count)))
    first.append(.short(284, 1))
    first.append(.long(330, 1))
    var mosaic: [Entry] = []
    mosaic.append(.long(254, 0))
    mosaic.append(.long(256, 4032))
    mosaic.append(.long(257, 3024))
    mosaic.append(.short(258, 16))
    mosaic.append(.short(259, 1))
    mosaic.append(.short(262, 32803))
    mosaic.append(.long(273, 0))
    mosaic.append(.short(277, 1))
    mosaic.append(.long(278, 3024))
    mosaic.append(.long(279, 4032 * 3024 * 2))
    mosaic.append(.short(33421, 2, 2))
    mosaic.append(.bytes(33422, 0, 1, 1, 2))
    return tiff(directories: [first, mosaic], pixels: [preview, [UInt8](repeating: 7, count: 64)])
  }

  /// A 96×64 Bayer DNG (RGGB, 16-bit codes) as a phone writes it, uncompressed.
  static func bayerDNG() -> Data {
    var codes: [UInt8] = []
    for i in 0..<(96 * 64) {
      codes += le16(UInt32(1000 + (i * 37) % 3000))
    }
    var entries: [Entry] = []
    entries.append(.long(254, 0))
    entries.append(.long(256, 96))
    entries.append(.long(257, 64))
    entries.append(.short(258, 16))
    entries.append(.short(259, 1))
    entries.append(.short(262, 32803))
    entries.append(.ascii(271, "Apple"))
    entries.append(.ascii(272, "iPhone 16 Pro"))
    entries.append(.long(273, 0))
    entries.append(.short(277, 1))
    entries.append(.long(278, 64))
    entries.append(.long(279, UInt32(codes.count)))
    entries.append(.short(33421, 2, 2))
    entries.append(.bytes(33422, 0, 1, 1, 2))
    entries.append(.bytes(50706, 1, 4, 0, 0))
    entries.append(.short(50717, 4095))
    return tiff(directories: [entries], pixels: [codes])
  }
}
