extension ColourLUT {
  /// The table as an Adobe / DaVinci Resolve `.cube` file: a title, `LUT_3D_SIZE`, the 0 … 1 domain, then
  /// one `R G B` line per node, red varying fastest, values with six decimals (a millionth, well below a
  /// 16-bit code value). `comment` lines come first, each after `# `.
  public func cubeText(title: String, comments: [String] = []) -> String {
    var text = ""
    text.reserveCapacity(values.count * 27 + 200)
    for comment in comments { text += "# " + Self.oneLine(comment) + "\n" }
    let quoted = Self.oneLine(title).replacingOccurrences(of: "\"", with: "'")
    text += "TITLE \"\(quoted)\"\n"
    text += "LUT_3D_SIZE \(size)\n"
    text += "DOMAIN_MIN 0.0 0.0 0.0\n"
    text += "DOMAIN_MAX 1.0 1.0 1.0\n"
    for value in values {
      text +=
        Self.decimal(value.x) + " " + Self.decimal(value.y) + " " + Self.decimal(value.z) + "\n"
    }
    return text
  }

  /// `value` (0 … 1) with six decimals, the same in every locale.
  static func decimal(_ value: Double) -> String {
    let millionths = Int((min(max(value, 0), 1) * 1_000_000).rounded())
    let fraction = String(millionths % 1_000_000)
    return "\(millionths / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count)
      + fraction
  }

  /// `text` with line breaks and other control characters replaced by spaces.
  private static func oneLine(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
  }
}
