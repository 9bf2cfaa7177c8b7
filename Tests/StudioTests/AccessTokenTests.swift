import Foundation
import Testing

@testable import Studio

/// The token a studio listening beyond this machine asks for: random, and found only where the page
/// and its URL carry it.
@Suite struct AccessTokenTests {
  @Test func tokensAre32RandomHexDigits() throws {
    let first = try AccessToken.random()
    let second = try AccessToken.random()
    #expect(first.value.count == 32 && first.value.allSatisfy(\.isHexDigit))
    #expect(first != second)
  }

  @Test func theTokenIsFoundInTheQueryOrTheCookieOnly() {
    let token = AccessToken("0123456789abcdef0123456789abcdef")
    #expect(token.admits(query: "token=0123456789abcdef0123456789abcdef", cookie: nil))
    #expect(token.admits(query: "a=1&token=0123456789abcdef0123456789abcdef", cookie: nil))
    #expect(
      token.admits(query: nil, cookie: "x=1; framedial-token=0123456789abcdef0123456789abcdef"))
    #expect(!token.admits(query: nil, cookie: nil))
    #expect(!token.admits(query: "token=0123456789abcdef0123456789abcdee", cookie: nil))
    #expect(!token.admits(query: "token=0123456789abcdef", cookie: nil))
    #expect(!token.admits(query: "xtoken=0123456789abcdef0123456789abcdef", cookie: nil))
    #expect(
      !token.admits(query: nil, cookie: "other-token=0123456789abcdef0123456789abcdef"))
    #expect(token.cookie.contains("HttpOnly") && token.cookie.contains("SameSite=Strict"))
  }
}
