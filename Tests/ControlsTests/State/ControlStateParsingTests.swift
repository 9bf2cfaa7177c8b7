import Foundation
import Testing

@testable import Controls

@Suite struct ControlStateParsingTests {
  @Test func descriptionSpeaksTheSetVocabularyAndReadsBack() throws {
    #expect(ControlState.identity.description == "identity")
    let state = ControlState(
      exposureBias: 0.5, zoom: 1.5, zoomCenter: ZoomCenter(x: 0.25, y: 0.75), contrast: 1.2,
      saturation: 0.8, whiteBalance: .kelvin(4500), tint: -12, filter: .sepia)
    #expect(
      state.description
        == "exposure-bias=0.5 zoom=1.5 zoom-center=0.25,0.75 contrast=1.2 saturation=0.8 "
        + "white-balance=4500K tint=-12 filter=sepia")
    let assignments = state.description.split(separator: " ").map(String.init)
    #expect(try ControlState.identity.applying(assignments: assignments) == state)
    #expect("\(ControlState(whiteBalance: .preset(.tungsten)))" == "white-balance=tungsten")
  }

  @Test func assignmentsSetEachKeyIncludingAliases() throws {
    let state = try ControlState.identity.applying(assignments: [
      "ev=0.5", "zoom=2", "zoom-center=0.25,0.75", "contrast=1.2", "saturation=0",
      "wb=4500K", "tint=-20", "filter=Mono",
    ])
    #expect(state.exposureBias == 0.5)
    #expect(state.zoom == 2)
    #expect(state.zoomCenter == ZoomCenter(x: 0.25, y: 0.75))
    #expect(state.contrast == 1.2)
    #expect(state.saturation == 0)
    #expect(state.whiteBalance == .kelvin(4500))
    #expect(state.tint == -20)
    #expect(state.filter == .mono)
  }

  @Test func whiteBalanceAcceptsWordsPresetsAndKelvinWithOrWithoutSuffix() throws {
    #expect(try WhiteBalance(parsing: "none") == WhiteBalance.none)
    #expect(try WhiteBalance(parsing: "AUTO") == .auto)
    #expect(try WhiteBalance(parsing: "tungsten") == .preset(.tungsten))
    #expect(try WhiteBalance(parsing: "4500") == .kelvin(4500))
    #expect(try WhiteBalance(parsing: "4500k") == .kelvin(4500))
    #expect(
      try ControlState().applying(assignment: "white-balance=shade").whiteBalance == .preset(.shade)
    )
  }

  @Test func outOfRangeNamesKeyValueAndRange() {
    let error = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "ev=9")
    }
    #expect(error == .outOfRange(key: "exposure-bias", value: "9", allowed: "-8 … 8 EV"))
    let text = error?.description ?? ""
    #expect(text.contains("exposure-bias") && text.contains("9") && text.contains("-8 … 8 EV"))
  }

  @Test func kelvinOutOfRangeNamesTheRange() {
    let error = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "wb=1000K")
    }
    let text = error?.description ?? ""
    #expect(
      text.contains("white-balance") && text.contains("1000") && text.contains("1667 … 25000 K"))
  }

  @Test func unknownKeyListsKnownKeys() {
    let error = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "brightness=1")
    }
    let text = error?.description ?? ""
    #expect(
      text.contains("\"brightness\"") && text.contains("exposure-bias (ev)")
        && text.contains("white-balance (wb, temperature)"))
  }

  @Test(arguments: ["nan", "inf", "-infinity"])
  func nonFiniteNumbersAreRejected(_ text: String) {
    let error = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "zoom=\(text)")
    }
    guard case .notFinite(let key, let value, let allowed)? = error else {
      Issue.record("expected notFinite, got \(String(describing: error))")
      return
    }
    #expect(key == "zoom" && value == text && allowed == "1 … 16")
  }

  @Test func wrongTypesAndMalformedSettingsAreErrors() {
    let notNumber = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "tint=warm")
    }
    #expect(notNumber?.description.contains("\"warm\"") == true)
    #expect(notNumber?.description.contains("-150 … 150") == true)
    let badFilter = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "filter=sparkle")
    }
    #expect(badFilter?.description.contains("sparkle") == true)
    #expect(badFilter?.description.contains("vivid") == true)
    let badCenter = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "zoom-center=0.5")
    }
    #expect(badCenter?.description.contains("x,y") == true)
    let centerRange = caught(ControlStateError.self) {
      _ = try ControlState().applying(assignment: "zoom-center=0.5,1.5")
    }
    #expect(centerRange?.description.contains("1.5") == true)
    #expect(
      caught(ControlStateError.self) { _ = try ControlState().applying(assignment: "ev") }
        == .malformedAssignment("ev"))
  }

  @Test func textFormReadsBackToTheSameValue() throws {
    let state = ControlState(
      exposureBias: -1.25, zoom: 3.5, zoomCenter: ZoomCenter(x: 0.1, y: 0.9), contrast: 0.3,
      saturation: 1.7,
      whiteBalance: .kelvin(4321.5), tint: 12, filter: .chrome)
    var rebuilt = ControlState.identity
    for key in ControlKey.allCases {
      rebuilt = try rebuilt.applying(key, text: state.text(for: key))
    }
    #expect(rebuilt == state)
  }

  @Test func validatedRejectsOutOfRangeStates() {
    #expect(throws: ControlStateError.self) { try ControlState(zoom: 0.5).validated() }
    #expect(throws: ControlStateError.self) {
      try ControlState(whiteBalance: .kelvin(.nan)).validated()
    }
    #expect(throws: Never.self) { try ControlState.identity.validated() }
  }
}
