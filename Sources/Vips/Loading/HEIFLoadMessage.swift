/// libvips's messages from its HEIF loader restated as FrameDial's: `damaged HEIF: ` (or `unsupported
/// HEIF: `) and libheif's reason, without libvips's operation names and libheif's error codes.
///
/// libvips writes libheif's errors as `heif: REASON (CODE.SUBCODE)` and its own as
/// `heifload_buffer: REASON`; libheif words an error of a decoder plugin (FFmpeg's HEVC decoder, which
/// FrameDial gives it) as `Decoder plugin generated an error: Unspecified: REASON`.
enum HEIFLoadMessage {
  /// `line`, one line of libvips's error buffer, restated when it comes from the HEIF loader; nil for
  /// the `(CODE.SUBCODE)` libvips leaves on a line of its own after a reason that ends in a newline;
  /// any other line as it is.
  static func restated(_ line: String) -> String? {
    if isErrorCode(line[...]) { return nil }
    let prefixes = ["heif: ", "heifload: ", "heifload_buffer: ", "heifload_source: "]
    guard let prefix = prefixes.first(where: line.hasPrefix) else { return line }
    var reason = line.dropFirst(prefix.count)
    if let space = reason.lastIndex(of: " "), isErrorCode(reason[reason.index(after: space)...]) {
      reason = reason[..<space]
    }
    let plugin = "Decoder plugin generated an error: "
    if reason.hasPrefix(plugin) {
      reason = reason.dropFirst(plugin.count)
      if reason.hasPrefix("Unspecified: ") { reason = reason.dropFirst("Unspecified: ".count) }
    }
    let kind = reason.hasPrefix("Unsupported") ? "unsupported HEIF" : "damaged HEIF"
    // libheif's own check of the NAL units' sizes, before any decoder sees them: a unit that claims
    // more bytes than its item holds, as in a file cut short (HEIF's HEIFError says the same of
    // libheif's own API).
    if reason.contains("a NAL unit size is invalid") {
      return "\(kind): the HEVC data is cut short or damaged (libheif: \(reason))"
    }
    return "\(kind): \(reason)"
  }

  /// True for libheif's error code as libvips writes it: `(2.104)`.
  private static func isErrorCode(_ text: Substring) -> Bool {
    guard text.hasPrefix("("), text.hasSuffix(")") else { return false }
    let numbers = text.dropFirst().dropLast().split(
      separator: ".", omittingEmptySubsequences: false)
    return numbers.count == 2 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
  }
}
