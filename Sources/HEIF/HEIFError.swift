import CHeif
import Foundation

/// An error from the libheif layer: what FrameDial was doing, and libheif's own message when it gave one.
public struct HEIFError: Error, CustomStringConvertible, Sendable, Equatable {
  /// What went wrong, as a complete sentence.
  public let message: String

  /// Creates an error with a message of FrameDial's own.
  public init(_ message: String) {
    self.message = message
  }

  /// A human-readable description of the error.
  public var description: String { message }

  /// Throws `context` followed by libheif's message when `error` is not `heif_error_Ok`.
  static func check(_ error: heif_error, _ context: @autoclosure () -> String) throws(HEIFError) {
    guard error.code != heif_error_Ok else { return }
    // libheif ends some messages with a newline, and words a decoder plugin's error as
    // "Decoder plugin generated an error: Unspecified: REASON".
    var detail = oneLine(error.message.map { String(cString: $0) } ?? "")
    for prefix in ["Decoder plugin generated an error: ", "Unspecified: "]
    where detail.hasPrefix(prefix) {
      detail.removeFirst(prefix.count)
    }
    // libheif's own check of the NAL units' sizes (Debian's 1.15.1-1+deb12u3 checks before the
    // decoder): a unit that claims more bytes than its item holds, as in a file cut short. Vips's
    // HEIFLoadMessage says the same of libvips's wording of it.
    if detail.contains("a NAL unit size is invalid") {
      detail = "the HEVC data is cut short or damaged (libheif: \(detail))"
    }
    let text = context()
    throw HEIFError(detail.isEmpty ? text : "\(text): \(detail)")
  }

  /// libheif's message as one line: some end with a newline, and a few hold several lines; each line is
  /// trimmed and the non-empty ones joined with "; ".
  static func oneLine(_ message: String) -> String {
    var lines: [Substring] = []
    for line in message.split(whereSeparator: \.isNewline) {
      guard let first = line.firstIndex(where: { !$0.isWhitespace }),
        let last = line.lastIndex(where: { !$0.isWhitespace })
      else { continue }
      lines.append(line[first...last])
    }
    return lines.joined(separator: "; ")
  }
}
