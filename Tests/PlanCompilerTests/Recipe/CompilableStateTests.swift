import Controls
import Testing

@testable import PlanCompiler

/// The compiler reads every key the descriptors name: a state that differs in one picture key compiles
/// differently, one that differs in a viewfinder key alone (the grid) compiles alike.
@Suite struct CompilableStateTests {
  /// A base where tint counts (a kelvin white balance), and `key` moved off it inside its range.
  static func pair(_ key: ControlKey) -> (base: ControlState, moved: ControlState) {
    let base = ControlState(whiteBalance: .kelvin(6000))
    var moved = base
    switch key.descriptor.kind {
    case .number(let range, _, let value):
      moved[keyPath: value] = range.lowerBound + (range.upperBound - range.lowerBound) * 0.75
    case .point(let range):
      moved.zoomCenter = ZoomCenter(x: range.lowerBound, y: range.upperBound)
    case .whiteBalance: moved.whiteBalance = .kelvin(4500)
    case .filter: moved.filter = .mono
    case .toggle(let value): moved[keyPath: value] = !base[keyPath: value]
    }
    return (base, moved)
  }

  @Test func everyPictureKeyIsCompiledAndTheViewfinderKeysAreNot() {
    for key in ControlKey.allCases {
      let (base, moved) = Self.pair(key)
      #expect(base != moved)
      let (a, b) = (CompilableState(base), CompilableState(moved))
      #expect((a != b) == !key.descriptor.isViewfinderOnly, "\(key)")
      // The colour memo's key ignores the zoom and its centre, and nothing else.
      let geometric = key == .zoom || key == .zoomCenter
      #expect(
        (a.colorKey != b.colorKey) == !(key.descriptor.isViewfinderOnly || geometric), "\(key)")
    }
  }

  @Test func everyNumberIsClampedIntoItsDescriptorsRange() {
    for key in ControlKey.allCases {
      guard case .number(let range, _, let value) = key.descriptor.kind else { continue }
      var state = ControlState(whiteBalance: .kelvin(6000))
      state[keyPath: value] = range.upperBound * 2 + 1
      #expect(CompilableState(state)[dynamicMember: value] == range.upperBound, "\(key)")
      state[keyPath: value] = .nan
      #expect(
        CompilableState(state)[dynamicMember: value] == ControlState.identity[keyPath: value])
    }
  }

  @Test func tintCountsOnlyWithAPresetOrAKelvinWhiteBalance() {
    #expect(CompilableState(ControlState(whiteBalance: .auto, tint: 40)).tint == 0)
    #expect(CompilableState(ControlState(tint: 40)).tint == 0)
    #expect(CompilableState(ControlState(whiteBalance: .preset(.shade), tint: 40)).tint == 40)
    #expect(CompilableState(ControlState(whiteBalance: .kelvin(.nan), tint: 40)).tint == 0)
  }
}
