import Testing

@testable import Studio

/// Which requests a local studio answers: its own page and scripts, not other sites' pages.
@Suite struct OriginPolicyTests {
  let loopback = OriginPolicy(port: 8080, loopbackOnly: true)

  @Test func scriptsWithoutOriginAndTheOwnPageAreLetThrough() {
    #expect(loopback.refusal(host: "127.0.0.1:8080", origin: nil, changesState: true) == nil)
    #expect(
      loopback.refusal(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", changesState: true)
        == nil)
    #expect(
      loopback.refusal(host: "localhost:8080", origin: "http://LOCALHOST:8080", changesState: true)
        == nil)
  }

  @Test func aForeignOriginIsRefusedOnlyWhereStateChanges() {
    let refusal = loopback.refusal(
      host: "127.0.0.1:8080", origin: "http://evil.example", changesState: true)
    #expect(refusal?.contains("http://evil.example") == true)
    #expect(
      loopback.refusal(host: "127.0.0.1:8080", origin: "http://evil.example", changesState: false)
        == nil)
    // Another port on the same machine is another origin.
    #expect(
      loopback.refusal(host: "127.0.0.1:8080", origin: "http://127.0.0.1:9000", changesState: true)
        != nil)
  }

  @Test func aLoopbackServerAnswersOnlyToLoopbackHostNames() {
    #expect(loopback.refusal(host: "evil.example:8080", origin: nil, changesState: false) != nil)
    #expect(loopback.refusal(host: "127.0.0.1:9999", origin: nil, changesState: false) != nil)
    #expect(loopback.refusal(host: nil, origin: nil, changesState: false) != nil)
    #expect(loopback.refusal(host: "[::1]:8080", origin: nil, changesState: false) == nil)
  }

  @Test func aServerOnEveryInterfaceChecksOriginAgainstHost() {
    let open = OriginPolicy(port: 8080, loopbackOnly: false)
    #expect(open.refusal(host: "studio.lan:8080", origin: nil, changesState: false) == nil)
    #expect(
      open.refusal(host: "studio.lan:8080", origin: "http://studio.lan:8080", changesState: true)
        == nil)
    #expect(
      open.refusal(host: "studio.lan:8080", origin: "http://evil.example", changesState: true)
        != nil)
  }
}
