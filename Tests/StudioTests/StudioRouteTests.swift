import Testing

@testable import Studio

/// The fixed paths and methods: everything else is 404 or 405, whatever it spells.
@Suite struct StudioRouteTests {
  @Test func knownPathsResolveWithTheirMethods() {
    #expect(StudioRoute.resolve(method: "GET", path: "/") == .route(.page, isPost: false))
    #expect(StudioRoute.resolve(method: "GET", path: "/state") == .route(.state, isPost: false))
    #expect(StudioRoute.resolve(method: "POST", path: "/state") == .route(.state, isPost: true))
    #expect(StudioRoute.resolve(method: "GET", path: "/frame.jpg") == .route(.frame, isPost: false))
    #expect(StudioRoute.resolve(method: "GET", path: "/live") == .route(.live, isPost: false))
    #expect(
      StudioRoute.resolve(method: "GET", path: "/capture.jpg") == .route(.capture, isPost: false))
    #expect(StudioRoute.resolve(method: "GET", path: "/look.cube") == .route(.look, isPost: false))
    #expect(StudioRoute.resolve(method: "POST", path: "/record") == .route(.record, isPost: true))
    #expect(
      StudioRoute.resolve(method: "GET", path: "/timeline.jsonl")
        == .route(.timeline, isPost: false))
    #expect(
      StudioRoute.resolve(method: "POST", path: "/capture.jpg")
        == .methodNotAllowed(allowed: "GET"))
  }

  @Test func otherMethodsAre405WithTheAllowedOnes() {
    #expect(
      StudioRoute.resolve(method: "POST", path: "/frame.jpg") == .methodNotAllowed(allowed: "GET"))
    #expect(
      StudioRoute.resolve(method: "DELETE", path: "/state")
        == .methodNotAllowed(allowed: "GET, POST"))
    #expect(StudioRoute.resolve(method: "HEAD", path: "/") == .methodNotAllowed(allowed: "GET"))
  }

  @Test(arguments: [
    "/../Package.swift", "/%2e%2e/x", "/studio.js/..", "//state", "/state/", "/STATE",
    "/index.html",
    "/Page/studio.js", "", "/frame.jpg?x",
  ])
  func anyOtherPathIsNotFound(path: String) {
    #expect(StudioRoute.resolve(method: "GET", path: path) == .notFound)
  }
}
