import Foundation

/// Why a text is not a JSON document FrameDial reads: the first problem found, and where.
public struct JSONReadError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The byte offset of the problem.
  public var offset: Int
  /// The line of the problem, from 1.
  public var line: Int
  /// The column of the problem, from 1, in characters.
  public var column: Int
  /// One sentence naming the problem (`the key "a" appears twice in one object`), without its place.
  public var problem: String

  /// The problem and its place: `the key "a" appears twice in one object (line 1, column 10)`.
  public var description: String { "\(problem) (line \(line), column \(column))" }
}

extension JSONText.Value {
  /// Reads one JSON document strictly (see ``JSONValue/read(_:)``), keeping the members' order and
  /// whole numbers exactly.
  public static func read(_ data: Data) throws(JSONReadError) -> JSONText.Value {
    try JSONStrictness.read(data)
  }
}
