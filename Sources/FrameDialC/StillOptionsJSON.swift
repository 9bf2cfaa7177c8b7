import Controls
import Foundation
import FrameDial
import Vips

/// Reads the still options of `framedial_apply` from a JSON object, with the command line's checks:
/// `quality` (1 … 100), `format` (`jpeg`, `png`, `webp`, `tiff`, `heic`, `avif`), `fit`
/// (`"DEVICE[:auto|portrait|landscape]"`), `fitMode` (`cover`, `contain`), `size` (N, `"N"` or
/// `"WxH"`), `enlarge` (with `size`), `pixelLimit` (at least 1), `background` (`[r, g, b]`, 0 … 255),
/// `profile` (`"keep"`, `"srgb"`, `"p3"` or the path of an RGB `.icc` file), `strip` and
/// `stripLocation` (booleans, not both true),
/// `effort` (`fast`, `balanced`, `small`: HEIC encoding), `failOn` (`none`, `truncated`, `error`,
/// `warning`: how much damage a decoder may report before the input is refused; default `warning`).
enum StillOptionsJSON {
  /// The keys understood, in the order the error message lists them.
  static let keys = [
    "quality", "format", "fit", "fitMode", "size", "enlarge", "pixelLimit", "background",
    "profile", "strip", "stripLocation", "effort", "failOn",
  ]

  /// The options of `json` (NULL or empty for the defaults) for writing `output`.
  static func options(_ json: UnsafePointer<CChar>?, output: String) throws -> StillOptions {
    try options(try members(json), output: output)
  }

  /// The members of the JSON object `json`; none for NULL or empty.
  static func members(_ json: UnsafePointer<CChar>?) throws -> [String: JSONValue] {
    guard json != nil else { return [:] }
    let text = try CString.read(json, "the options JSON")
    if text.allSatisfy(\.isWhitespace) { return [:] }
    let value: JSONValue
    do {
      value = try JSONValue.parse(Data(text.utf8))
    } catch {
      throw CallError(.invalidOptions, "options JSON: \(error.description)")
    }
    guard case .object(let members) = value else {
      throw invalid(
        "options JSON must be an object such as {\"quality\": 90}, not \(value.typeName)")
    }
    return members
  }

  /// The still options of `members` for writing `output`; `alsoKnown` are the caller's own keys.
  static func options(
    _ members: [String: JSONValue], output: String, alsoKnown: [String] = []
  ) throws -> StillOptions {
    if let key = members.keys.filter({ !keys.contains($0) && !alsoKnown.contains($0) }).min() {
      throw invalid(
        "unknown option \"\(EchoText.readable(key))\"; known options are "
          + (keys + alsoKnown).joined(separator: ", "))
    }
    var options = StillOptions()
    if let quality = members["quality"] {
      options.quality = try integer(quality, "quality", in: 1...100)
    }
    if let format = members["format"] { options.format = try Self.format(format, output: output) }
    options.size = try size(members)
    options.fit = try fit(members)
    if options.size != nil && options.fit != nil {
      throw invalid("\"size\" and \"fit\" both set the output size; give one")
    }
    if let limit = members["pixelLimit"] {
      options.load.pixelLimit = try integer(limit, "pixelLimit", in: 1...Int.max)
    }
    if let background = members["background"] {
      options.background = try colour(background)
    }
    if let profile = members["profile"] {
      do {
        options.profile = try OutputProfile(argument: try string(profile, "profile"))
      } catch let error as RenderError {
        throw invalid("\"profile\": \(error.message)")
      }
    }
    options.metadata = try metadata(members)
    if let effort = members["effort"] {
      let name = try string(effort, "effort")
      guard let chosen = EncodingEffort(rawValue: name.lowercased()) else {
        let names = EncodingEffort.allCases.map(\.rawValue).joined(separator: ", ")
        throw invalid("\"effort\" must be one of \(names), not \"\(EchoText.readable(name))\"")
      }
      options.effort = chosen
    }
    if let failOn = members["failOn"] {
      let name = try string(failOn, "failOn")
      guard let level = LoadOptions.FailOn(rawValue: name.lowercased()) else {
        let names = LoadOptions.FailOn.allCases.map(\.rawValue).joined(separator: ", ")
        throw invalid("\"failOn\" must be one of \(names), not \"\(EchoText.readable(name))\"")
      }
      options.load.failOn = level
    }
    return options
  }

