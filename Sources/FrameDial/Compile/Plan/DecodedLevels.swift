/// Linear light of every input code, computed once per process and shared by all tables.
enum DecodedLevels {
  /// `decode(code / 255)` for codes 0 … 255.
  static let depth8: [Double] = (0...255).map { SRGBTransfer.decode(Double($0) / 255) }
  /// `decode(code / 65535)` for codes 0 … 65535.
  static let depth16: [Double] = (0...65535).map { SRGBTransfer.decode(Double($0) / 65535) }

  /// The decoded levels of a depth given by its largest code (255 or 65535).
  static func levels(maxCode: Int) -> [Double] {
    maxCode == 255 ? depth8 : depth16
  }
}
