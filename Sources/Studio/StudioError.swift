/// Why the studio server could not start, or why a ``LiveClient`` could not connect, send or receive.
public struct StudioError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A sentence naming the problem.
  public var message: String

  /// Creates an error with `message`.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}
