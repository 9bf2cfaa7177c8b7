import Controls

/// The control states the frame benchmarks render, from cheapest to dearest.
struct FrameState: Sendable {
  /// The state's name in the report.
  var name: String
  /// The control values.
  var state: ControlState
  /// The most this state's median may cost, in memory passes (the product's target).
  var memoryPassLimit: Double
  /// The least speed-up over the unoptimized graph required, if any.
  var unoptimizedSpeedupLimit: Double?

  /// EV +0.5, white balance tungsten, contrast 1.2: per-channel tables only.
  static let pointOnlyState = ControlState(
    exposureBias: 0.5, contrast: 1.2, whiteBalance: .preset(.tungsten))

  /// The point-only state plus saturation 1.3: channel mixing in linear light.
  static let colourState: ControlState = {
    var state = pointOnlyState
    state.saturation = 1.3
    return state
  }()

  /// The colour state plus a 1.5× zoom.
  static let fullState: ControlState = {
    var state = colourState
    state.zoom = 1.5
    return state
  }()

  /// Identity, point-only, colour with mixing, a filter and full.
  static let all: [FrameState] = [
    FrameState(name: "identity", state: .identity, memoryPassLimit: 1.5),
    FrameState(name: "point-only", state: pointOnlyState, memoryPassLimit: 4),
    FrameState(
      name: "colour + mixing", state: colourState, memoryPassLimit: 10,
      unoptimizedSpeedupLimit: 10),
    FrameState(
      name: "filter vivid", state: ControlState(filter: .vivid), memoryPassLimit: 10,
      unoptimizedSpeedupLimit: 10),
    FrameState(name: "full (colour + zoom 1.5)", state: fullState, memoryPassLimit: 25),
  ]
}
