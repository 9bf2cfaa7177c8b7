import Foundation

/// A DNG that LibRaw develops, written by the tests: a Bayer mosaic (any 2×2 pattern) or a linear
/// picture, 16-bit samples holding 12- or 14-bit codes above a black level, a colour matrix, an as-shot
/// neutral and an orientation. The scene is given as the linear camera values a neutral-balanced
/// development should give back (0 … 1, 1 at the white level); each photosite's code is the scene's
/// value in its colour times the as-shot neutral, between the black and white levels.
struct DNGScene {
  var width = 64
  var height = 48
  /// The CFA pattern from the top-left photosite: 0 red, 1 green, 2 blue; nil writes a linear DNG.
  var pattern: [UInt8]? = [0, 1, 1, 2]
  var whiteLevel = 4095
  var blackLevel = 256
  /// The camera's response to a neutral grey (green 1): a camera with a weak red and blue channel.
  var asShotNeutral = SIMD3<Double>(0.5, 1, 0.7)
  /// XYZ → camera (DNG's ColorMatrix1, for D65): by default the camera's channels are sRGB's own.
  var colourMatrix: [Double] = [
    3.2409699, -1.5373832, -0.4986108, -0.9692436, 1.8759675, 0.0415551, 0.0556301, -0.2039770,
    1.0569715,
  ]
  var make = "Pentax"
  var model = "K-3"
  var orientation = 1
  /// The TIFF compression tag's value (1, none: the samples are written uncompressed whatever it says).
  var compression = 1
  /// Shooting facts written as EXIF tags: exposure time, f-number, ISO, focal length and date.
  var exposure: (time: Double, fNumber: Double, iso: Int, focalLength: Double, date: String)?
  /// Writes a GPS directory: 52° 31′ 12.5″ N, 13° 24′ 36″ E, `altitude` metres above sea level.
  var location = false
  /// The GPS directory's altitude; nil writes none (no GPSAltitude, no GPSAltitudeRef).
  var altitude: Double? = 34.5
  /// The main directory's Artist and Copyright tags.
  var artist: String?
  var copyright: String?
  /// The samples in strips of this many rows (nil: one strip), or in tiles of `tileSize` (whole
  /// tiles, padded with zeros past the picture's right and bottom edges), each uncompressed.
  var rowsPerStrip: Int?
  var tileSize: (width: Int, length: Int)?
  /// Changes the strip or tile tables before they are written: the pieces' offsets from the start of
  /// the samples, and their byte counts.
  var editPieces: ((_ offsets: inout [UInt32], _ counts: inout [UInt32]) -> Void)?
  /// An XMP packet written in the DNG's directory (tag 700), as raw editors leave their ratings there.
  var xmp: String?
  /// The scene's linear value at a pixel.
  var scene: (_ x: Int, _ y: Int) -> SIMD3<Double> = { _, _ in SIMD3(repeating: 0.18) }

  /// A flat grey at `level` of the white level.
  static func grey(_ level: Double) -> DNGScene {
    var scene = DNGScene()
    scene.scene = { _, _ in SIMD3(repeating: level) }
    return scene
  }

  /// A grey patch in the middle third at `level`, surrounded by coloured ramps.
  static func patches(level: Double = 0.18) -> DNGScene {
    var scene = DNGScene()
    let (width, height) = (scene.width, scene.height)
    scene.scene = { x, y in
      if x >= width / 3, x < 2 * width / 3, y >= height / 3, y < 2 * height / 3 {
        return SIMD3(repeating: level)
      }
      let u = Double(x) / Double(width)
      let v = Double(y) / Double(height)
      return SIMD3(0.05 + 0.6 * u, 0.1 + 0.3 * v, 0.5 - 0.4 * u * v)
    }
    return scene
  }

  /// The raw code of `channel` at a pixel.
  func code(_ x: Int, _ y: Int, channel: Int) -> UInt32 {
    let value = min(1, max(0, scene(x, y)[channel] * asShotNeutral[channel]))
    return UInt32(
      (Double(blackLevel) + value * Double(whiteLevel - blackLevel)).rounded())
  }

  /// The bytes of the samples of the pixel at `x`, `y`; zeros past the picture.
  func sampleBytes(_ x: Int, _ y: Int) -> [UInt8] {
    let channels = pattern.map { [Int($0[(y % 2) * 2 + x % 2])] } ?? [0, 1, 2]
    guard x < width, y < height else { return [UInt8](repeating: 0, count: channels.count * 2) }
    return channels.flatMap { RawLikeFiles.le16(code(x, y, channel: $0)) }
  }

