import Foundation

/// Everything FrameDial knows about one key of ``ControlState``: its names on the command line, in JSON
/// and in timelines, the values it takes and their range, the state field it sets, and the Camera
/// Controls that set it with how ``StandardControls`` shows them.
///
/// `--set` parsing, JSON state files, descriptions, validation, the range constants, the compiler's
/// clamping, timelines, the standard controls' sliders and pickers, `--control` and the studio's names
/// all read a key from here (see ``ControlKey/descriptor``). The key's identity (its value in
/// ``ControlState/identity``) is the default of its ``ControlState`` property.
public struct ControlDescriptor: Sendable {
  /// The values a key takes and where the state holds them.
  public enum Kind: Sendable {
    /// A number in `range`, held at `value`; `unit` follows the range in messages (`" EV"`). Slid.
    case number(
      ClosedRange<Double>, unit: String, value: WritableKeyPath<ControlState, Double> & Sendable)
    /// A point `x,y`, each coordinate in `range` (the zoom centre). Slid to a point, a pan.
    case point(ClosedRange<Double>)
    /// White balance: a word (selected) or a temperature in kelvin inside `kelvin` (slid).
    case whiteBalance(kelvin: ClosedRange<Double>)
    /// A named look (``Filter``). Selected.
    case filter
    /// A viewfinder toggle, on or off, held at `value`: it never changes a picture. Selected.
    case toggle(WritableKeyPath<ControlState, Bool> & Sendable)
  }

  /// A Camera Control that sets the key: its name (the control's accessibility identifier, and the name
  /// `--control`, the overlay and the studio use), its aliases, how its scale is spaced, and how and
  /// where ``StandardControls`` shows it.
  public struct Control: Sendable, Hashable {
    /// The control's name (`exposure-bias`, `temperature`).
    public let name: String
    /// Short alternative names (`ev`).
    public let aliases: [String]
    /// The state key the control sets.
    public let key: ControlKey
    /// How a slider's values are spaced along its scale.
    public let spacing: ScaleSpacing
    /// The kind of control ``StandardControls`` makes for it, with its title and symbol.
    public let appearance: Appearance
    /// Where the overlay shows it: the standard controls in rising order of this number (the common ones
    /// in the middle); a new control takes a number between its neighbours'.
    public let overlayPosition: Int

    /// Whether the control only changes the viewfinder (the grid), never a picture.
    public var isViewfinderOnly: Bool { key.descriptor.isViewfinderOnly }
  }

  /// The kind of control ``StandardControls`` makes for a ``Control``.
  public enum Appearance: Sendable, Hashable {
    /// The device's system exposure bias slider (``CaptureSlider/systemExposureBias(device:)``).
    case systemExposureBiasSlider
    /// The device's system zoom slider (``CaptureSlider/systemZoom(device:)``).
    case systemZoomSlider
    /// A slider over the key's ``ControlDescriptor/range``, starting at the key's identity with the
    /// identity prominent (a white balance's: at 5500 K, with the presets' temperatures prominent), its
    /// values shown with `valueFormat`.
    case slider(title: String, symbolName: String, valueFormat: String)
    /// An index picker of the key's options: the white-balance titles, the filters, or off and on for a
    /// toggle.
    case picker(title: String, symbolName: String)
  }

  /// The name used on the command line and in timelines.
  public let cliName: String
  /// The name used in JSON state files.
  public let jsonKey: String
  /// Short alternative command-line names.
  public let aliases: [String]
  /// Alternative JSON keys.
  public let jsonAliases: [String]
  /// The values the key takes.
  public let kind: Kind
  /// The Camera Controls that set the key, in order (none for the zoom centre, which a timeline pans).
  public let controls: [Control]

  /// The range of the key's numbers: a number's, each coordinate of a point's, a white balance's kelvin;
  /// nil for a key of words (a filter, a toggle).
  public var range: ClosedRange<Double>? {
    switch kind {
    case .number(let range, _, _), .point(let range), .whiteBalance(kelvin: let range): range
    case .filter, .toggle: nil
    }
  }

  /// Whether the key only changes the viewfinder (the grid), never a picture.
  public var isViewfinderOnly: Bool {
    if case .toggle = kind { return true }
    return false
  }

  /// Whether a timeline's `slide` event may name the key.
  public var acceptsSlide: Bool {
    switch kind {
    case .number, .point, .whiteBalance: true
    case .filter, .toggle: false
    }
  }

  /// Whether a timeline's `select` event may name the key.
  public var acceptsSelect: Bool {
    switch kind {
    case .whiteBalance, .filter, .toggle: true
    case .number, .point: false
    }
  }

  /// A human-readable description of the allowed values, used in error messages and help text.
  public var allowedValues: String {
    switch kind {
    case .number(let range, let unit, _): Self.describe(range, unit: unit)
    case .point(let range): "x,y with each coordinate " + Self.describe(range, unit: "")
    case .whiteBalance(let kelvin):
      "none, auto, "
        + WhiteBalancePreset.allCases.map(\.rawValue).joined(separator: ", ")
        + ", or a temperature of " + Self.describe(kelvin, unit: " K") + " (4500 or 4500K)"
    case .filter: "one of " + Filter.allCases.map(\.rawValue).joined(separator: ", ")
    case .toggle: "on or off"
    }
  }

  private static func describe(_ range: ClosedRange<Double>, unit: String) -> String {
    "\(NumberText.plain(range.lowerBound)) … \(NumberText.plain(range.upperBound))\(unit)"
  }
}

/// How a slider's values are spaced along the overlay's scale.
public enum ScaleSpacing: String, Sendable, Hashable {
  /// Equal steps of value take equal lengths.
  case linear
  /// Each doubling takes the same length (zoom).
  case logarithmic
  /// Equal steps of mired (a million over the kelvin) take equal lengths: colour temperature as the
  /// eye sees it, so the warm end is not crowded into a corner.
  case mired
}
