import Foundation

/// The keys of `ControlState`: one vocabulary for `--set key=value`, JSON state files and timelines.
public enum ControlKey: String, CaseIterable, Sendable, Hashable {
  /// Exposure bias in EV (`exposure-bias`, alias `ev`; JSON `exposureBias`).
  case exposureBias = "exposure-bias"
  /// Zoom factor (`zoom`).
  case zoom
  /// Centre of the zoom window (`zoom-center`; JSON `zoomCenter`).
  case zoomCenter = "zoom-center"
  /// Contrast (`contrast`).
  case contrast
  /// Saturation (`saturation`).
  case saturation
  /// White balance (`white-balance`, alias `wb`; JSON `whiteBalance`).
  case whiteBalance = "white-balance"
  /// Tint (`tint`).
  case tint
  /// Filter (`filter`).
  case filter
  /// The viewfinder grid (`grid`, `on` or `off`): drawn by `preview`, never part of a picture.
  case grid

  /// The name used on the command line and in timelines.
  public var cliName: String { rawValue }

  /// The name used in JSON state files.
  public var jsonKey: String {
    switch self {
    case .exposureBias: "exposureBias"
    case .zoom: "zoom"
    case .zoomCenter: "zoomCenter"
    case .contrast: "contrast"
    case .saturation: "saturation"
    case .whiteBalance: "whiteBalance"
    case .tint: "tint"
    case .filter: "filter"
    case .grid: "grid"
    }
  }

  /// Short alternative command-line names; `temperature` (the temperature slider's name) sets the white
  /// balance to a number of kelvin.
  public var aliases: [String] {
    switch self {
    case .exposureBias: ["ev"]
    case .whiteBalance: ["wb", "temperature"]
    default: []
    }
  }

  /// Alternative JSON keys: `temperature` for `whiteBalance`.
  public var jsonAliases: [String] {
    self == .whiteBalance ? ["temperature"] : []
  }

  /// A human-readable description of the allowed values, used in error messages and help text.
  public var allowedValues: String {
    switch self {
    case .exposureBias: Self.describe(ControlState.exposureBiasRange, unit: " EV")
    case .zoom: Self.describe(ControlState.zoomRange, unit: "")
    case .zoomCenter:
      "x,y with each coordinate " + Self.describe(ControlState.zoomCenterRange, unit: "")
    case .contrast: Self.describe(ControlState.contrastRange, unit: "")
    case .saturation: Self.describe(ControlState.saturationRange, unit: "")
    case .whiteBalance:
      "none, auto, "
        + WhiteBalancePreset.allCases.map(\.rawValue).joined(separator: ", ")
        + ", or a temperature of " + Self.describe(ControlState.kelvinRange, unit: " K")
        + " (4500 or 4500K)"
    case .tint: Self.describe(ControlState.tintRange, unit: "")
    case .filter: "one of " + Filter.allCases.map(\.rawValue).joined(separator: ", ")
    case .grid: "on or off"
    }
  }

  /// Finds a key by its command-line name or alias.
  ///
  /// - Throws: `ControlStateError.unknownKey` listing the known keys.
  public init(cliName name: String) throws(ControlStateError) {
    guard let key = Self.allCases.first(where: { $0.cliName == name || $0.aliases.contains(name) })
    else {
      throw .unknownKey(key: name, known: Self.cliNamesDescription)
    }
    self = key
  }

  /// Finds a key by its JSON name.
  ///
  /// - Throws: `ControlStateError.unknownKey` listing the known JSON keys.
  public init(jsonKey name: String) throws(ControlStateError) {
    guard
      let key = Self.allCases.first(where: { $0.jsonKey == name || $0.jsonAliases.contains(name) })
    else {
      throw .unknownKey(key: name, known: Self.allCases.map(\.jsonKey).joined(separator: ", "))
    }
    self = key
  }

  /// Every command-line name with its aliases, for error messages and help text.
  public static var cliNamesDescription: String {
    allCases.map { key in
      key.aliases.isEmpty ? key.cliName : "\(key.cliName) (\(key.aliases.joined(separator: ", ")))"
    }.joined(separator: ", ")
  }

  private static func describe(_ range: ClosedRange<Double>, unit: String) -> String {
    "\(NumberText.plain(range.lowerBound)) … \(NumberText.plain(range.upperBound))\(unit)"
  }
}
