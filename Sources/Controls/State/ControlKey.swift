import Foundation

/// The keys of `ControlState`: one vocabulary for `--set key=value`, JSON state files, timelines, the
/// overlay's controls and the studio. Each key's names, values and controls are its ``descriptor``.
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

  /// The key's names, values and controls.
  public var descriptor: ControlDescriptor {
    Self.descriptors[self] ?? described
  }

  /// Every key's descriptor, made once.
  private static let descriptors = Dictionary(
    uniqueKeysWithValues: allCases.map { ($0, $0.described) })

  /// The key's descriptor: the one place each key's names, values, range and controls are written.
  private var described: ControlDescriptor {
    switch self {
    case .exposureBias:
      describe(
        json: "exposureBias", aliases: ["ev"],
        .number(-8...8, unit: " EV", value: \.exposureBias),
        controls: [
          control("exposure-bias", aliases: ["ev"], .systemExposureBiasSlider, overlayPosition: 50)
        ])
    case .zoom:
      describe(
        json: "zoom", .number(1...16, unit: "", value: \.zoom),
        controls: [
          control("zoom", spacing: .logarithmic, .systemZoomSlider, overlayPosition: 60)
        ])
    case .zoomCenter:
      describe(json: "zoomCenter", .point(0...1), controls: [])
    case .contrast:
      describe(
        json: "contrast", .number(0...2, unit: "", value: \.contrast),
        controls: [
          control(
            "contrast",
            .slider(
              title: "Contrast", symbolName: "circle.lefthalf.filled", valueFormat: "×%.2f"),
            overlayPosition: 40)
        ])
    case .saturation:
      describe(
        json: "saturation", .number(0...2, unit: "", value: \.saturation),
        controls: [
          control(
            "saturation",
            .slider(title: "Saturation", symbolName: "drop.fill", valueFormat: "×%.2f"),
            overlayPosition: 70)
        ])
    case .whiteBalance:
      // `temperature` (the temperature slider's name) sets the white balance to a number of kelvin.
      describe(
        json: "whiteBalance", aliases: ["wb", "temperature"], jsonAliases: ["temperature"],
        .whiteBalance(kelvin: 1667...25000),
        controls: [
          control(
            "white-balance", aliases: ["wb"],
            .picker(title: "White Balance", symbolName: "thermometer.sun"), overlayPosition: 20),
          control(
            "temperature", spacing: .mired,
            .slider(title: "Temperature", symbolName: "thermometer.medium", valueFormat: "%.0f K"),
            overlayPosition: 30),
        ])
    case .tint:
      // The HIG asks for a unit or symbol with every value: tint has no physical unit, so it names itself.
      describe(
        json: "tint", .number(-150...150, unit: "", value: \.tint),
        controls: [
          control(
            "tint", .slider(title: "Tint", symbolName: "paintpalette", valueFormat: "%+.0f tint"),
            overlayPosition: 80)
        ])
    case .filter:
      describe(
        json: "filter", .filter,
        controls: [
          control(
            "filter", .picker(title: "Filter", symbolName: "camera.filters"), overlayPosition: 90)
        ])
    case .grid:
      describe(
        json: "grid", .toggle(\.grid),
        controls: [
          control("grid", .picker(title: "Grid", symbolName: "grid"), overlayPosition: 10)
        ])
    }
  }

  private func describe(
    json: String, aliases: [String] = [], jsonAliases: [String] = [],
    _ kind: ControlDescriptor.Kind, controls: [ControlDescriptor.Control]
  ) -> ControlDescriptor {
    ControlDescriptor(
      cliName: rawValue, jsonKey: json, aliases: aliases, jsonAliases: jsonAliases, kind: kind,
      controls: controls)
  }

  private func control(
    _ name: String, aliases: [String] = [], spacing: ScaleSpacing = .linear,
    _ appearance: ControlDescriptor.Appearance, overlayPosition: Int
  ) -> ControlDescriptor.Control {
    ControlDescriptor.Control(
      name: name, aliases: aliases, key: self, spacing: spacing, appearance: appearance,
      overlayPosition: overlayPosition)
  }

  /// The name used on the command line and in timelines.
  public var cliName: String { rawValue }

  /// The name used in JSON state files.
  public var jsonKey: String { descriptor.jsonKey }

  /// Short alternative command-line names; `temperature` (the temperature slider's name) sets the white
  /// balance to a number of kelvin.
  public var aliases: [String] { descriptor.aliases }

  /// Alternative JSON keys: `temperature` for `whiteBalance`.
  public var jsonAliases: [String] { descriptor.jsonAliases }

  /// A human-readable description of the allowed values, used in error messages and help text.
  public var allowedValues: String { descriptor.allowedValues }

  /// Whether a timeline's `slide` event may name this key.
  public var acceptsSlide: Bool { descriptor.acceptsSlide }

  /// Whether a timeline's `select` event may name this key.
  public var acceptsSelect: Bool { descriptor.acceptsSelect }

  /// The options of a toggle (the grid), off first.
  public static let gridOptions = ["off", "on"]

  /// Every Camera Control of the standard set with the key it sets, in key order: the names `--control`
  /// takes and the studio shows.
  public static var controls: [ControlDescriptor.Control] {
    allCases.flatMap(\.descriptor.controls)
  }

  /// The Camera Control named `name` or one of its aliases, ignoring case; nil when none is.
  public static func control(named name: String) -> ControlDescriptor.Control? {
    let wanted = name.lowercased()
    return controls.first { $0.name == wanted || $0.aliases.contains(wanted) }
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

  /// The key named `name` in a timeline: its command-line name, or `temperature` (the temperature
  /// slider, whose slides are white-balance slides).
  public init?(timelineName name: String) {
    guard let key = ControlKey(rawValue: name) ?? Self.control(exactly: name)?.key else {
      return nil
    }
    self = key
  }

  /// Every command-line name with its aliases, for error messages and help text.
  public static var cliNamesDescription: String {
    allCases.map { key in
      key.aliases.isEmpty ? key.cliName : "\(key.cliName) (\(key.aliases.joined(separator: ", ")))"
    }.joined(separator: ", ")
  }

  private static func control(exactly name: String) -> ControlDescriptor.Control? {
    controls.first { $0.name == name }
  }
}
