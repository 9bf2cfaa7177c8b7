import Foundation

/// Paths to the repository's sample images and scratch folders for tests.
enum Samples {
  static let folder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("SampleImages")

  static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  static let all = [
    "astronaut.png", "chelsea.png", "coffee.png", "coffee.heic", "grace_hopper.jpg", "rocket.jpg",
    "rocket_exif_rotated.jpg",
  ]

  /// A new empty folder under the system's temporary directory.
  static func scratchFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
