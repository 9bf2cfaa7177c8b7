/// Why the studio server could not start, or why a ``LiveClient`` could not connect, send or receive.
public struct StudioError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of problem stopped the server from starting, where a caller may answer it differently.
  public enum Problem: Sendable, Equatable {
    /// The address to listen on is not an IP address (a mistake in what was asked).
    case notAnIPAddress
    /// Another socket already listens on the address and port.
    case addressInUse
  }

  /// A sentence naming the problem.
  public var message: String
  /// The kind of problem, when it is one of ``Problem``'s.
  public var problem: Problem?

  /// Creates an error with `message` and, optionally, its kind.
  public init(_ message: String, problem: Problem? = nil) {
    self.message = message
    self.problem = problem
  }

  /// The message.
  public var description: String { message }
}
