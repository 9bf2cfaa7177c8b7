import Foundation

/// Writes a file so that it appears whole or not at all: the content goes to a hidden temporary file in
/// the destination's folder, which is renamed over the destination only once it is complete.
public enum AtomicFile {
  /// The suffix every temporary file carries, so leftovers are recognisable.
  public static let temporarySuffix = ".framedial-partial"

  /// Calls `write` with a temporary path beside `destination`, then renames it to `destination`.
  /// If `write` throws, or the rename fails, the temporary file is removed and the error rethrown.
  public static func write(to destination: String, _ write: (String) throws -> Void) throws {
    let url = URL(fileURLWithPath: destination)
    let folder = url.deletingLastPathComponent().path
    let temporary = URL(fileURLWithPath: folder)
      .appendingPathComponent(
        ".\(url.lastPathComponent).\(UUID().uuidString.prefix(8))\(temporarySuffix)"
      )
      .path
    do {
      try write(temporary)
      guard rename(temporary, destination) == 0 else {
        throw RenderError(
          "\(destination): cannot move the finished file into place: \(String(cString: strerror(errno)))"
        )
      }
    } catch {
      unlink(temporary)
      throw error
    }
  }
}
