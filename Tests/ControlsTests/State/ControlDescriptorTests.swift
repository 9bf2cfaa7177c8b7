import Foundation
import Testing

@testable import Controls

/// Each key's descriptor is the one source of its names, range, text and JSON forms and clamping: every
/// test here walks `ControlKey.allCases`, so a new key is checked as soon as it has a descriptor.
@Suite struct ControlDescriptorTests {
  /// The identity state with `key` alone moved to a value inside its range that is not the identity's.
  static func moved(_ key: ControlKey) -> ControlState {
    var state = ControlState.identity
    switch key.descriptor.kind {
    case .number(let range, _, let value):
      state[keyPath: value] = range.lowerBound + (range.upperBound - range.lowerBound) * 0.75
    case .point(let range):
      let span = range.upperBound - range.lowerBound
      state.zoomCenter = ZoomCenter(
        x: range.lowerBound + span * 0.25, y: range.lowerBound + span * 0.75)
    case .whiteBalance: state.whiteBalance = .kelvin(4500)
    case .filter: state.filter = .mono
    case .toggle(let value): state[keyPath: value] = !state[keyPath: value]
    }
    return state
  }

  /// `value` as `--set` writes it for `key` (both coordinates of a point).
  static func text(_ value: Double, for key: ControlKey) -> String {
    if case .point = key.descriptor.kind { return "\(value),\(value)" }
    return String(value)
  }

  @Test func everyKeysNamesFindItAndNoOtherKey() throws {
    var cliNames = Set<String>()
    var jsonNames = Set<String>()
    for key in ControlKey.allCases {
      let descriptor = key.descriptor
      #expect(descriptor.cliName == key.rawValue)
      for name in [descriptor.cliName] + descriptor.aliases {
        #expect(try ControlKey(cliName: name) == key)
        #expect(cliNames.insert(name).inserted, "\(name) names two keys")
      }
      for name in [descriptor.jsonKey] + descriptor.jsonAliases {
        #expect(try ControlKey(jsonKey: name) == key)
        #expect(jsonNames.insert(name).inserted, "\(name) names two keys")
      }
      #expect(ControlKey(timelineName: descriptor.cliName) == key)
    }
  }

  @Test func theRangeConstantsAreTheDescriptorsRanges() {
    let constants: [(ControlKey, ClosedRange<Double>)] = [
      (.exposureBias, ControlState.exposureBiasRange), (.zoom, ControlState.zoomRange),
      (.zoomCenter, ControlState.zoomCenterRange), (.contrast, ControlState.contrastRange),
      (.saturation, ControlState.saturationRange), (.whiteBalance, ControlState.kelvinRange),
      (.tint, ControlState.tintRange),
    ]
    for (key, range) in constants {
      #expect(key.descriptor.range == range, "\(key)")
    }
    // The documented ranges.
    #expect(constants.map(\.1) == [-8...8, 1...16, 0...1, 0...2, 0...2, 1667...25000, -150...150])
    #expect(ControlKey.allCases.filter { $0.descriptor.range == nil } == [.filter, .grid])
  }

  @Test func everyRangeTakesItsEndsAndRefusesTheNextNumberBeyond() throws {
    for key in ControlKey.allCases {
      guard let range = key.descriptor.range else { continue }
      for end in [range.lowerBound, range.upperBound] {
        let state = try ControlState.identity.applying(key, text: Self.text(end, for: key))
        #expect(try state.validated() == state)
      }
      for beyond in [range.lowerBound.nextDown, range.upperBound.nextUp] {
        let error = caught(ControlStateError.self) {
          _ = try ControlState.identity.applying(key, text: Self.text(beyond, for: key))
        }
        #expect(error?.description.contains(key.cliName) == true, "\(key) took \(beyond)")
        #expect(error?.description.contains(key.allowedValues) == true)
      }
    }
  }

  @Test func everyKeysValueRoundTripsThroughTextJSONAndDescription() throws {
    for key in ControlKey.allCases {
      let state = Self.moved(key)
      #expect(state != .identity)
      #expect(try state.validated() == state)
      #expect(try ControlState.identity.applying(key, text: state.text(for: key)) == state)
      #expect(try ControlState.identity.applying(json: state.jsonData()) == state)
      #expect(try JSONDecoder().decode(ControlState.self, from: state.jsonData()) == state)
      // The description names this key alone, in the `--set` form it reads back from.
      #expect(state.description.hasPrefix("\(key.cliName)="))
      #expect(!state.description.contains(" "))
      #expect(try ControlState.identity.applying(assignment: state.description) == state)
    }
    let object = try JSONSerialization.jsonObject(with: ControlState.identity.jsonData())
    #expect(
      Set((object as? [String: Any])?.keys ?? [:].keys) == Set(ControlKey.allCases.map(\.jsonKey)))
  }

  @Test func clampingBringsEveryNumberIntoItsRangeAndANonFiniteOneToTheIdentity() {
    let identity = ControlState.identity
    for key in ControlKey.allCases {
      switch key.descriptor.kind {
      case .number(let range, _, let value):
        for (given, expected) in [
          (range.upperBound + 1, range.upperBound), (range.lowerBound - 1, range.lowerBound),
          (.nan, identity[keyPath: value]), (-.infinity, identity[keyPath: value]),
        ] {
          var state = identity
          state[keyPath: value] = given
          #expect(state.clamped()[keyPath: value] == expected, "\(key) \(given)")
        }
      case .point(let range):
        let state = ControlState(zoomCenter: ZoomCenter(x: range.upperBound + 1, y: .nan))
        #expect(
          state.clamped().zoomCenter == ZoomCenter(x: range.upperBound, y: identity.zoomCenter.y))
      case .whiteBalance(let range):
        #expect(
          ControlState(whiteBalance: .kelvin(range.lowerBound - 1)).clamped().whiteBalance
            == .kelvin(range.lowerBound))
        #expect(ControlState(whiteBalance: .kelvin(.nan)).clamped().whiteBalance == .none)
      case .filter, .toggle:
        #expect(Self.moved(key).clamped() == Self.moved(key))
      }
      // A value inside its range is kept.
      #expect(Self.moved(key).clamped() == Self.moved(key))
    }
  }

  @Test func oneKeysValueIsTakenFromAnotherStateAndNothingElse() {
    for key in ControlKey.allCases {
      #expect(ControlState.identity.taking(key, from: Self.moved(key)) == Self.moved(key))
      #expect(Self.moved(key).taking(key, from: .identity) == .identity)
      for other in ControlKey.allCases where other != key {
        #expect(
          Self.moved(key).taking(other, from: Self.moved(other)).differs(from: .identity, in: key))
      }
    }
  }

  @Test func everyControlHasItsOwnNameAndOverlayPositionAndAtMostOneSliderAndPickerAKey() {
    let controls = ControlKey.controls
    let names = controls.flatMap { [$0.name] + $0.aliases }
    #expect(Set(names).count == names.count)
    #expect(Set(controls.map(\.overlayPosition)).count == controls.count)
    for key in ControlKey.allCases {
      let own = key.descriptor.controls
      #expect(own.allSatisfy { $0.key == key })
      let pickers = own.filter {
        if case .picker = $0.appearance { return true }
        return false
      }
      #expect(pickers.count <= 1 && own.count - pickers.count <= 1, "\(key)")
    }
  }
}
