import Controls
import Foundation
import FrameDial
import Vips

/// Reads the still options of `framedial_apply` from a JSON object, with the command line's checks; its
/// keys, their lists of names and their ranges are ``StillOptionKey``'s, as the command line's are:
/// `quality` (1 … 100), `format` (`jpeg`, `png`, `webp`, `tiff`, `heic`, `avif`), `fit`
/// (`"DEVICE[:auto|portrait|landscape]"`), `fitMode` (`cover`, `contain`), `size` (N, `"N"` or
/// `"WxH"`), `enlarge` (with `size`), `pixelLimit` (at least 1), `background` (`[r, g, b]`, 0 … 255),
/// `profile` (`"keep"`, `"srgb"`, `"p3"` or the path of an RGB `.icc` file), `strip` and
/// `stripLocation` (booleans, not both true),
/// `effort` (`fast`, `balanced`, `small`: HEIC encoding), `failOn` (`none`, `truncated`, `error`,
/// `warning`: how much damage a decoder may report before the input is refused; default `warning`).
enum StillOptionsJSON {
  /// The keys understood, in the order the error message lists them.
  static let keys = StillOptionKey.rendering.map(\.jsonKey)

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
    if let quality = members[.quality] {
      options.quality = try integer(quality, .quality, in: StillOptionKey.qualities)
    }
    if let format = members[.format] { options.format = try Self.format(format, output: output) }
    options.size = try size(members)
    options.fit = try fit(members)
    if options.size != nil && options.fit != nil {
      throw invalid(
        "\(quoted(.size)) and \(quoted(.fit)) both set the output size; give one")
    }
    if let limit = members[.pixelLimit] {
      options.load.pixelLimit = try integer(limit, .pixelLimit, in: StillOptionKey.pixelLimits)
    }
    if let background = members[.background] {
      options.background = try colour(background)
    }
    if let profile = members[.profile] {
      do {
        options.profile = try OutputProfile(argument: try string(profile, .profile))
      } catch let error as RenderError {
        throw invalid("\(quoted(.profile)): \(error.message)")
      }
    }
    options.metadata = try metadata(members)
    if let effort = members[.effort] {
      options.effort = try choice(effort, .effort) { EncodingEffort(rawValue: $0.lowercased()) }
    }
    if let hdrPhoto = members[.hdrPhoto] {
      options.hdrPhoto = try choice(hdrPhoto, .hdrPhoto) {
        HDRPhotoChoice(rawValue: $0.lowercased())
      }
    }
    if let failOn = members[.failOn] {
      options.load.failOn = try choice(failOn, .failOn) {
        LoadOptions.FailOn(rawValue: $0.lowercased())
      }
    }
    return options
  }

  /// The value of a key with a list of names (``StillOptionKey/choices``), read by `lookup`.
  private static func choice<Value>(
    _ value: JSONValue, _ key: StillOptionKey, lookup: (String) -> Value?
  ) throws -> Value {
    let name = try string(value, key)
    guard let chosen = lookup(name) else {
      throw invalid(
        "\(quoted(key)) must be one of \(key.choices.joined(separator: ", ")), not "
          + "\"\(EchoText.readable(name))\"")
    }
    return chosen
  }

  /// The key as messages quote it: `"pixelLimit"`.
  private static func quoted(_ key: StillOptionKey) -> String { "\"\(key.jsonKey)\"" }

  private static func metadata(_ members: [String: JSONValue]) throws -> MetadataChoice {
    switch (try flag(members, .strip), try flag(members, .stripLocation)) {
    case (true, true):
      throw invalid(
        "\(quoted(.strip)) already drops the location: set \(quoted(.strip)) or "
          + "\(quoted(.stripLocation))")
    case (true, false): return .strip
    case (false, true): return .stripLocation
    case (false, false): return .keep
    }
  }

  /// The boolean `key` of `members`; false when it is absent.
  static func flag(_ members: [String: JSONValue], _ key: StillOptionKey) throws -> Bool {
    switch members[key] {
    case nil: return false
    case .bool(let value)?: return value
    case let other?:
      throw invalid(
        "\(quoted(key)) must be true or false, not \(EchoText.readable(other.description))")
    }
  }

  private static func invalid(_ message: String) -> CallError {
    CallError(.invalidOptions, message)
  }

  private static func integer(
    _ value: JSONValue, _ key: StillOptionKey, in range: ClosedRange<Int>
  ) throws -> Int {
    guard case .number(let number) = value, number.rounded() == number,
      number >= Double(range.lowerBound), number <= Double(range.upperBound)
    else {
      let upper = range.upperBound == Int.max ? "" : " … \(range.upperBound)"
      throw invalid(
        "\(quoted(key)) must be a whole number \(range.lowerBound)\(upper), not \(EchoText.readable(value.description))"
      )
    }
    return Int(number)
  }

  private static func string(_ value: JSONValue, _ key: StillOptionKey) throws -> String {
    guard case .string(let text) = value else {
      throw invalid(
        "\(quoted(key)) must be a string, not \(value.typeName) (\(EchoText.readable(value.description)))"
      )
    }
    return text
  }

  private static func format(_ value: JSONValue, output: String) throws -> ImageFormat {
    let format = try choice(value, .format, lookup: StillOptionKey.format(named:))
    if let named = ImageFormat(path: output), named != format {
      throw invalid(
        "\(quoted(.format)) \(format.rawValue) disagrees with the output's extension (\(output) is "
          + "\(named.rawValue)); name it .\(format.fileExtension) or leave \(quoted(.format)) out")
    }
    return format
  }

  private static func size(_ members: [String: JSONValue]) throws -> SizeFit? {
    let enlarge = try flag(members, .enlarge)
    guard let value = members[.size] else {
      if enlarge { throw invalid("\(quoted(.enlarge)) needs \(quoted(.size))") }
      return nil
    }
    let text: String
    switch value {
    case .number(let number) where number.rounded() == number && abs(number) < 1e9:
      text = String(Int(number))
    case .string(let string): text = string
    default:
      throw invalid(
        "\(quoted(.size)) must be N or \"WxH\", not \(EchoText.readable(value.description))")
    }
    do {
      return try SizeFit(parsing: text, enlarge: enlarge)
    } catch {
      throw invalid("\(quoted(.size)): \(error.message)")
    }
  }

  private static func fit(_ members: [String: JSONValue]) throws -> ScreenFit? {
    let mode = try members[.fitMode].map { value in
      let text = try string(value, .fitMode)
      guard let mode = ScreenFit.Mode(rawValue: text.lowercased()) else {
        throw invalid(
          "\(quoted(.fitMode)) must be \(StillOptionKey.fitMode.choices.joined(separator: " or ")), "
            + "not \"\(EchoText.readable(text))\"")
      }
      return mode
    }
    guard let value = members[.fit] else {
      if mode != nil { throw invalid("\(quoted(.fitMode)) needs \(quoted(.fit))") }
      return nil
    }
    let text = try string(value, .fit)
    do {
      let (device, orientation) = try ScreenCatalog.screen(text)
      return ScreenFit(device: device, orientation: orientation, mode: mode ?? .cover)
    } catch {
      throw invalid("\(quoted(.fit)): \(error.description)")
    }
  }

  private static func colour(_ value: JSONValue) throws -> SIMD3<Double> {
    guard case .array(let items) = value, items.count == 3 else {
      throw invalid(
        "\(quoted(.background)) must be [r, g, b] with numbers 0 … 255, not \(EchoText.readable(value.description))"
      )
    }
    var channels: [Double] = []
    for item in items {
      guard case .number(let number) = item, (0...255).contains(number) else {
        throw invalid(
          "\(quoted(.background)) must be [r, g, b] with numbers 0 … 255, not \(EchoText.readable(value.description))"
        )
      }
      channels.append(number)
    }
    return SIMD3(channels[0], channels[1], channels[2])
  }
}

extension Dictionary where Key == String, Value == JSONValue {
  /// The member named by `key`'s JSON spelling.
  fileprivate subscript(key: StillOptionKey) -> JSONValue? { self[key.jsonKey] }
}
