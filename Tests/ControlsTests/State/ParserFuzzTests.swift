import Foundation
import SeededRandom
import Testing

@testable import Controls

/// Seeded random inputs for every parser that reads user text: each must answer with a value or a named
/// error, never crash, and a value it accepts must be a valid state. A fixed seed makes a failure
/// reproducible; the case count keeps CI fast.
@Suite struct ParserFuzzTests {
  static let tokens = [
    "{", "}", "[", "]", ",", ":", "\"", "exposureBias", "zoom", "zoomCenter", "contrast",
    "saturation",
    "whiteBalance", "tint", "filter", "ev", "wb", "=", "0", "1", "-1", "0.5", "2", "16", "1e308",
    "-1e308",
    "NaN", "nan", "Infinity", "inf", "4500K", "1667", "25000", "tungsten", "auto", "none", "vivid",
    "x",
    "y", "null", "true", "false", " ", "\n", "\\", "\u{0}", "é", "😀", "zoom-center", "0.3,0.7",
    ",,",
    "time", "type", "slide", "select", "press", "control", "value", "option", "phase", "kind",
    "began",
    "primary", "grid", "on",
  ]

  func randomText(_ generator: inout SeededGenerator) -> String {
    let count = Int(generator.next() % 14)
    var text = ""
    for _ in 0..<count {
      text += Self.tokens[Int(generator.next() % UInt64(Self.tokens.count))]
    }
    if generator.next() % 5 == 0 {
      // Raw bytes, possibly not UTF-8.
      let bytes = (0..<Int(generator.next() % 8)).map { _ in
        UInt8(truncatingIfNeeded: generator.next())
      }
      text += String(decoding: bytes, as: UTF8.self)
    }
    return text
  }

  func isValid(_ state: ControlState) -> Bool {
    ControlState.exposureBiasRange.contains(state.exposureBias)
      && ControlState.zoomRange.contains(state.zoom)
      && ControlState.contrastRange.contains(state.contrast)
      && ControlState.saturationRange.contains(state.saturation)
      && ControlState.tintRange.contains(state.tint)
  }

  @Test func jsonStatesNeverCrash() {
    var generator = SeededGenerator(seed: 1)
    var accepted = 0
    for _ in 0..<20_000 {
      let text = "{" + randomText(&generator) + "}"
      do {
        let state = try ControlState.identity.applying(json: Data(text.utf8))
        #expect(isValid(state), "\(text)")
        accepted += 1
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(accepted > 0)
  }

  @Test func assignmentsNeverCrash() {
    var generator = SeededGenerator(seed: 2)
    var accepted = 0
    for _ in 0..<20_000 {
      let text = randomText(&generator)
      do {
        let state = try ControlState.identity.applying(assignment: text)
        #expect(isValid(state), "\(text)")
        accepted += 1
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
    #expect(accepted > 0)
  }

  @Test func timelinesNeverCrash() {
    var generator = SeededGenerator(seed: 3)
    for _ in 0..<5_000 {
      let lines = (0..<Int(1 + generator.next() % 3)).map { _ in "{" + randomText(&generator) + "}"
      }
      do {
        let timeline = try Timeline(jsonLines: lines.joined(separator: "\n"))
        for event in timeline.events { #expect(event.time.isFinite) }
      } catch {
        #expect("\(error)".contains("line"))
      }
    }
    // A valid line among random ones parses.
    let valid = #"{"time":0.5,"type":"slide","control":"zoom","value":2}"#
    #expect((try? Timeline(jsonLines: valid))?.events.count == 1)
  }
}
