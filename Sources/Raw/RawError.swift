/// A raw file that LibRaw cannot open or develop; the message names the file and the reason.
public struct RawError: Error, Equatable, CustomStringConvertible {
  /// The message, starting with the file's name.
  public let message: String

  /// Creates an error with `message`.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
