import Foundation

/// Recognises camera raw files that are built like TIFF files (DNG, NEF, ARW, CR2, PEF and others), so
/// that they never reach libvips's TIFF loader: it would open such a file as the small preview in its
/// first directory, or as the undeveloped sensor mosaic, and FrameDial would write that as the picture.
///
/// The file's TIFF directories are walked (the main chain and the sub-image directories), reading only
/// their entries; a file is a raw when any directory carries the DNG version tag, or holds a colour
/// filter array or linear raw picture, when it has Canon's CR2 signature, or when its first image says it
/// is a reduced-resolution copy of an image kept in a sub-directory. The loader in Vips refuses what it
/// finds; `Raw`'s `CameraRawFile` says what it is.
public enum CameraRawSniffer {
  /// What was found: a description for the refusal, such as "a DNG (Apple iPhone 16 Pro), a colour
  /// filter array mosaic of 4032×3024".
  public struct Finding: Sendable, Equatable {
    /// What the file is, such as "a DNG (Apple iPhone 16 Pro), a colour filter array mosaic of
    /// 4032×3024".
    public let description: String
    /// True when the raw picture is JPEG XL–compressed (DNG 1.7, as iOS 18 writes ProRAW).
    public var isJPEGXL = false
    /// The camera's maker as the file's first directory naming it spells it.
    public var make: String?
    /// The camera's model as the file's first directory naming it spells it.
    public var model: String?
  }

  /// Reads `count` bytes at `offset`, or fewer at the end; nil when nothing can be read there.
  typealias Reader = (_ offset: Int, _ count: Int) -> [UInt8]?

  private static let maximumDirectories = 64
  private static let maximumEntries = 4096

  /// The raw file that `read` gives, or nil when it is not a TIFF-structured camera raw.
  static func finding(_ read: Reader) -> Finding? {
    guard let header = read(0, 16), header.count >= 8 else { return nil }
    let little: Bool
    switch (header[0], header[1]) {
    case (0x49, 0x49): little = true
    case (0x4D, 0x4D): little = false
    default: return nil
    }
    let bytes = ByteOrder(little: little)
    let magic = bytes.u16(header, 2)
    let big = magic == 43
    guard magic == 42 || (big && header.count >= 16) else { return nil }
    let canon = header.count >= 10 && header[8] == 0x43 && header[9] == 0x52  // "CR"
    var pending = [big ? Int(clamping: bytes.u64(header, 8)) : Int(bytes.u32(header, 4))]
    var seen: Set<Int> = []
    var directories: [Directory] = []
    while let offset = pending.popLast(), directories.count < maximumDirectories {
      guard offset > 0, seen.insert(offset).inserted,
        let directory = Directory(at: offset, read: read, order: bytes, big: big)
      else { continue }
      directories.append(directory)
      pending += directory.subDirectories.reversed()
      if let next = directory.next { pending.insert(next, at: 0) }
    }
    guard let first = directories.first else { return nil }
    let named = directories.first { $0.camera != nil }
    let raw = directories.first { $0.photometric == 32803 || $0.photometric == 34892 }
    let isDNG = directories.contains { $0.isDNG }
    let largerSubImage = first.reducedResolution && !first.subDirectories.isEmpty
    guard isDNG || raw != nil || canon || largerSubImage else { return nil }
    var text = isDNG ? "a DNG" : canon ? "a Canon CR2 raw" : "a camera raw file"
    if let camera = named?.camera { text += " (\(camera))" }
    if let raw, let size = raw.size {
      let kind = raw.photometric == 32803 ? "a colour filter array mosaic" : "a linear raw picture"
      text += ", \(kind) of \(size.width)×\(size.height)"
    }
    let jpegXL = raw?.compression == 52546
    if jpegXL { text += ", JPEG XL–compressed" }
    return Finding(description: text, isJPEGXL: jpegXL, make: named?.make, model: named?.model)
  }

  /// The raw file at an open descriptor of a file of `size` bytes, read with pread (the descriptor's
  /// offset does not move).
  public static func finding(descriptor: Int32, size: Int) -> Finding? {
    finding { offset, count in
      guard offset >= 0, offset < size else { return nil }
      var buffer = [UInt8](repeating: 0, count: min(count, size - offset))
      let got = buffer.withUnsafeMutableBytes {
        pread(descriptor, $0.baseAddress, $0.count, off_t(offset))
      }
      return got > 0 ? Array(buffer.prefix(got)) : nil
    }
  }

  /// The raw file held in `data`.
  public static func finding(data: Data) -> Finding? {
    finding { offset, count in
      guard offset >= 0, offset < data.count else { return nil }
      let start = data.startIndex + offset
      return [UInt8](data[start..<min(data.endIndex, start + count)])
    }
  }

  /// Reads integers in the file's byte order.
  private struct ByteOrder {
    let little: Bool

    func u16(_ b: [UInt8], _ i: Int) -> UInt16 {
      guard i + 2 <= b.count else { return 0 }
      return little
        ? UInt16(b[i]) | UInt16(b[i + 1]) << 8 : UInt16(b[i]) << 8 | UInt16(b[i + 1])
    }

