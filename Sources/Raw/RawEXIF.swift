import Foundation

/// The EXIF block written with a developed raw: what LibRaw read from the raw's own tags (camera, lens,
/// exposure, capture date, GPS position, artist and copyright), and nothing the raw does not say, laid
/// out as a little-endian TIFF behind the `Exif\0\0` marker,
/// orientation 1 (the pixels are developed upright). libvips writes it into the output as it writes a
/// JPEG's own EXIF.
enum RawEXIF {
  /// The EXIF block of `facts`.
  static func block(_ facts: RawFacts) -> Data {
    var main: [Field] = [.short(274, 1)]
    if !facts.make.isEmpty { main.append(.ascii(271, facts.make)) }
    if !facts.model.isEmpty { main.append(.ascii(272, facts.model)) }
    if let artist = facts.artist { main.append(.text(315, artist)) }
    if let copyright = facts.copyright { main.append(.text(33432, copyright)) }
    var exif: [Field] = []
    if let time = facts.captureTime {
      let text = dateText(time)
      main.append(.ascii(306, text))
      exif.append(.ascii(36867, text))
    }
    if let exposure = facts.exposureTime {
      // 1/125 s is written as 1/125, as cameras write it.
      let reciprocal = (1 / exposure).rounded()
      exif.append(
        exposure < 1 && abs(1 / reciprocal - exposure) < exposure * 0.001
          ? Field(tag: 33434, type: 5, count: 1, bytes: le32(1) + le32(UInt32(reciprocal)))
          : .rational(33434, [exposure]))
    }
    if let aperture = facts.fNumber { exif.append(.rational(33437, [aperture])) }
    if let iso = facts.iso { exif.append(.short(34855, UInt32(min(iso.rounded(), 65535)))) }
    if let focal = facts.focalLength { exif.append(.rational(37386, [focal])) }
    if let lens = facts.lens { exif.append(.ascii(42036, lens)) }
    var gps: [Field] = []
    if let place = facts.location {
      gps = [
        Field(tag: 0, type: 1, count: 4, bytes: [2, 3, 0, 0]),
        .ascii(1, place.latitudeRef),
        .rational(2, [place.latitude.x, place.latitude.y, place.latitude.z]),
        .ascii(3, place.longitudeRef),
        .rational(4, [place.longitude.x, place.longitude.y, place.longitude.z]),
      ]
      if let altitude = place.altitude {
        gps.append(Field(tag: 5, type: 1, count: 1, bytes: [place.belowSeaLevel ? 1 : 0]))
        gps.append(.rational(6, [abs(altitude)]))
      }
    }
    // Directories in file order: IFD0, the EXIF directory, then the GPS directory. The pointers'
    // values do not change the directories' sizes, so they are laid out with zeros first.
    let headerSize = 8
    let pointers = [UInt16(34665)] + (gps.isEmpty ? [] : [34853])
    let exifOffset = headerSize + directorySize(main + pointers.map { .long($0, 0) })
    let gpsOffset = exifOffset + directorySize(exif)
    main.append(.long(34665, UInt32(exifOffset)))
    if !gps.isEmpty { main.append(.long(34853, UInt32(gpsOffset))) }
    var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + le32(8)
    tiff += directory(main, at: headerSize)
    tiff += directory(exif, at: exifOffset)
    if !gps.isEmpty { tiff += directory(gps, at: gpsOffset) }
    return Data(Array("Exif".utf8) + [0, 0] + tiff)
  }

  /// One directory entry: its tag, TIFF type (1 byte, 2 ASCII, 3 short, 4 long, 5 rational), value
  /// count and value bytes.
  struct Field {
    let tag: UInt16
    let type: UInt16
    let count: Int
    let bytes: [UInt8]

    static func short(_ tag: UInt16, _ value: UInt32) -> Field {
      Field(tag: tag, type: 3, count: 1, bytes: Array(le32(value).prefix(2)))
    }
    static func long(_ tag: UInt16, _ value: UInt32) -> Field {
      Field(tag: tag, type: 4, count: 1, bytes: le32(value))
    }
    static func ascii(_ tag: UInt16, _ text: String) -> Field {
      let bytes = Array(text.utf8.filter { $0 >= 0x20 && $0 < 0x7F }.prefix(255)) + [0]
      return Field(tag: tag, type: 2, count: bytes.count, bytes: bytes)
    }
    /// Text as the raw spells it (UTF-8, a NUL between a copyright's photographer and editor kept),
    /// other control characters left out, at most 255 bytes.
    static func text(_ tag: UInt16, _ text: String) -> Field {
      let bytes = Array(text.utf8.filter { $0 == 0 || $0 >= 0x20 }.prefix(255)) + [0]
      return Field(tag: tag, type: 2, count: bytes.count, bytes: bytes)
    }
    /// Unsigned rationals with a denominator of 10 000 (1 for values too large for it).
    static func rational(_ tag: UInt16, _ values: [Double]) -> Field {
      let bytes = values.flatMap { value -> [UInt8] in
        let clamped = max(0, value)
        let denominator: UInt32 = clamped < 400_000 ? 10_000 : 1
        let numerator = UInt32(min((clamped * Double(denominator)).rounded(), 4_294_967_295))
        return le32(numerator) + le32(denominator)
      }
      return Field(tag: tag, type: 5, count: values.count, bytes: bytes)
    }
  }

  /// The size a directory takes with its out-of-line values.
  private static func directorySize(_ fields: [Field]) -> Int {
    directory(fields, at: 0).count
  }

  /// A directory of `fields` (sorted by tag) written at `offset`, its longer values right after it.
  private static func directory(_ fields: [Field], at offset: Int) -> [UInt8] {
    let sorted = fields.sorted { $0.tag < $1.tag }
    var table = Array(le32(UInt32(sorted.count)).prefix(2))
    var extra: [UInt8] = []
    let valuesStart = offset + 2 + sorted.count * 12 + 4
    for field in sorted {
      table += Array(le32(UInt32(field.tag)).prefix(2)) + Array(le32(UInt32(field.type)).prefix(2))
      table += le32(UInt32(field.count))
      if field.bytes.count <= 4 {
        table += field.bytes + [UInt8](repeating: 0, count: 4 - field.bytes.count)
      } else {
        table += le32(UInt32(valuesStart + extra.count))
        extra += field.bytes
        if extra.count % 2 == 1 { extra.append(0) }
      }
    }
    return table + le32(0) + extra
  }

  /// "YYYY:MM:DD HH:MM:SS" in local time, as LibRaw read it from the raw's own EXIF.
  private static func dateText(_ time: Int) -> String {
    var seconds = time_t(time)
    var parts = tm()
    localtime_r(&seconds, &parts)
    return String(
      format: "%04d:%02d:%02d %02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1,
      parts.tm_mday,
      parts.tm_hour, parts.tm_min, parts.tm_sec)
  }

  private static func le32(_ value: UInt32) -> [UInt8] {
    [
      UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF),
      UInt8(value >> 24),
    ]
  }
}
