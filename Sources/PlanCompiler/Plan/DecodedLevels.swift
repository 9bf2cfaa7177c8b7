/// Light of every input code in each transfer, computed once per process and shared by all tables.
package enum DecodedLevels {
  private static let srgb8 = levels(.sRGB, maxCode: 255)
  private static let srgb16 = levels(.sRGB, maxCode: 65535)
  private static let hlg8 = levels(.hlg, maxCode: 255)
  private static let hlg16 = levels(.hlg, maxCode: 65535)
  private static let pq8 = levels(.pq, maxCode: 255)
  private static let pq16 = levels(.pq, maxCode: 65535)

  /// `transfer.decode(code / maxCode)` for every code of a depth given by its largest code (255 or 65535).
  package static func levels(maxCode: Int, transfer: ColourEncoding.Transfer) -> [Double] {
    switch (transfer, maxCode == 255) {
    case (.sRGB, true): srgb8
    case (.sRGB, false): srgb16
    case (.hlg, true): hlg8
    case (.hlg, false): hlg16
    case (.pq, true): pq8
    case (.pq, false): pq16
    }
  }

  private static func levels(_ transfer: ColourEncoding.Transfer, maxCode: Int) -> [Double] {
    (0...maxCode).map { transfer.decode(Double($0) / Double(maxCode)) }
  }
}
