import Controls

/// A control state with every value brought into its documented range (``ControlState``'s ranges, which
/// the control descriptors publish), as the compiler reads it, with the encoding of the pictures it will
/// be applied to. Its fields read as the state's (`state.contrast`).
///
/// Non-finite numbers become the identity value; finite ones are clamped (`ControlState.clamped()`, over
/// every key of the descriptors). Viewfinder-only keys (the grid) read as the identity, and tint only
/// matters with a preset or kelvin white balance and is zeroed otherwise, so states that render alike
/// compile alike.
@dynamicMemberLookup
struct CompilableState: Hashable {
  /// The state as compiled.
  private(set) var state: ControlState
  var encoding: ColourEncoding

  init(_ state: ControlState, encoding: ColourEncoding = .sRGB) {
    self.encoding = encoding
    var compiled = state.clamped()
    for key in ControlKey.allCases where key.descriptor.isViewfinderOnly {
      compiled = compiled.taking(key, from: .identity)
    }
    switch compiled.whiteBalance {
    case .kelvin, .preset:
      break
    case .none, .auto:
      compiled.tint = 0
    }
    self.state = compiled
  }

  /// The compiled value of one of the state's fields.
  subscript<Value>(dynamicMember keyPath: KeyPath<ControlState, Value>) -> Value {
    state[keyPath: keyPath]
  }

  /// The fields that change colours (everything but zoom), the key of the colour-program memo.
  var colorKey: CompilableState {
    var key = self
    key.state = state.taking(.zoom, from: .identity).taking(.zoomCenter, from: .identity)
    return key
  }
}
