/// What a raw file is, as LibRaw reads it without developing it.
public struct RawFacts: Sendable, Equatable {
  /// How the sensor's colours are laid out.
  public enum Layout: Sendable, Equatable {
    /// A Bayer colour filter array with its 2×2 pattern from the top-left photosite ("RGGB", "BGGR", …).
    case bayer(String)
    /// Some other colour filter array (Fujifilm's X-Trans, a four-colour sensor), named by LibRaw's letters.
    case otherMosaic(String)
    /// A linear picture with every colour at every pixel (a linear DNG): nothing to demosaic.
    case linear
  }

  /// Where the picture was taken, as the file's GPS tags say.
  public struct Location: Sendable, Equatable {
    /// Latitude in degrees, minutes and seconds.
    public var latitude: SIMD3<Double>
    /// "N" or "S".
    public var latitudeRef: String
    /// Longitude in degrees, minutes and seconds.
    public var longitude: SIMD3<Double>
    /// "E" or "W".
    public var longitudeRef: String
    /// Metres above (or, with `belowSeaLevel`, below) sea level; nil when the file does not say.
    public var altitude: Double?
    /// True when ``altitude`` is below sea level.
    public var belowSeaLevel: Bool
  }

  /// The camera's maker as the file names it ("Canon"); empty when the file does not say.
  public var make: String
  /// The camera's model ("EOS 5D Mark IV"); empty when the file does not say.
  public var model: String
  /// True for a DNG.
  public var isDNG: Bool
  /// The sensor's layout.
  public var layout: Layout
  /// The developed picture's width, upright (the raw's orientation applied).
  public var width: Int
  /// The developed picture's height, upright.
  public var height: Int
  /// The raw data's width, margins included.
  public var rawWidth: Int
  /// The raw data's height, margins included.
  public var rawHeight: Int
  /// The black level, in raw codes.
  public var blackLevel: Int
  /// The white level (the largest code a photosite gives), in raw codes.
  public var whiteLevel: Int
  /// The as-shot white balance: the multipliers of red, green and blue that make the scene's neutral
  /// grey, scaled so that green is 1; nil when the file gives none.
  public var asShotMultipliers: SIMD3<Double>?
  /// The EXIF orientation (1 … 8) that turns the raw data upright.
  public var orientation: Int
  /// Shooting facts; nil when the file does not give them.
  public var iso: Double?
  /// The exposure time in seconds.
  public var exposureTime: Double?
  /// The aperture's f-number.
  public var fNumber: Double?
  /// The focal length in millimetres.
  public var focalLength: Double?
  /// When the picture was taken, in seconds since 1970 as the camera's clock said it.
  public var captureTime: Int?
  /// The lens's name.
  public var lens: String?
  /// Where the picture was taken.
  public var location: Location?
  /// Who took the picture (the main directory's Artist), as the file spells it.
  public var artist: String?
  /// The copyright notice (the main directory's Copyright), as the file spells it: the photographer's
  /// and, after a NUL, the editor's.
  public var copyright: String?

  /// The camera, "make model" without the maker repeated ("Canon EOS 5D Mark IV"), or "an unnamed
  /// camera".
  public var camera: String {
    let words = [make, model].filter { !$0.isEmpty }
    if words.count == 2, model.lowercased().hasPrefix(make.lowercased()) { return model }
    return words.isEmpty ? "an unnamed camera" : words.joined(separator: " ")
  }

  /// The bits a raw code needs at the white level (12 for 4095, 14 for 16383).
  public var bits: Int {
    var bits = 0
    while bits < 32, (1 << bits) <= whiteLevel { bits += 1 }
    return bits
  }

  /// One line for `framedial info`, such as "a DNG from Pentax K-3, a RGGB Bayer mosaic of
  /// 6080×4032, 14-bit (black 512, white 16383), as-shot white balance R 2.10 G 1 B 1.45".
  public var summary: String {
    var text = (isDNG ? "a DNG" : "a camera raw file") + " from \(camera), "
    switch layout {
    case .bayer(let pattern): text += "a \(pattern) Bayer mosaic"
    case .otherMosaic(let letters): text += "a \(letters) colour filter array mosaic"
    case .linear: text += "a linear (demosaiced) picture"
    }
    text += " of \(rawWidth)×\(rawHeight), \(bits)-bit (black \(blackLevel), white \(whiteLevel))"
    if let wb = asShotMultipliers {
      text += ", as-shot white balance R \(Self.decimal(wb.x)) G 1 B \(Self.decimal(wb.z))"
    } else {
      text += ", no as-shot white balance"
    }
    return text
  }

  private static func decimal(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
  }
}
