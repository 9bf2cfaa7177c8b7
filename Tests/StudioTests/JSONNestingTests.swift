import Foundation
import Testing

@testable import Studio

/// The nesting check the studio makes before decoding a state or a `/live` message.
@Suite struct JSONNestingTests {
  @Test func realMessagesPassAndDeepNestingIsRefused() {
    #expect(JSONNesting.refusal(Data(#"{"type":"state","state":{"exposureBias":1}}"#.utf8)) == nil)
    let sixteen = String(repeating: "[", count: 16) + String(repeating: "]", count: 16)
    #expect(JSONNesting.refusal(Data(sixteen.utf8)) == nil)
    let seventeen = "{\"a\":" + sixteen + "}"
    #expect(JSONNesting.refusal(Data(seventeen.utf8))?.contains("16 levels") == true)
  }

  @Test func bracketsInsideStringsDoNotCount() {
    let text = #"{"a": "[[[[[[[[[[[[[[[[[[[[[[[[\"[[[[[[[[[[[[[["}"#
    #expect(JSONNesting.refusal(Data(text.utf8)) == nil)
  }
}
