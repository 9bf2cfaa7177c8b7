import Foundation
// `JSONValue`, `EchoText` and the JSON reader and writer live in the JSON module; users of Controls see
// them as before.
@_exported import JSON

extension JSONValue {
  /// Reads one JSON document strictly (see ``read(_:)``), its problem as a control state's.
  ///
  /// - Throws: ``ControlStateError/invalidJSON(_:)`` naming the problem, its line and its column.
  public static func parse(_ data: Data) throws(ControlStateError) -> JSONValue {
    do {
      return try read(data)
    } catch {
      throw .invalidJSON(error.description)
    }
  }
}
