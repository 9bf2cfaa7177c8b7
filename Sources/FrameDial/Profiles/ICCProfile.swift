import Foundation

/// The parts of an ICC profile that tell whether it describes sRGB: a matrix/TRC RGB profile's colorant
/// tags (`rXYZ`, `gXYZ`, `bXYZ`), media white point (`wtpt`) and tone curves (`rTRC`, `gTRC`, `bTRC`).
///
/// FrameDial leaves sRGB pixels untouched rather than passing them through a colour transform, so the
/// decision is made from these numbers, never from the profile's name. A profile it cannot read this
/// way (a LUT-based one, a grey or CMYK one, damaged bytes) is not sRGB, and is converted through lcms.
struct ICCProfile {
  /// How a tone curve maps encoded values (0 … 1) to linear light.
  enum ToneCurve: Equatable {
    /// `curv` with one entry: value ^ gamma (no entry means gamma 1).
    case gamma(Double)
    /// `curv` with a table, sampled evenly over 0 … 1 (values 0 … 65535).
    case table([UInt16])
    /// `para`: ICC parametric function type 0 … 4 and its parameters (g, a, b, c, d, e, f).
    case parametric(type: Int, parameters: [Double])

    /// Linear light for the encoded value `x` (0 … 1).
    func value(at x: Double) -> Double {
      switch self {
      case .gamma(let gamma):
        return pow(x, gamma)
      case .table(let entries):
        guard entries.count > 1 else { return x }
        let position = x * Double(entries.count - 1)
        let below = min(entries.count - 2, Int(position))
        let fraction = position - Double(below)
        let low = Double(entries[below])
        let high = Double(entries[below + 1])
        return (low + (high - low) * fraction) / 65535
      case .parametric(let type, let p):
        let g = p[0]
        switch type {
        case 0: return pow(x, g)
        case 1: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) : 0
        case 2: return x >= -p[2] / p[1] ? pow(p[1] * x + p[2], g) + p[3] : p[3]
        case 3: return x >= p[4] ? pow(p[1] * x + p[2], g) : p[3] * x
        default: return x >= p[4] ? pow(p[1] * x + p[2], g) + p[5] : p[3] * x + p[6]
        }
      }
    }
  }

  /// The red, green and blue colorants (PCS XYZ, D50-relative) and the media white point.
  var red: SIMD3<Double>
  var green: SIMD3<Double>
  var blue: SIMD3<Double>
  var white: SIMD3<Double>
  /// The red, green and blue tone curves.
  var curves: [ToneCurve]

  /// Reads an RGB matrix/TRC profile with an XYZ connection space; nil for anything else or damaged bytes.
  init?(_ data: Data) {
    guard Self.colourSpace(of: data) == "RGB ", Self.signature([UInt8](data), at: 20) == "XYZ ",
      let tags = Self.tags(of: data)
    else { return nil }
    guard let red = tags["rXYZ"].flatMap(Self.xyz), let green = tags["gXYZ"].flatMap(Self.xyz),
      let blue = tags["bXYZ"].flatMap(Self.xyz), let white = tags["wtpt"].flatMap(Self.xyz),
      let r = tags["rTRC"].flatMap(Self.curve), let g = tags["gTRC"].flatMap(Self.curve),
      let b = tags["bTRC"].flatMap(Self.curve)
    else { return nil }
    self.red = red
    self.green = green
    self.blue = blue
    self.white = white
    self.curves = [r, g, b]
  }

  /// sRGB's colorants adapted to D50 (IEC 61966-2-1 with the Bradford transform), as profiles hold them.
  static let srgbColorants: [SIMD3<Double>] = [
    [0.4361, 0.2225, 0.0139], [0.3851, 0.7169, 0.0971], [0.1431, 0.0606, 0.7141],
  ]
  /// The white points an sRGB profile records: D65 (version 2 profiles) or the PCS's D50 (version 4).
  static let srgbWhites: [SIMD3<Double>] = [[0.9505, 1.0, 1.0891], [0.9642, 1.0, 0.8249]]
  /// How far a colorant or white point may stray (XYZ units; profiles round to 1/65536, tools differ
  /// in the fourth decimal).
  static let xyzTolerance = 0.002
  /// How far a tone curve may stray from sRGB's, in 8-bit code values of the sRGB encoding.
  static let curveTolerance = 1.0

  /// Display P3's colorants adapted to D50 (DCI-P3 primaries, D65 white, Bradford), as Apple's
  /// "Display P3" profile and libvips's built-in one hold them.
  static let displayP3Colorants: [SIMD3<Double>] = [
    [0.5151, 0.2412, -0.0011], [0.2920, 0.6922, 0.0419], [0.1571, 0.0666, 0.7841],
  ]

  /// True when the colorants, white point and all three tone curves are sRGB's within the tolerances:
  /// leaving the pixels as they are then moves no 8-bit value by more than a code value.
  var isSRGB: Bool { hasSRGBTransfer(colorants: Self.srgbColorants) }

  /// True when the colorants are Display P3's and the white point and tone curves sRGB's, within the
  /// same tolerances as ``isSRGB``.
  var isDisplayP3: Bool { hasSRGBTransfer(colorants: Self.displayP3Colorants) }

  /// True when the profile's colorants are `expected`, its white point an sRGB profile's and its three
  /// tone curves the sRGB transfer.
  private func hasSRGBTransfer(colorants expected: [SIMD3<Double>]) -> Bool {
    for (found, colorant) in zip([red, green, blue], expected) where !Self.near(found, colorant) {
      return false
    }
    guard Self.srgbWhites.contains(where: { Self.near(white, $0) }) else { return false }
    return curves.allSatisfy { curve in
      (0...255).allSatisfy { code in
        let linear = curve.value(at: Double(code) / 255)
        return linear.isFinite
          && abs(Self.srgbEncoded(linear) * 255 - Double(code)) <= Self.curveTolerance
      }
    }
  }

  /// The tags of the ICC profile `data` by signature; nil when its tag table cannot be read.
  static func tags(of data: Data) -> [String: ArraySlice<UInt8>]? {
    let bytes = [UInt8](data)
    guard bytes.count >= 132, signature(bytes, at: 36) == "acsp",
      let count = uint32(bytes, at: 128), count <= 1000
    else { return nil }
    var tags: [String: ArraySlice<UInt8>] = [:]
    for index in 0..<Int(count) {
      let entry = 132 + 12 * index
      guard let offset = uint32(bytes, at: entry + 4), let size = uint32(bytes, at: entry + 8),
        Int(offset) + Int(size) <= bytes.count
      else { return nil }
      tags[signature(bytes, at: entry)] = bytes[Int(offset)..<(Int(offset) + Int(size))]
    }
    return tags
  }

  /// True when pixels can be converted into the profile `data` with the relative colorimetric intent
  /// FrameDial converts outputs with, as lcms (in libvips) decides it: the profile has colorants and
  /// tone curves (`rXYZ`, `gXYZ`, `bXYZ`, `rTRC`, `gTRC`, `bTRC`), or a table from the connection
  /// space to the device for that intent (`B2A1`). An input profile made of tables (a jpegli XYB
  /// JPEG's, whose `B2A0` is a placeholder) cannot be an output.
  static func canConvertInto(_ data: Data) -> Bool {
    guard let tags = Self.tags(of: data) else { return false }
    let matrixShaper = ["rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"].allSatisfy {
      tags[$0] != nil
    }
    return matrixShaper || tags["B2A1"] != nil
  }

  /// The colour space signature of the ICC profile `data` ("RGB ", "CMYK", "GRAY"…), read from its
  /// header; nil when `data` is no ICC profile.
  static func colourSpace(of data: Data) -> String? {
    let bytes = [UInt8](data.prefix(128))
    guard bytes.count >= 128, signature(bytes, at: 36) == "acsp" else { return nil }
    return signature(bytes, at: 16)
  }

  /// D50 as every ICC profile's header must record its connection-space illuminant (bytes 68 … 79):
  /// X 0.9642, Y 1, Z 0.8249 in s15Fixed16, the ICC specification's own encoding of them.
  static let d50Header: [UInt8] = [0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D]

  /// True when the header of the ICC profile `data` records a connection-space illuminant other than
  /// D50's encoding, to the bit: libpng refuses to write such a profile. Kodak's ProPhoto RGB profile
  /// records Z 0.8248749 (0xD32B) for 0.8249.
  static func hasIlluminantOtherThanD50(_ data: Data) -> Bool {
    guard colourSpace(of: data) != nil else { return false }
    return [UInt8](data[(data.startIndex + 68)..<(data.startIndex + 80)]) != d50Header
  }

  /// The sRGB encoding of linear light `value` (0 … 1).
  static func srgbEncoded(_ value: Double) -> Double {
    let v = min(max(value, 0), 1)
    return v <= 0.003_130_8 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
  }

  private static func near(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Bool {
    let d = a - b
    return Swift.max(Swift.abs(d.x), Swift.abs(d.y), Swift.abs(d.z)) <= xyzTolerance
  }

  private static func signature(_ bytes: [UInt8], at offset: Int) -> String {
    guard offset + 4 <= bytes.count else { return "" }
    return String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
  }

  private static func uint32<C: Collection>(_ bytes: C, at offset: Int) -> UInt32?
  where C.Element == UInt8, C.Index == Int {
    let start = bytes.startIndex + offset
    guard offset >= 0, start + 4 <= bytes.endIndex else { return nil }
    return bytes[start..<(start + 4)].reduce(0) { $0 << 8 | UInt32($1) }
  }

  private static func s15Fixed16(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Double? {
    uint32(bytes, at: offset).map { Double(Int32(bitPattern: $0)) / 65536 }
  }

  /// An `XYZ ` tag's first value.
  private static func xyz(_ tag: ArraySlice<UInt8>) -> SIMD3<Double>? {
    guard signature(Array(tag), at: 0) == "XYZ ", let x = s15Fixed16(tag, at: 8),
      let y = s15Fixed16(tag, at: 12), let z = s15Fixed16(tag, at: 16)
    else { return nil }
    return [x, y, z]
  }

  /// A `curv` or `para` tag.
  private static func curve(_ tag: ArraySlice<UInt8>) -> ToneCurve? {
    let type = signature(Array(tag), at: 0)
    if type == "curv", let count = uint32(tag, at: 8) {
      guard 12 + 2 * Int(count) <= tag.count else { return nil }
      let entries = (0..<Int(count)).map { index in
        let start = tag.startIndex + 12 + 2 * index
        return UInt16(tag[start]) << 8 | UInt16(tag[start + 1])
      }
      if entries.isEmpty { return .gamma(1) }
      if entries.count == 1 { return .gamma(Double(entries[0]) / 256) }
      return .table(entries)
    }
    if type == "para", tag.count >= 12 {
      let start = tag.startIndex + 8
      let function = Int(UInt16(tag[start]) << 8 | UInt16(tag[start + 1]))
      let counts = [1, 3, 4, 5, 7]
      guard function < counts.count else { return nil }
      var parameters: [Double] = []
      for index in 0..<counts[function] {
        guard let value = s15Fixed16(tag, at: 12 + 4 * index) else { return nil }
        parameters.append(value)
      }
      if function == 1 || function == 2 || function == 3 || function == 4,
        parameters[1] == 0
      {
        return nil
      }
      return .parametric(type: function, parameters: parameters)
    }
    return nil
  }
}
