/// FrameDial's built-in named looks: a control state each, the base that `--state` files and `--set`
/// values are layered over.
///
/// A white balance temperature names the light the scene was lit by, as a camera's does: a value above
/// the sRGB white (6504 K) warms the picture, a value below it cools it.
public struct Preset: Sendable, Equatable {
  /// The name used with `--preset`.
  public let name: String
  /// One line saying what it does.
  public let summary: String
  /// The control values.
  public let state: ControlState

  /// Every built-in preset, in the order `framedial presets` lists them.
  public static let all: [Preset] = [
    Preset(
      name: "bright", summary: "lift exposure by half a stop with a little contrast",
      state: ControlState(exposureBias: 0.5, contrast: 1.1)),
    Preset(
      name: "warm-evening", summary: "warmer light, richer colour",
      state: ControlState(contrast: 1.1, saturation: 1.15, whiteBalance: .kelvin(7500), tint: 10)),
    Preset(
      name: "cool-morning", summary: "cooler light, softer contrast",
      state: ControlState(contrast: 0.95, whiteBalance: .kelvin(5200))),
    Preset(
      name: "vivid", summary: "the vivid look with a touch of contrast",
      state: ControlState(contrast: 1.1, filter: .vivid)),
    Preset(
      name: "noir", summary: "high-contrast black and white",
      state: ControlState(contrast: 1.15, filter: .noir)),
    Preset(
      name: "film-fade", summary: "faded, slightly warm film",
      state: ControlState(exposureBias: 0.2, whiteBalance: .kelvin(7500), filter: .fade)),
    Preset(
      name: "auto-fix", summary: "automatic white balance with a little contrast and colour",
      state: ControlState(contrast: 1.08, saturation: 1.1, whiteBalance: .auto)),
  ]

  /// The preset called `name`.
  public static func named(_ name: String) throws(ControlStateError) -> Preset {
    guard let preset = all.first(where: { $0.name == name.lowercased() }) else {
      throw .invalidValue(
        key: "preset", value: name, allowed: all.map(\.name).joined(separator: ", "))
    }
    return preset
  }
}
