import Foundation
import TestSupport

/// The real files from public projects' test suites (phones', cameras' and other projects' files) that
/// CI keeps beside the repository in `../shared/realfiles` (`FRAMEDIAL_REALFILES` names another
/// folder). They are never copied into the repository; tests that read them are enabled only when the
/// folder is there, so the README's test command passes without it.
enum RealFiles {
  /// The folder, whether or not it exists.
  static let folder: URL = {
    if let given = ProcessInfo.processInfo.environment["FRAMEDIAL_REALFILES"], !given.isEmpty {
      return URL(fileURLWithPath: given)
    }
    return CLIRunner.repository.deletingLastPathComponent()
      .appendingPathComponent("shared").appendingPathComponent("realfiles")
  }()

  /// True when the folder holds the files (its `SOURCES.md` is there).
  static var available: Bool {
    FileManager.default.fileExists(atPath: folder.appendingPathComponent("SOURCES.md").path)
  }

  /// The path of `name` (such as "heif/IMG_5195.HEIC") in the folder.
  static func path(_ name: String) -> String {
    folder.appendingPathComponent(name).path
  }
}
