import CVips

/// An error from the libvips layer: what FrameDial was doing, and libvips's own message when it gave one.
public struct VipsError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What went wrong, as a complete sentence.
  public let message: String

  /// Creates an error with a message of FrameDial's own.
  public init(_ message: String) {
    self.message = message
  }

  /// A human-readable description of the error.
  public var description: String { message }

  /// The message without the "libvips operation NAME failed: " that comes before libvips's own words
  /// (and the operation's name again, where libvips repeats it): what a user is told.
  public var reason: String {
    guard let range = message.range(of: "libvips operation ") else { return message }
    let rest = message[range.upperBound...]
    guard let failed = rest.range(of: " failed: ") else { return message }
    let operation = rest[..<failed.lowerBound]
    guard !operation.isEmpty, !operation.contains(" ") else { return message }
    var words = rest[failed.upperBound...]
    if words.hasPrefix("\(operation): ") { words = words.dropFirst(operation.count + 2) }
    return String(message[..<range.lowerBound] + words)
  }

  /// An error whose message is `context` followed by libvips's error buffer, which this call empties
  /// (libvips keeps one buffer for the process; `vips_error_buffer_copy` reads and clears it under a lock).
  static func fromLibvips(_ context: String) -> VipsError {
    let detail = takeLibvipsMessage()
    return VipsError(detail.isEmpty ? context : "\(context): \(detail)")
  }

  /// Reads and clears libvips's error buffer (through ``ErrorJournal``, which counts what it finds).
  static func takeLibvipsMessage() -> String {
    ErrorJournal.take()
  }
}