  /// The samples, piece by piece: one strip, strips of ``rowsPerStrip`` rows, or tiles of
  /// ``tileSize`` row by row.
  func pieces() -> [[UInt8]] {
    if let tile = tileSize {
      var pieces: [[UInt8]] = []
      for top in stride(from: 0, to: height, by: tile.length) {
        for left in stride(from: 0, to: width, by: tile.width) {
          pieces.append(
            (top..<(top + tile.length)).flatMap { y in
              (left..<(left + tile.width)).flatMap { x in sampleBytes(x, y) }
            })
        }
      }
      return pieces
    }
    let rows = rowsPerStrip ?? height
    return stride(from: 0, to: height, by: rows).map { top in
      (top..<min(height, top + rows)).flatMap { y in (0..<width).flatMap { x in sampleBytes(x, y) }
      }
    }
  }

  /// The DNG file.
  func data() -> Data {
    let samples = pattern == nil ? 3 : 1
    let pieces = pieces()
    let codes = pieces.flatMap { $0 }
    var offsets: [UInt32] = []
    var counts: [UInt32] = []
    var next = 0
    for piece in pieces {
      offsets.append(UInt32(next))
      counts.append(UInt32(piece.count))
      next += piece.count
    }
    editPieces?(&offsets, &counts)
    typealias Entry = RawLikeFiles.Entry
    var entries: [Entry] = [
      .long(254, 0), .long(256, UInt32(width)), .long(257, UInt32(height)),
      Entry(tag: 258, type: 3, values: [UInt32](repeating: 16, count: samples)),
      .short(259, UInt32(compression)),
      .short(262, pattern == nil ? 34892 : 32803), .ascii(271, make), .ascii(272, model),
      .short(274, UInt32(orientation)), .short(277, UInt32(samples)), .short(284, 1),
      .bytes(50706, 1, 4, 0, 0), .bytes(50707, 1, 1, 0, 0), .ascii(50708, "\(make) \(model)"),
      .long(50714, UInt32(blackLevel)), .long(50717, UInt32(whiteLevel)),
      .rationals(50721, colourMatrix, signed: true),
      .rationals(50728, [asShotNeutral.x, asShotNeutral.y, asShotNeutral.z]),
      .short(50778, 21),
    ]
    if let tile = tileSize {
      entries += [
        .long(322, UInt32(tile.width)), .long(323, UInt32(tile.length)),
        Entry(tag: 324, type: 4, values: offsets), Entry(tag: 325, type: 4, values: counts),
      ]
    } else {
      entries += [
        Entry(tag: 273, type: 4, values: offsets), .long(278, UInt32(rowsPerStrip ?? height)),
        Entry(tag: 279, type: 4, values: counts),
      ]
    }
    if let artist { entries.append(.ascii(315, artist)) }
    if let copyright { entries.append(.ascii(33432, copyright)) }
    if let xmp { entries.append(Entry(tag: 700, type: 1, values: xmp.utf8.map(UInt32.init))) }
    if let pattern {
      entries.append(.short(33421, 2, 2))
      entries.append(Entry(tag: 33422, type: 1, values: pattern.map(UInt32.init)))
    }
    if location {
      entries.append(.long(34853, 1))
      var gps: [Entry] = [
        .bytes(0, 2, 2, 0, 0), .ascii(1, "N"), .rationals(2, [52, 31, 12.5]), .ascii(3, "E"),
        .rationals(4, [13, 24, 36]),
      ]
      if let altitude { gps += [.bytes(5, 0), .rationals(6, [altitude])] }
      return RawLikeFiles.tiff(directories: [entries, gps], pixels: [codes, []])
    }
    guard let exposure else { return RawLikeFiles.tiff(directories: [entries], pixels: [codes]) }
    // As cameras write them: the date in the main directory too, the rest in an EXIF directory.
    entries += [.ascii(306, exposure.date), .long(34665, 1)]
    let exif: [Entry] = [
      .rationals(33434, [exposure.time]), .rationals(33437, [exposure.fNumber]),
      .short(34855, UInt32(exposure.iso)), .ascii(36867, exposure.date),
      .rationals(37386, [exposure.focalLength]),
    ]
    return RawLikeFiles.tiff(directories: [entries, exif], pixels: [codes, []])
  }
}