    func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
      let (high, low) = (UInt32(u16(b, i)), UInt32(u16(b, i + 2)))
      return little ? high | low << 16 : high << 16 | low
    }

    func u64(_ b: [UInt8], _ i: Int) -> UInt64 {
      let (high, low) = (UInt64(u32(b, i)), UInt64(u32(b, i + 4)))
      return little ? high | low << 32 : high << 32 | low
    }
  }

  /// The entries of one TIFF directory that tell a raw file apart.
  private struct Directory {
    var photometric: Int?
    var compression: Int?
    var width: Int?
    var height: Int?
    var reducedResolution = false
    var isDNG = false
    var make: String?
    var model: String?
    var subDirectories: [Int] = []
    var next: Int?

    var size: (width: Int, height: Int)? {
      guard let width, let height else { return nil }
      return (width, height)
    }

    /// "make model", the maker not repeated when the model starts with its name's first word
    /// ("Canon EOS 350D DIGITAL", "NIKON D70" for NIKON CORPORATION's).
    var camera: String? {
      let words = [make, model].compactMap { $0 }.filter { !$0.isEmpty }
      if words.count == 2, let maker = words[0].split(separator: " ").first,
        words[1].lowercased().hasPrefix(maker.lowercased())
      {
        return words[1]
      }
      return words.isEmpty ? nil : words.joined(separator: " ")
    }

    init?(at offset: Int, read: Reader, order: ByteOrder, big: Bool) {
      let (countSize, entrySize, valueSize) = big ? (8, 20, 8) : (2, 12, 4)
      guard let head = read(offset, countSize), head.count == countSize else { return nil }
      let count = big ? Int(clamping: order.u64(head, 0)) : Int(order.u16(head, 0))
      guard count > 0, count <= CameraRawSniffer.maximumEntries,
        let table = read(offset + countSize, count * entrySize + valueSize),
        table.count >= count * entrySize
      else { return nil }
      for index in 0..<count {
        let entry = Array(table[(index * entrySize)..<((index + 1) * entrySize)])
        let tag = order.u16(entry, 0)
        let type = order.u16(entry, 2)
        let values = big ? Int(clamping: order.u64(entry, 4)) : Int(order.u32(entry, 4))
        let field = Array(entry[(big ? 12 : 8)...])
        // The first value, when it is a short or a long kept in the entry.
        let first: Int? =
          switch type {
          case 3: Int(order.u16(field, 0))
          case 4, 13: Int(order.u32(field, 0))
          case 16, 18: Int(clamping: order.u64(field, 0))
          default: nil
          }
        switch tag {
        case 254: reducedResolution = (first ?? 0) & 1 == 1
        case 256: width = first
        case 257: height = first
        case 259: compression = first
        case 262: photometric = first
        case 271: make = Self.text(type: type, count: values, field: field, read, order, big)
        case 272: model = Self.text(type: type, count: values, field: field, read, order, big)
        case 50706: isDNG = true
        case 330:
          subDirectories = Self.offsets(type: type, count: values, field: field, read, order, big)
        default: break
        }
      }
      let link = Array(table[(count * entrySize)...])
      let nextOffset = big ? Int(clamping: order.u64(link, 0)) : Int(order.u32(link, 0))
      next = link.count >= valueSize && nextOffset > 0 ? nextOffset : nil
    }

    /// An ASCII entry's text, trimmed of its NULs and spaces (at most 64 bytes).
    private static func text(
      type: UInt16, count: Int, field: [UInt8], _ read: Reader, _ order: ByteOrder, _ big: Bool
    ) -> String? {
      guard type == 2, count > 0 else { return nil }
      let length = min(count, 64)
      let bytes: [UInt8]
      if count <= field.count {
        bytes = Array(field.prefix(length))
      } else {
        let at = big ? Int(clamping: order.u64(field, 0)) : Int(order.u32(field, 0))
        guard let read = read(at, length) else { return nil }
        bytes = read
      }
      let printable = bytes.prefix { $0 != 0 }.filter { (0x20..<0x7F).contains($0) }
      return String(decoding: printable, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The sub-directory offsets an entry lists (at most 16).
    private static func offsets(
      type: UInt16, count: Int, field: [UInt8], _ read: Reader, _ order: ByteOrder, _ big: Bool
    ) -> [Int] {
      let width = (type == 16 || type == 18) ? 8 : 4
      guard [4, 13, 16, 18].contains(type), count > 0 else { return [] }
      let wanted = min(count, 16)
      let bytes: [UInt8]
      if count * width <= field.count {
        bytes = field
      } else {
        let at = big ? Int(clamping: order.u64(field, 0)) : Int(order.u32(field, 0))
        guard let read = read(at, wanted * width) else { return [] }
        bytes = read
      }
      return (0..<wanted).compactMap { index in
        guard (index + 1) * width <= bytes.count else { return nil }
        let value =
          width == 8
          ? Int(clamping: order.u64(bytes, index * width)) : Int(order.u32(bytes, index * width))
        return value > 0 ? value : nil
      }
    }
  }
}
