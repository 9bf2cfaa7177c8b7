/// A JPEG that libjpeg cannot read, or finds damaged; the message says why.
public struct JPEGError: Error, Equatable, CustomStringConvertible, Sendable {
  /// What went wrong.
  public let message: String

  /// Creates an error with `message`.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }

  /// The text libjpeg left in a C message buffer, up to its first NUL.
  static func text(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
