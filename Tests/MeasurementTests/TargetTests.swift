import Foundation
import Testing

@testable import Measurement

@Suite struct TargetTests {
  @Test func boundsDecideTheMark() {
    #expect(Target("a", measured: 4, .atMost, 4, unit: "×").met)
    #expect(!Target("a", measured: 4.01, .atMost, 4, unit: "×").met)
    #expect(Target("b", measured: 1.7, .atLeast, 1.7, unit: "×").mark == "✓")
    #expect(Target("b", measured: 1.69, .atLeast, 1.7, unit: "×").mark == "✗")
    #expect(!Target("c", measured: .nan, .atMost, 1, unit: "µs").met)
  }

  @Test func limitText() {
    #expect(Target("a", measured: 1, .atMost, 1.5, unit: "×").limitText == "≤ 1.5×")
    #expect(Target("a", measured: 1, .atLeast, 10, unit: "×").limitText == "≥ 10×")
    #expect(Target("a", measured: 1, .atMost, 400, unit: "MB").limitText == "≤ 400 MB")
  }

  @Test func numbersKeepAboutThreeDigits() {
    #expect(Format.number(0.123456) == "0.12")
    #expect(Format.number(2.5) == "2.5")
    #expect(Format.number(3) == "3")
    #expect(Format.count(1, "thread") == "1 thread" && Format.count(2, "thread") == "2 threads")
    #expect(Format.number(12.345) == "12.3")
    #expect(Format.number(123.6) == "124")
    #expect(Format.number(-0.001) == "0")
    #expect(Format.number(.nan) == "–")
  }

  @Test func jsonCarriesTheVerdict() throws {
    let target = Target("hit", measured: 6, .atMost, 5, unit: "µs")
    let data = try JSONEncoder().encode(target)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    #expect(object["met"] as? Bool == false)
    #expect(try JSONDecoder().decode(Target.self, from: data) == target)
  }
}
