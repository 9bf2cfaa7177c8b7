import CFFmpeg

/// A failure of the video layer: the file, what was being done, and FFmpeg's own reason.
public struct VideoError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The whole message, naming the file.
  public let message: String

  /// An error with `message` as it is.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }

  /// FFmpeg's words for the error code `code` (`av_strerror`).
  static func reason(_ code: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    _ = av_strerror(code, &buffer, buffer.count)
    let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Returns `code` when it is not negative; throws "`context`: FFmpeg's reason" when it is.
  @discardableResult
  static func check(_ code: Int32, _ context: @autoclosure () -> String) throws(VideoError) -> Int32
  {
    guard code < 0 else { return code }
    throw VideoError("\(context()): \(reason(code))")
  }
}
