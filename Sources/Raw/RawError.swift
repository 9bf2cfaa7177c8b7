/// A raw file that LibRaw cannot open or develop; the message names the reason.
public struct RawError: Error, Equatable, CustomStringConvertible {
  /// What went wrong, for the caller's wording.
  public enum Kind: Sendable, Equatable {
    /// LibRaw does not recognise the file (an unknown camera or format, or a file too damaged for
    /// LibRaw to tell what it is).
    case unrecognised
    /// The file is damaged: its raw data is not where or as large as the file says, or LibRaw reported
    /// damaged data while reading it.
    case damaged
    /// Anything else (memory, a development LibRaw cannot do, a call out of order).
    case failed
  }

  /// The message.
  public let message: String
  /// What went wrong.
  public let kind: Kind

  /// Creates an error with `message`.
  public init(_ message: String, kind: Kind = .failed) {
    self.message = message
    self.kind = kind
  }

  public var description: String { message }
}
