import Foundation
import Testing

@testable import Controls

@Suite struct NearestWordTests {
  @Test func typosFindTheirWord() {
    #expect(NearestWord.suggestion(for: "aply", among: ["apply", "batch", "info"]) == "apply")
    #expect(NearestWord.suggestion(for: "qualty", among: ["quality", "format"]) == "quality")
    #expect(NearestWord.suggestion(for: "tungstn", among: ["tungsten", "daylight"]) == "tungsten")
    // Hyphens and case do not count: a device typed without them.
    #expect(
      NearestWord.suggestion(for: "iPhone16Pro", among: ["iphone-16", "iphone-16-pro"])
        == "iphone-16-pro")
    // A swap of two neighbours is one edit.
    #expect(NearestWord.suggestion(for: "barch", among: ["batch"]) == "batch")
    #expect(NearestWord.suggestion(for: "btach", among: ["batch"]) == "batch")
  }

  @Test func farWordsAndTheWordItselfAreNotSuggested() {
    #expect(NearestWord.suggestion(for: "bogus", among: ["apply", "batch", "info"]) == nil)
    #expect(NearestWord.suggestion(for: "zoom", among: ["zoom"]) == nil)
    #expect(NearestWord.suggestion(for: "", among: ["a"]) == nil)
    // Short words allow one edit only.
    #expect(NearestWord.suggestion(for: "ab", among: ["info"]) == nil)
    #expect(NearestWord.editDistance(Array("kitten"), Array("sitting")) == 3)
  }

  @Test func controlStateErrorsSuggestTheNearestKeyOrValue() {
    func message(_ assignment: String) -> String {
      caught(ControlStateError.self) { _ = try ControlState().applying(assignment: assignment) }?
        .description ?? "no error"
    }
    #expect(message("wb=tungstn").hasSuffix(#"Did you mean "tungsten"?"#))
    #expect(message("filter=noire").hasSuffix(#"Did you mean "noir"?"#))
    #expect(message("temperatur=5000").hasSuffix(#"Did you mean "temperature"?"#))
    #expect(!message("brightness=1").contains("Did you mean"))
    // A control's name from the other vocabulary points to this one's.
    func jsonMessage(_ text: String) -> String {
      caught(ControlStateError.self) { _ = try ControlState().applying(json: Data(text.utf8)) }?
        .description
        ?? "no error"
    }
    #expect(jsonMessage(#"{"ev": 1}"#).hasSuffix(#"Did you mean "exposureBias"?"#))
    #expect(jsonMessage(#"{"wb": "tungsten"}"#).hasSuffix(#"Did you mean "whiteBalance"?"#))
    #expect(jsonMessage(#"{"zoom-center": [0.5, 0.5]}"#).hasSuffix(#"Did you mean "zoomCenter"?"#))
    #expect(message("exposureBias=1").hasSuffix(#"Did you mean "exposure-bias"?"#))
    let preset = caught(ControlStateError.self) { _ = try Preset.named("vivd") }
    #expect(preset?.description.hasSuffix(#"Did you mean "vivid"?"#) == true)
  }
}
