/// An error from FrameDial's row kernels: tables, sizes or frames they cannot take, or memory they could
/// not get; the message says which.
public struct RowKernelError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What went wrong, as a complete sentence.
  public let message: String

  /// Creates an error with `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}
