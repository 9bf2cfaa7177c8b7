import Foundation

/// The secret a studio listening beyond this machine asks of every request: 128 random bits from
/// `/dev/urandom` as 32 hexadecimal digits, printed in the page's URL (`http://HOST:PORT/?token=…`).
///
/// A request carries it in the query (`?token=…`, as the printed URL does) or in the
/// ``cookieName`` cookie, which the page gets with its first load: the page's fetches, downloads and
/// WebSocket then carry it without any change to them. The cookie is `SameSite=Strict` and `HttpOnly`, and
/// a browser sends it only to the host name that set it, so a page of another site — one whose own host
/// name points at the studio's address (DNS rebinding) included — never has it.
public struct AccessToken: Sendable, Equatable, CustomStringConvertible {
  /// The cookie the page keeps the token in.
  public static let cookieName = "framedial-token"

  /// The 32 hexadecimal digits.
  public let value: String

  /// A token of `value` (tests, or a token given by the user).
  public init(_ value: String) {
    self.value = value
  }

  /// A new token from `/dev/urandom`.
  ///
  /// - Throws: ``StudioError`` when `/dev/urandom` cannot be read.
  public static func random() throws(StudioError) -> AccessToken {
    guard let file = FileHandle(forReadingAtPath: "/dev/urandom") else {
      throw StudioError("cannot read /dev/urandom for the studio's access token")
    }
    defer { try? file.close() }
    let bytes: Data
    do {
      bytes = try file.read(upToCount: 16) ?? Data()
    } catch {
      throw StudioError("cannot read /dev/urandom for the studio's access token: \(error)")
    }
    guard bytes.count == 16 else {
      throw StudioError("cannot read 16 bytes from /dev/urandom for the studio's access token")
    }
    return AccessToken(bytes.map { String(format: "%02x", $0) }.joined())
  }

  /// The value (printed in the URL).
  public var description: String { value }

  /// True when the request's query (the part after `?`, nil when none) or its `Cookie` header carries
  /// the token.
  public func admits(query: String?, cookie: String?) -> Bool {
    let fromQuery = (query ?? "").split(separator: "&").compactMap { pair -> Substring? in
      pair.hasPrefix("token=") ? pair.dropFirst("token=".count) : nil
    }
    let fromCookie = (cookie ?? "").split(separator: ";").compactMap { pair -> Substring? in
      let trimmed = pair.drop { $0 == " " }
      return trimmed.hasPrefix(Self.cookieName + "=")
        ? trimmed.dropFirst(Self.cookieName.count + 1) : nil
    }
    return (fromQuery + fromCookie).contains { matches($0) }
  }

  /// The `Set-Cookie` value that hands the token to the page.
  var cookie: String {
    "\(Self.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict"
  }

  /// Compares in time independent of where the candidate differs.
  private func matches(_ candidate: Substring) -> Bool {
    let expected = Array(value.utf8)
    let given = Array(candidate.utf8)
    guard expected.count == given.count else { return false }
    var difference: UInt8 = 0
    for index in expected.indices { difference |= expected[index] ^ given[index] }
    return difference == 0
  }
}
