import Controls
import Foundation
import FrameDial
import JSON

/// A batch as the C API describes it in JSON: the request `framedial_batch_plan` reads (inputs, output
/// folder, control state, still options, walking, naming, resuming), and the batch's settings that it
/// hands to `framedial_batch_render` with every file (state, options, output folder, overwrite,
/// keep time).
struct BatchRequestJSON {
  /// The keys of a plan request, in the order the error message lists them.
  static let keys = [
    "inputs", "output", "preset", "state", "options", "name", "recursive", "followSymlinks",
    "includeHidden", "allowOutputInside", "pairs", "shard", "overwrite", "dryRun", "keepTime",
  ]

  /// Where the files come from and go.
  var layout: BatchLayout
  /// What every file is rendered with: the settings a worker needs.
  var settings: Settings

  /// The batch's settings for writing its files, as `framedial_batch_render` receives them.
  struct Settings {
    var state: ControlState
    /// The still options JSON object as given (re-read by every worker).
    var optionsObject: JSONText.Value
    var options: StillOptions
    var outputFolder: String
    var overwrite: Bool
    var dryRun: Bool
    var keepTime: Bool

    /// The settings as the JSON object `framedial_batch_render` reads.
    var jsonValue: JSONText.Value {
      .object([
        ("state", state.jsonValue), ("options", optionsObject), ("output", .string(outputFolder)),
        ("overwrite", .bool(overwrite)), ("keepTime", .bool(keepTime)),
      ])
    }

    /// The settings of the JSON text `json` (a caller's NUL-terminated string).
    init(json: UnsafePointer<CChar>?) throws {
      let document = try BatchRequestJSON.document(json, "the batch JSON")
      let state = try BatchRequestJSON.state(over: .identity, document["state"])
      try self.init(document, state: state)
    }

    init(_ document: JSONText.Value, state: ControlState) throws {
      self.state = state
      guard let output = document["output"].map(JSONValue.init)?.string, !output.isEmpty else {
        throw CallError(.invalidOptions, "\"output\" must be the output folder's path")
      }
      outputFolder = output
      let object = document["options"] ?? .object([])
      guard let optionMembers = JSONValue(object).members else {
        throw CallError(.invalidOptions, "\"options\" must be an object of still options")
      }
      optionsObject = object
      options = try StillOptionsJSON.options(optionMembers, output: "")
      // Read strip by strip, as `framedial batch` does.
      options.load.sequential = true
      let members = JSONValue(document)
      overwrite = try BatchRequestJSON.flag(members, "overwrite")
      dryRun = try BatchRequestJSON.flag(members, "dryRun")
      keepTime = try BatchRequestJSON.flag(members, "keepTime")
    }
  }

  /// The request of the JSON text `json`, checked as `framedial batch` checks its options.
  init(json: UnsafePointer<CChar>?) throws {
    let document = try Self.document(json, "the batch request JSON")
    let members = JSONValue(document)
    if let key = members.members?.keys.filter({ !Self.keys.contains($0) }).min() {
      throw CallError(
        .invalidOptions,
        "unknown batch key \"\(EchoText.readable(key))\"; known keys are "
          + Self.keys.joined(separator: ", "))
    }
    guard let inputs = members["inputs"]?.strings, !inputs.isEmpty,
      !inputs.contains(where: \.isEmpty)
    else {
      throw CallError(.invalidOptions, "\"inputs\" must be a non-empty list of paths")
    }
    var base = ControlState.identity
    if let preset = members["preset"] {
      guard let name = preset.string else {
        throw CallError(.invalidState, "\"preset\" must be a preset's name")
      }
      do {
        base = try Preset.named(name).state
      } catch {
        throw CallError(.invalidState, error.description)
      }
    }
    let state = try Self.state(over: base, document["state"])
    settings = try Settings(document, state: state)
    do {
      let name = members["name"] ?? .string("{stem}.{ext}")
      guard let template = name.string else {
        throw RenderError("\"name\" must be a template such as \"{stem}.{ext}\"")
      }
      layout = BatchLayout(
        inputs: inputs, outputFolder: settings.outputFolder,
        naming: try OutputNaming(template: template))
      if let shard = members["shard"] {
        guard let text = shard.string else { throw RenderError("\"shard\" must be \"I/N\"") }
        layout.shard = try Shard(parsing: text)
      }
      if let pairs = members["pairs"] {
        guard let rule = pairs.string.flatMap({ RawPairs(rawValue: $0.lowercased()) }) else {
          throw RenderError("\"pairs\" must be both, raw or jpeg")
        }
        layout.pairs = rule
      }
    } catch let error as RenderError {
      throw CallError(.invalidOptions, error.message)
    }
    layout.format = settings.options.format
    layout.walker.recursive = try Self.flag(members, "recursive", default: true)
    layout.walker.followSymlinkedFolders = try Self.flag(members, "followSymlinks")
    layout.walker.includeHidden = try Self.flag(members, "includeHidden")
    layout.allowOutputInsideInput = try Self.flag(members, "allowOutputInside")
  }

  /// The JSON object of the caller's string `json`, named `what` in errors, as written (members in
  /// order, whole numbers exactly).
  static func document(_ json: UnsafePointer<CChar>?, _ what: String) throws -> JSONText.Value {
    let text = try CString.read(json, what)
    let document: JSONText.Value
    do {
      document = try JSONText.Value.read(Data(text.utf8))
    } catch {
      throw CallError(.invalidOptions, "\(what): \(error.description)")
    }
    guard case .object = document else {
      throw CallError(.invalidOptions, "\(what) must be a JSON object")
    }
    return document
  }

  /// The JSON object of the caller's string `json`, named `what` in errors.
  static func object(_ json: UnsafePointer<CChar>?, _ what: String) throws -> JSONValue {
    JSONValue(try document(json, what))
  }

  /// `base` with the control values of the JSON object `value` (none when it is nil) applied.
  static func state(over base: ControlState, _ value: JSONText.Value?) throws -> ControlState {
    guard let value else { return base }
    guard case .object = value else {
      throw CallError(.invalidState, "\"state\" must be an object of control values")
    }
    do {
      return try base.applying(jsonValue: JSONValue(value))
    } catch {
      throw CallError(.invalidState, ControlStateError.inSource("state JSON", error).description)
    }
  }

  /// The boolean `key` of `members` (`fallback` when it is missing).
  static func flag(_ members: JSONValue, _ key: String, default fallback: Bool = false) throws
    -> Bool
  {
    guard let value = members[key] else { return fallback }
    guard let flag = value.bool else {
      throw CallError(.invalidOptions, "\"\(key)\" must be true or false")
    }
    return flag
  }

  /// The whole number `key` of `members`, cut toward zero as the C API has always taken it; nil when
  /// it is missing, no number or beyond an `Int`.
  static func integer(_ members: JSONValue, _ key: String) -> Int? {
    members[key]?.number.flatMap { Int(exactly: $0.rounded(.towardZero)) }
  }
}
