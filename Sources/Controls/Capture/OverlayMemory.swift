import Foundation

/// Remembers, per app, which control the overlay showed last, in a small file so later runs remember too.
///
/// The file is `<directory>/<appIdentifier>.last-control` and holds the control's `memoryKey`.
public struct OverlayMemory: Sendable, Hashable {
  /// The app whose choice is remembered.
  public let appIdentifier: String
  /// The folder holding the files.
  public let directory: URL

  /// `$XDG_STATE_HOME/framedial`, else `~/.local/state/framedial`.
  public static var defaultDirectory: URL {
    if let state = ProcessInfo.processInfo.environment["XDG_STATE_HOME"], !state.isEmpty {
      return URL(fileURLWithPath: state).appendingPathComponent("framedial")
    }
    return FileManager.default.homeDirectoryForCurrentUser
      .appendingPathComponent(".local/state/framedial")
  }

  /// Creates a memory for `appIdentifier` in `directory`.
  ///
  /// - Throws: `OverlayMemoryError.invalidAppIdentifier` unless the identifier is 1–200 characters of
  ///   letters, digits, `.`, `-` and `_` and does not start with a dot.
  public init(appIdentifier: String, directory: URL = OverlayMemory.defaultDirectory)
    throws(OverlayMemoryError)
  {
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-_"))
    guard (1...200).contains(appIdentifier.count), !appIdentifier.hasPrefix("."),
      appIdentifier.unicodeScalars.allSatisfy({ $0.isASCII && allowed.contains($0) })
    else {
      throw .invalidAppIdentifier(appIdentifier)
    }
    self.appIdentifier = appIdentifier
    self.directory = directory
  }

  /// The file that holds the remembered control.
  public var fileURL: URL { directory.appendingPathComponent("\(appIdentifier).last-control") }

  /// The remembered control's `memoryKey`, or `nil` when nothing (readable) is stored.
  public func lastControlKey() -> String? {
    guard let data = try? Data(contentsOf: fileURL), let text = String(data: data, encoding: .utf8)
    else {
      return nil
    }
    let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return key.isEmpty ? nil : key
  }

  /// Stores `key`, creating the folder if needed and replacing the file atomically.
  ///
  /// - Throws: `OverlayMemoryError.cannotWrite` naming the file.
  public func remember(_ key: String) throws(OverlayMemoryError) {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try Data((key + "\n").utf8).write(to: fileURL, options: .atomic)
    } catch {
      throw .cannotWrite(path: fileURL.path, reason: error.localizedDescription)
    }
  }
}

/// The overlay memory cannot be used.
public enum OverlayMemoryError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
  /// The app identifier cannot name a file.
  case invalidAppIdentifier(String)
  /// The memory file cannot be written.
  case cannotWrite(path: String, reason: String)

  /// A complete sentence describing the problem.
  public var description: String {
    switch self {
    case .invalidAppIdentifier(let identifier):
      "The app identifier \"\(identifier)\" is not valid; allowed: 1 … 200 ASCII letters, digits, \".\", \"-\" and \"_\", not starting with \".\"."
    case .cannotWrite(let path, let reason):
      "The last-used control cannot be saved to \(path): \(reason)."
    }
  }

  /// The same text as `description`.
  public var errorDescription: String? { description }
}
