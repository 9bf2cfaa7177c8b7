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
