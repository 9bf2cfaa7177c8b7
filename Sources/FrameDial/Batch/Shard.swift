/// One part of a batch split into `count` parts: `--shard I/N` with I in 1 … N.
///
/// A file belongs to part `1 + hash(relative path) mod N` (64-bit FNV-1a of the UTF-8 path below its input
/// root), so N machines or array jobs that see the same folder split it the same way, without talking to
/// each other, whatever the folder is mounted as.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  /// This part, 1 … count.
  public let index: Int
  /// The number of parts.
  public let count: Int

  /// Parses "I/N".
  public init(parsing text: String) throws {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
      (1...count).contains(index)
    else {
      throw RenderError("--shard must be I/N with 1 ≤ I ≤ N (for example 2/8), not '\(text)'")
    }
    self.index = index
    self.count = count
  }

  /// True when the file at `relativePath` belongs to this part.
  public func contains(_ relativePath: String) -> Bool {
    Int(FNV1a.hash(relativePath) % UInt64(count)) + 1 == index
  }

  /// "I/N".
  public var description: String { "\(index)/\(count)" }
}
