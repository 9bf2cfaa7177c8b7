import Testing

@testable import Studio

/// Which requests a local studio answers: its own page and scripts, not other sites' pages.
@Suite struct OriginPolicyTests {
  let loopback = OriginPolicy(port: 8080, loopbackOnly: true)

  @Test func scriptsWithoutOriginAndTheOwnPageAreLetThrough() {
    #expect(loopback.refusal(host: "127.0.0.1:8080", origin: nil, guarded: true) == nil)
    #expect(
      loopback.refusal(host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", guarded: true)
        == nil)
    #expect(
      loopback.refusal(host: "localhost:8080", origin: "http://LOCALHOST:8080", guarded: true)
        == nil)
    for site in ["same-origin", "none", "Same-Origin"] {
      #expect(
        loopback.refusal(host: "127.0.0.1:8080", origin: nil, fetchSite: site, guarded: true)
          == nil)
    }
  }

  @Test func aForeignOriginIsRefusedEverywhereButThePagesOwnFiles() {
    let refusal = loopback.refusal(
      host: "127.0.0.1:8080", origin: "http://evil.example", guarded: true)
    #expect(refusal?.contains("http://evil.example") == true)
    #expect(
      loopback.refusal(host: "127.0.0.1:8080", origin: "http://evil.example", guarded: false)
        == nil)
    // Another port on the same machine is another origin.
    #expect(
      loopback.refusal(host: "127.0.0.1:8080", origin: "http://127.0.0.1:9000", guarded: true)
        != nil)
  }

  @Test func requestsABrowserMarksAsAnotherSitesAreRefused() {
    for site in ["cross-site", "same-site"] {
      let refusal = loopback.refusal(
        host: "127.0.0.1:8080", origin: nil, fetchSite: site, guarded: true)
      #expect(refusal?.contains("Sec-Fetch-Site: \(site)") == true)
      #expect(
        loopback.refusal(host: "127.0.0.1:8080", origin: nil, fetchSite: site, guarded: false)
          == nil)
    }
    #expect(StudioRoute.page.isPageFile && StudioRoute.script.isPageFile)
    #expect(!StudioRoute.capture.isPageFile && !StudioRoute.look.isPageFile)
  }

  @Test func aLoopbackServerAnswersOnlyToLoopbackHostNames() {
    #expect(loopback.refusal(host: "evil.example:8080", origin: nil, guarded: false) != nil)
    #expect(loopback.refusal(host: "127.0.0.1:9999", origin: nil, guarded: false) != nil)
    #expect(loopback.refusal(host: nil, origin: nil, guarded: false) != nil)
    #expect(loopback.refusal(host: "[::1]:8080", origin: nil, guarded: false) == nil)
    #expect(loopback.refusal(host: "127.0.0.1", origin: nil, guarded: false) != nil)
  }

  @Test func onPort80TheHostMayOmitThePortAsBrowsersWriteIt() {
    let port80 = OriginPolicy(port: 80, loopbackOnly: true)
    for host in ["127.0.0.1", "localhost", "[::1]", "127.0.0.1:80", "LOCALHOST"] {
      #expect(port80.refusal(host: host, origin: nil, guarded: false) == nil, "\(host)")
    }
    #expect(
      port80.refusal(host: "localhost", origin: "http://localhost", guarded: true) == nil)
    #expect(port80.refusal(host: "evil.example", origin: nil, guarded: false) != nil)
  }

  @Test func aServerOnEveryInterfaceChecksOriginAgainstHost() {
    let open = OriginPolicy(port: 8080, loopbackOnly: false)
    #expect(open.refusal(host: "studio.lan:8080", origin: nil, guarded: false) == nil)
    #expect(
      open.refusal(host: "studio.lan:8080", origin: "http://studio.lan:8080", guarded: true)
        == nil)
    #expect(
      open.refusal(host: "studio.lan:8080", origin: "http://evil.example", guarded: true)
        != nil)
  }
}
