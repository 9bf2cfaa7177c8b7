/// An error while rendering: what failed, in a sentence that names the file or frame.
public struct RenderError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What went wrong.
  public let message: String

  /// Creates an error.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
