import Controls
import Foundation
import JSON

/// Everything that decides an output's pixels and bytes, as one canonical text: FrameDial's version, the
/// control state (its JSON form) and the still options — every stored field, through `Encodable`, so an
/// option added later is covered without further work — except what only limits or paces the work (the
/// pixel limit, reading strip by strip; the number of jobs is no option at all) and what the output's
/// format ignores (the HEIC encoder's effort, for any other format).
///
/// A batch records the settings beside each output (``OutputRecords``), so a rerun tells an output made
/// with the same settings (a resumed batch) from one made with other settings.
public struct RenderSettings: Sendable, Hashable {
  /// The canonical text: JSON with sorted keys (`JSONText.Format.canonical`).
  public let text: String
  /// A short name for ``text``: the 16 hexadecimal digits of its 64-bit FNV-1a hash.
  public let id: String

  /// The settings that render with `state` and `options` (give the output format in `options`).
  ///
  /// - Throws: `JSONText.Unwritable` for a value JSON cannot hold (a non-finite number).
  public init(state: ControlState, options: StillOptions) throws {
    var options = options
    options.load.pixelLimit = nil
    options.load.sequential = false
    if options.format != .heic { options.effort = .standard }
    let described = JSONText.Value.object([
      ("frameDial", .string(FrameDialVersion.string)), ("state", state.jsonValue),
      ("options", try JSONText.Value(encoding: options)),
    ])
    self.init(text: try JSONText.string(described, .canonical))
  }

  /// Settings read back from their canonical text.
  init(text: String) {
    self.text = text
    id = String(FNV1a.hash(text), radix: 16).leftPadded(to: 16)
  }
}

extension String {
  /// The text with zeros in front up to `width` characters.
  fileprivate func leftPadded(to width: Int) -> String {
    String(repeating: "0", count: max(0, width - count)) + self
  }
}
