import Foundation
import TestSupport
import Testing

/// Real HEIF files (``RealFiles``): libheif's fuzzer finds each get one line of the right kind from
/// `apply`, `info` and `batch`, and phones' and other projects' intact HEIC, HEIF and AVIF files render.
@Suite struct HEICRealFileTests {
  /// libheif's fuzzer finds and what FrameDial says of each, after `PATH: ` (libheif 1.19's words):
  /// the four that start as HEIF files are damaged ones, or of a `meta` box version no reader knows;
  /// the two that do not are no image format FrameDial knows.
  static let fuzzFinds: [(String, String)] = [
    (
      "clap-overflow-divide-zero.heic",
      "cannot read: unsupported HEIF: Unsupported feature: Unsupported data version: meta box data "
        + "version 32 is not implemented yet"
    ),
    (
      "clusterfuzz-testcase-minimized-file-fuzzer-6045213633282048.heic",
      "cannot read: damaged HEIF: Invalid input: Invalid grid data: Less than 8 bytes of data"
    ),
    (
      "crash-20ca2625096a205937b809a7841e7f019f0b2dc6.heic",
      "cannot read: unsupported HEIF: Unsupported feature: Unsupported data version: meta box data "
        + "version 63 is not implemented yet"
    ),
    ("github_15.heic", "not a known image format"),
    ("github_20.heic", "not a known image format"),
    (
      "region-mask-missing-refs.heic",
      "cannot read: unsupported HEIF: Unsupported feature: Unsupported data version: meta box data "
        + "version 32 is not implemented yet"
    ),
  ]

  @Test(.enabled(if: RealFiles.available), arguments: fuzzFinds)
  func fuzzFindGetsOneLineOfItsKind(name: String, reason: String) throws {
    let folder = try CLIRunner.scratchFolder("heif-fuzz")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = RealFiles.path("fuzz/\(name)")
    let output = folder.appendingPathComponent("out.png").path
    let apply = try CLIRunner.run(["apply", path, "-o", output])
    #expect(apply.status == 1)
    #expect(apply.standardError == "framedial apply: \(path): \(reason)\n")
    #expect(!FileManager.default.fileExists(atPath: output))
    let info = try CLIRunner.run(["info", path])
    #expect(info.status == 1)
    #expect(info.standardError == "framedial info: \(path): \(reason)\n")
    let (statuses, written) = try DamageVerdict.batch(URL(fileURLWithPath: path), scratch: folder)
    #expect(statuses == [name: "failed"])
    #expect(written.filter { !$0.hasPrefix(".") }.isEmpty)
    let batch = try CLIRunner.run(
      ["batch", path, "-o", folder.appendingPathComponent("b").path, "--json"])
    #expect(batch.standardOutput.contains("\"error\":\"\(reason)\""), "\(batch.standardOutput)")
  }

  @Test(.enabled(if: RealFiles.available))
  func intactHEIFFilesRender() throws {
    let folder = try CLIRunner.scratchFolder("heif-intact")
    defer { try? FileManager.default.removeItem(at: folder) }
    let names = try FileManager.default.contentsOfDirectory(atPath: RealFiles.path("heif"))
      .filter { ["heic", "heif", "avif"].contains(($0 as NSString).pathExtension.lowercased()) }
      .sorted()
    #expect(names.count >= 10)
    for name in names {
      let output = folder.appendingPathComponent("\(name).jpg").path
      let result = try CLIRunner.run(["apply", RealFiles.path("heif/\(name)"), "-o", output])
      #expect(result.status == 0, "\(name): \(result.standardError)")
      #expect(FileManager.default.fileExists(atPath: output), "\(name)")
    }
  }
}
