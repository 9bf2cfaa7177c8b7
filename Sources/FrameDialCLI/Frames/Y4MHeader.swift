import RowKernels
import Vips

/// The stream header of a YUV4MPEG2 (`.y4m`) stream: `YUV4MPEG2 W1920 H1080 F25:1 Ip A1:1 C420jpeg
/// XCOLORRANGE=LIMITED`, one line of space-separated parameters, each a letter and a value.
///
/// FrameDial reads 4:2:0 streams at 8 bits (`C420jpeg`, `C420mpeg2`, `C420paldv`, `C420`, or no `C`)
/// and 10 bits (`C420p10`), progressive (`Ip`) or of unknown field order (`I?`); interlaced streams are
/// refused (converting their chroma as whole pictures would blend the fields). Range comes from the
/// `XCOLORRANGE=LIMITED|FULL` extension (TV range without it); the header carries no matrix, so it is
/// BT.601 below 720 lines and BT.709 at or above unless `--colour-matrix` says otherwise. The header
/// is written back unchanged, so size, rate, aspect and every extension pass through.
struct Y4MHeader: Equatable {
  /// The magic word that opens the stream.
  static let magic = "YUV4MPEG2"
  /// The longest header line accepted, in bytes.
  static let maximumLength = 1024

  /// Frame width in pixels.
  var width: Int
  /// Frame height in pixels.
  var height: Int
  /// Bits per sample: 8 or 10.
  var depth: Int
  /// The frame rate as `numerator:denominator`, when the header gives one.
  var rate: (numerator: Int, denominator: Int)?
  /// The range named by `XCOLORRANGE`, when present.
  var range: YUVRange?
  /// The header line as read, without its newline.
  var line: String

  static func == (left: Y4MHeader, right: Y4MHeader) -> Bool {
    left.line == right.line
  }

  /// Frames per second, when the header gives a rate above 0.
  var fps: Double? {
    guard let rate, rate.numerator > 0, rate.denominator > 0 else { return nil }
    return Double(rate.numerator) / Double(rate.denominator)
  }

  /// Parses a header line (without its newline).
  ///
  /// - Throws: ``FramesError/badY4M(_:)`` naming the parameter that is missing, malformed or not supported.
  init(parsing line: String) throws(FramesError) {
    self.line = line
    let fields = line.split(separator: " ", omittingEmptySubsequences: true)
    guard fields.first == Substring(Self.magic) else {
      throw .badY4M(
        "standard input does not start with a YUV4MPEG2 header "
          + "(it begins '\(String(line.prefix(20)))')")
    }
    var width: Int?
    var height: Int?
    var depth = 8
    for field in fields.dropFirst() {
      let (tag, value) = (field.first ?? " ", String(field.dropFirst()))
      switch tag {
      case "W": width = try Self.side(value, "W")
      case "H": height = try Self.side(value, "H")
      case "F": rate = try Self.ratio(value, "F (frame rate)")
      case "A": _ = try Self.ratio(value, "A (pixel aspect)")
      case "I":
        guard value == "p" || value == "?" else {
          throw .badY4M(
            "the stream is interlaced (I\(value)); only progressive frames (Ip) are "
              + "processed: deinterlace first, e.g. ffmpeg -vf bwdif")
        }
      case "C": depth = try Self.depth(colourSpace: value)
      case "X":
        if value.hasPrefix("COLORRANGE=") {
          switch value.dropFirst("COLORRANGE=".count) {
          case "LIMITED": range = .tv
          case "FULL": range = .pc
          default:
            throw .badY4M(
              "XCOLORRANGE must be LIMITED or FULL, not '\(value.dropFirst(11))'")
          }
        }
      default:
        throw .badY4M(
          "unknown header parameter '\(field)'")
      }
    }
    guard let width, let height else {
      throw .badY4M(
        "the header gives no frame \(width == nil ? "width (W)" : "height (H)"): '\(line)'")
    }
    guard width * height <= LoadOptions.defaultPixelLimit else {
      throw .badY4M(
        "frames of \(width)×\(height) are \(width * height) pixels; "
          + "at most \(LoadOptions.defaultPixelLimit) are taken")
    }
    (self.width, self.height, self.depth) = (width, height, depth)
  }

  private static func side(_ value: String, _ tag: String) throws(FramesError) -> Int {
    guard let side = Int(value), (1...FramesOptions.maximumSide).contains(side) else {
      throw .badY4M(
        "\(tag) must be a whole number 1 … \(FramesOptions.maximumSide), not '\(value)'")
    }
    return side
  }

  private static func ratio(_ value: String, _ name: String) throws(FramesError) -> (Int, Int) {
    let parts = value.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]),
      numerator >= 0, denominator >= 0
    else {
      throw .badY4M(
        "\(name) must be two whole numbers N:D, not '\(value)'")
    }
    return (numerator, denominator)
  }

  private static func depth(colourSpace value: String) throws(FramesError) -> Int {
    switch value {
    case "420", "420jpeg", "420mpeg2", "420paldv": return 8
    case "420p10": return 10
    default:
      throw .badY4M(
        "colour space C\(value) is not supported; FrameDial reads 4:2:0 at 8 bits "
          + "(C420jpeg, C420mpeg2, C420paldv) or 10 bits (C420p10)")
    }
  }
}