  private static func metadata(_ members: [String: JSONValue]) throws -> MetadataChoice {
    var flags: [Bool] = []
    for key in ["strip", "stripLocation"] {
      switch members[key] {
      case nil: flags.append(false)
      case .bool(let value)?: flags.append(value)
      case let other?:
        throw invalid(
          "\"\(key)\" must be true or false, not \(EchoText.readable(other.description))")
      }
    }
    switch (flags[0], flags[1]) {
    case (true, true):
      throw invalid("\"strip\" already drops the location: set \"strip\" or \"stripLocation\"")
    case (true, false): return .strip
    case (false, true): return .stripLocation
    case (false, false): return .keep
    }
  }

  /// The boolean `key` of `members`; false when it is absent.
  static func flag(_ members: [String: JSONValue], _ key: String) throws -> Bool {
    switch members[key] {
    case nil: return false
    case .bool(let value)?: return value
    case let other?:
      throw invalid("\"\(key)\" must be true or false, not \(EchoText.readable(other.description))")
    }
  }

  private static func invalid(_ message: String) -> CallError {
    CallError(.invalidOptions, message)
  }

  private static func integer(_ value: JSONValue, _ key: String, in range: ClosedRange<Int>) throws
    -> Int
  {
    guard case .number(let number) = value, number.rounded() == number,
      number >= Double(range.lowerBound), number <= Double(range.upperBound)
    else {
      let upper = range.upperBound == Int.max ? "" : " … \(range.upperBound)"
      throw invalid(
        "\"\(key)\" must be a whole number \(range.lowerBound)\(upper), not \(EchoText.readable(value.description))"
      )
    }
    return Int(number)
  }

  private static func string(_ value: JSONValue, _ key: String) throws -> String {
    guard case .string(let text) = value else {
      throw invalid(
        "\"\(key)\" must be a string, not \(value.typeName) (\(EchoText.readable(value.description)))"
      )
    }
    return text
  }

  private static func format(_ value: JSONValue, output: String) throws -> ImageFormat {
    let name = try string(value, "format")
    guard
      let format = ImageFormat(rawValue: name.lowercased()) ?? ImageFormat(fileExtension: name)
    else {
      let names = ImageFormat.allCases.map { $0.rawValue }.joined(separator: ", ")
      throw invalid("\"format\" must be one of \(names), not \"\(EchoText.readable(name))\"")
    }
    if let named = ImageFormat(path: output), named != format {
      throw invalid(
        "\"format\" \(format.rawValue) disagrees with the output's extension (\(output) is "
          + "\(named.rawValue)); name it .\(format.fileExtension) or leave \"format\" out")
    }
    return format
  }

  private static func size(_ members: [String: JSONValue]) throws -> SizeFit? {
    let enlarge: Bool
    switch members["enlarge"] {
    case nil: enlarge = false
    case .bool(let value)?: enlarge = value
    case let other?:
      throw invalid(
        "\"enlarge\" must be true or false, not \(EchoText.readable(other.description))")
    }
    guard let value = members["size"] else {
      if enlarge { throw invalid("\"enlarge\" needs \"size\"") }
      return nil
    }
    let text: String
    switch value {
    case .number(let number) where number.rounded() == number && abs(number) < 1e9:
      text = String(Int(number))
    case .string(let string): text = string
    default:
      throw invalid("\"size\" must be N or \"WxH\", not \(EchoText.readable(value.description))")
    }
    do {
      return try SizeFit(parsing: text, enlarge: enlarge)
    } catch {
      throw invalid("\"size\": \(error.message)")
    }
  }

  private static func fit(_ members: [String: JSONValue]) throws -> ScreenFit? {
    let mode = try members["fitMode"].map { value in
      let text = try string(value, "fitMode")
      guard let mode = ScreenFit.Mode(rawValue: text.lowercased()) else {
        throw invalid("\"fitMode\" must be cover or contain, not \"\(EchoText.readable(text))\"")
      }
      return mode
    }
    guard let value = members["fit"] else {
      if mode != nil { throw invalid("\"fitMode\" needs \"fit\"") }
      return nil
    }
    let text = try string(value, "fit")
    do {
      let (device, orientation) = try ScreenCatalog.screen(text)
      return ScreenFit(device: device, orientation: orientation, mode: mode ?? .cover)
    } catch {
      throw invalid("\"fit\": \(error.description)")
    }
  }

  private static func colour(_ value: JSONValue) throws -> SIMD3<Double> {
    guard case .array(let items) = value, items.count == 3 else {
      throw invalid(
        "\"background\" must be [r, g, b] with numbers 0 … 255, not \(EchoText.readable(value.description))"
      )
    }
    var channels: [Double] = []
    for item in items {
      guard case .number(let number) = item, (0...255).contains(number) else {
        throw invalid(
          "\"background\" must be [r, g, b] with numbers 0 … 255, not \(EchoText.readable(value.description))"
        )
      }
      channels.append(number)
    }
    return SIMD3(channels[0], channels[1], channels[2])
  }
}
