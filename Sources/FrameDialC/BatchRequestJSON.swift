import Controls
import Foundation
import FrameDial

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
    var optionsObject: [String: Any]
    var options: StillOptions
    var outputFolder: String
    var overwrite: Bool
    var dryRun: Bool
    var keepTime: Bool

    /// The settings as the JSON object `framedial_batch_render` reads.
    func jsonObject() throws -> [String: Any] {
      [
        "state": try JSONSerialization.jsonObject(with: try state.jsonData()),
        "options": optionsObject, "output": outputFolder, "overwrite": overwrite,
        "keepTime": keepTime,
      ]
    }

    /// The settings of the JSON text `json` (a caller's NUL-terminated string).
    init(json: UnsafePointer<CChar>?) throws {
      let members = try BatchRequestJSON.object(json, "the batch JSON")
      let state = try BatchRequestJSON.state(over: .identity, members["state"] ?? [:])
      try self.init(members, state: state)
    }

    init(_ members: [String: Any], state: ControlState) throws {
      self.state = state
      guard let output = members["output"] as? String, !output.isEmpty else {
        throw CallError(.invalidOptions, "\"output\" must be the output folder's path")
      }
      outputFolder = output
      guard let object = members["options"].map({ $0 as? [String: Any] }) ?? [:] else {
        throw CallError(.invalidOptions, "\"options\" must be an object of still options")
      }
      optionsObject = object
      let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
      options = try text.withCString { try StillOptionsJSON.options($0, output: "") }
      // Read strip by strip, as `framedial batch` does.
      options.load.sequential = true
      overwrite = try BatchRequestJSON.flag(members, "overwrite")
      dryRun = try BatchRequestJSON.flag(members, "dryRun")
      keepTime = try BatchRequestJSON.flag(members, "keepTime")
    }
  }

  /// The request of the JSON text `json`, checked as `framedial batch` checks its options.
  init(json: UnsafePointer<CChar>?) throws {
    let members = try Self.object(json, "the batch request JSON")
    if let key = members.keys.filter({ !Self.keys.contains($0) }).min() {
      throw CallError(
        .invalidOptions,
        "unknown batch key \"\(EchoText.readable(key))\"; known keys are "
          + Self.keys.joined(separator: ", "))
    }
    guard let inputs = members["inputs"] as? [String], !inputs.isEmpty,
      !inputs.contains(where: \.isEmpty)
    else {
      throw CallError(.invalidOptions, "\"inputs\" must be a non-empty list of paths")
    }
    var base = ControlState.identity
    if let preset = members["preset"] {
      guard let name = preset as? String else {
        throw CallError(.invalidState, "\"preset\" must be a preset's name")
      }
      do {
        base = try Preset.named(name).state
      } catch {
        throw CallError(.invalidState, error.description)
      }
    }
    let state = try Self.state(over: base, members["state"] ?? [:])
    settings = try Settings(members, state: state)
    do {
      let name = members["name"] ?? "{stem}.{ext}"
      guard let template = name as? String else {
        throw RenderError("\"name\" must be a template such as \"{stem}.{ext}\"")
      }
      layout = BatchLayout(
        inputs: inputs, outputFolder: settings.outputFolder,
        naming: try OutputNaming(template: template))
      if let shard = members["shard"] {
        guard let text = shard as? String else { throw RenderError("\"shard\" must be \"I/N\"") }
        layout.shard = try Shard(parsing: text)
      }
      if let pairs = members["pairs"] {
        guard let rule = (pairs as? String).flatMap({ RawPairs(rawValue: $0.lowercased()) }) else {
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

  /// The JSON object of the caller's string `json`, named `what` in errors.
  static func object(_ json: UnsafePointer<CChar>?, _ what: String) throws -> [String: Any] {
    let text = try CString.read(json, what)
    let value = try? JSONSerialization.jsonObject(with: Data(text.utf8))
    guard let members = value as? [String: Any] else {
      throw CallError(.invalidOptions, "\(what) must be a JSON object")
    }
    return members
  }

  /// `base` with the control values of the JSON object `value` applied.
  static func state(over base: ControlState, _ value: Any) throws -> ControlState {
    guard value is [String: Any] else {
      throw CallError(.invalidState, "\"state\" must be an object of control values")
    }
    do {
      return try base.applying(json: try JSONSerialization.data(withJSONObject: value))
    } catch let error as ControlStateError {
      throw CallError(.invalidState, ControlStateError.inSource("state JSON", error).description)
    }
  }

  /// The boolean `key` of `members` (`fallback` when it is missing).
  static func flag(_ members: [String: Any], _ key: String, default fallback: Bool = false) throws
    -> Bool
  {
    guard let value = members[key] else { return fallback }
    guard let flag = value as? Bool else {
      throw CallError(.invalidOptions, "\"\(key)\" must be true or false")
    }
    return flag
  }
}
