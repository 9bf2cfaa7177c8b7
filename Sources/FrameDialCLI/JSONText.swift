import Foundation

/// One JSON object as one line of text, keys sorted: what `--json` outputs print.
enum JSONText {
  /// `object` serialised on one line.
  static func line(_ object: [String: Any]) throws -> String {
    String(
      decoding: try JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
      as: UTF8.self)
  }

  /// `objects` as one JSON array on one line.
  static func line(_ objects: [[String: Any]]) throws -> String {
    String(
      decoding: try JSONSerialization.data(
        withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes]),
      as: UTF8.self)
  }
}
