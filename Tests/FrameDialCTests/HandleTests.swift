import Foundation
import Testing

@testable import FrameDialC

/// The C API's handles called from Swift (run under the address sanitizer in CI): a freed handle is
/// refused even when a new object takes its address, and a double free leaves other handles alone.
@Suite struct HandleTests {
  /// A state handle made from `json`, or nil.
  static func state(_ json: String) -> OpaquePointer? {
    var handle: OpaquePointer?
    let status = json.withCString { cStateFromJSON($0, &handle, nil) }
    return status == 0 ? handle : nil
  }

  /// The JSON of `handle`, or the status and message of the failure.
  static func json(of handle: OpaquePointer?) -> Result<String, CallError> {
    var json: UnsafeMutablePointer<CChar>?
    var error: UnsafeMutablePointer<CChar>?
    let status = cStateToJSON(handle, &json, &error)
    defer {
      cStringFree(json)
      cStringFree(error)
    }
    guard status == 0, let json else {
      let message = error.map { String(cString: $0) } ?? ""
      return .failure(CallError(Status(rawValue: status) ?? .renderFailed, message))
    }
    return .success(String(cString: json))
  }

  @Test func aFreedStateIsRefusedAfterANewStateIsMade() throws {
    var sameAddress = 0
    for round in 0..<200 {
      let old = try #require(Self.state(#"{"tint": 10}"#))
      cStateFree(old)
      let fresh = try #require(Self.state(#"{"tint": \#(round % 100)}"#))
      defer { cStateFree(fresh) }
      if old == fresh { sameAddress += 1 }
      guard case .failure(let failure) = Self.json(of: old) else {
        Issue.record("round \(round): a freed state read as a live one")
        continue
      }
      #expect(failure.status == .invalidArgument)
      #expect(failure.message == "state is not a live state (it was freed already)")
      let text = try Self.json(of: fresh).get()
      #expect(text.contains("\"tint\":\(round % 100)"), "\(text)")
    }
    #expect(sameAddress == 0)
  }

  @Test func aDoubleFreeLeavesTheNextHandleLive() throws {
    for _ in 0..<200 {
      let old = try #require(Self.state(#"{"contrast": 1.5}"#))
      cStateFree(old)
      let fresh = try #require(Self.state(#"{"contrast": 0.5}"#))
      cStateFree(old)
      let text = try Self.json(of: fresh).get()
      #expect(text.contains("\"contrast\":0.5"), "\(text)")
      cStateFree(fresh)
      #expect(throws: CallError.self) { try Self.json(of: fresh).get() }
    }
  }

  @Test func aFreedRendererIsRefusedAndDoesNotRenderWithTheNextOne() throws {
    var input = [UInt8](repeating: 100, count: 4 * 2 * 3)
    var output = [UInt8](repeating: 0, count: input.count)
    for _ in 0..<50 {
      var first: OpaquePointer?
      var second: OpaquePointer?
      #expect(cFrameRendererNew(4, 2, "rgb24", 0, &first, nil) == 0)
      cFrameRendererFree(first)
      #expect(cFrameRendererNew(4, 2, "rgb24", 0, &second, nil) == 0)
      var error: UnsafeMutablePointer<CChar>?
      let status = cFrameRendererRender(
        first, &input, input.count, &output, output.count, nil, &error)
      #expect(status == Status.invalidArgument.rawValue)
      #expect(
        error.map { String(cString: $0) }
          == "renderer is not a live renderer (it was freed already)")
      cStringFree(error)
      cFrameRendererFree(first)
      #expect(
        cFrameRendererRender(second, &input, input.count, &output, output.count, nil, nil) == 0)
      #expect(output == input)
      cFrameRendererFree(second)
    }
  }

  @Test func strayPointersAndHandlesOfTheOtherKindAreRefusedByName() throws {
    let state = try #require(Self.state("{}"))
    defer { cStateFree(state) }
    var renderer: OpaquePointer?
    #expect(cFrameRendererNew(4, 2, "rgb24", 0, &renderer, nil) == 0)
    defer { cFrameRendererFree(renderer) }
    var error: UnsafeMutablePointer<CChar>?
    #expect(cFrameRendererSetState(renderer, renderer, &error) == Status.invalidArgument.rawValue)
    #expect(
      error.map { String(cString: $0) } == "state is not a live state (it is a renderer handle)")
    cStringFree(error)
    // Freeing a handle as the other kind does nothing.
    cFrameRendererFree(state)
    cStateFree(renderer)
    #expect(cFrameRendererSetState(renderer, state, nil) == 0)
    // A real address that FrameDial never issued.
    let memory = UnsafeMutablePointer<Int>.allocate(capacity: 4)
    defer { memory.deallocate() }
    guard case .failure(let failure) = Self.json(of: OpaquePointer(memory)) else {
      Issue.record("a stray pointer read as a state")
      return
    }
    #expect(failure.message.hasPrefix("state is not a live state (not a handle FrameDial made"))
    cStateFree(OpaquePointer(memory))
  }
}
