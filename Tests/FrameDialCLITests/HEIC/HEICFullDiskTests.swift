import Foundation
import TestSupport
import Testing

/// A HEIC written to a full disk fails with the write's own reason ("no space left on device") and
/// leaves nothing, rather than reading back the cut file as a damaged HEIF. The disk is a 64 KB tmpfs
/// mounted for the test, which needs root (CI runs as root); without it the test is skipped.
@Suite struct HEICFullDiskTests {
  /// Mounts a tmpfs of `size` at a new folder and returns it, or nil when mounting is not possible.
  static func mountedTmpfs(size: String) -> URL? {
    guard getuid() == 0, let folder = try? CLIRunner.scratchFolder("full-disk") else { return nil }
    let mounted = try? VideoClips.run(
      "mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path])
    guard mounted?.status == 0 else {
      try? FileManager.default.removeItem(at: folder)
      return nil
    }
    return folder
  }

  /// Unmounts and removes a folder made by ``mountedTmpfs(size:)``.
  static func unmount(_ folder: URL) {
    _ = try? VideoClips.run("umount", [folder.path])
    try? FileManager.default.removeItem(at: folder)
  }

  /// True when a tmpfs can be mounted here (as root, with the mount command).
  static let canMount: Bool = {
    guard let folder = mountedTmpfs(size: "64k") else { return false }
    unmount(folder)
    return true
  }()

  @Test(.enabled(if: canMount, "mounting a tmpfs needs root"))
  func heicOnAFullDiskSaysNoSpaceLeft() throws {
    let disk = try #require(Self.mountedTmpfs(size: "64k"))
    defer { Self.unmount(disk) }
    let input = CLIRunner.sample("coffee.png")
    let output = disk.appendingPathComponent("out.heic").path
    let result = try CLIRunner.run(["apply", input, "-o", output])
    #expect(result.status == 1)
    #expect(
      result.standardError
        == "framedial apply: \(input): cannot render to \(output): no space left on device\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    // The same picture fits once there is room.
    let roomy = try #require(Self.mountedTmpfs(size: "16m"))
    defer { Self.unmount(roomy) }
    let fits = roomy.appendingPathComponent("out.heic").path
    let written = try CLIRunner.run(["apply", input, "-o", fits])
    #expect(written.status == 0, "\(written.standardError)")
  }
}
