import Foundation
import TestSupport
import Testing

/// `info` reads headers only: an image over the pixel limit is described (exit 0) and said to be over
/// it, while the commands that decode it refuse it.
@Suite struct InfoPixelLimitTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("info-limit") }

  /// The one JSON object `info --json` prints for one file.
  func object(_ result: CLIRunner.Result) throws -> [String: Any] {
    try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
      ?? [:]
  }

  /// Checks what `info` and `apply` say of the image at `path`, `side` × `side` pixels.
  func checkDescribedButRefused(_ path: String, side: Int, scratch root: URL) throws {
    let info = try CLIRunner.run(["info", path])
    #expect(info.status == 0, "\(info.standardError)")
    #expect(info.standardError.isEmpty, "\(info.standardError)")
    #expect(
      info.standardOutput.hasPrefix("\(path): \(side)×\(side), 3 bands, uchar, srgb"),
      "\(info.standardOutput)")
    #expect(
      info.standardOutput.hasSuffix(
        "pngload; \(side * side) pixels, over the pixel limit of 100000000: apply, batch and the "
          + "other commands that decode it refuse it (unless given a larger --pixel-limit)\n"),
      "\(info.standardOutput)")

    let json = try object(try CLIRunner.run(["info", path, "--json"]))
    #expect(json["width"] as? Int == side && json["height"] as? Int == side)
    #expect(json["overPixelLimit"] as? Bool == true)
    #expect(json["error"] == nil)

    // A limit above the picture: no note, and not over it.
    let raised = try CLIRunner.run(["info", path, "--pixel-limit", "\(side * side)"])
    #expect(raised.status == 0)
    #expect(raised.standardOutput.hasSuffix(", pngload\n"), "\(raised.standardOutput)")
    let raisedJSON = try object(
      try CLIRunner.run(["info", path, "--pixel-limit", "\(side * side)", "--json"]))
    #expect(raisedJSON["overPixelLimit"] as? Bool == false)

    let output = root.appendingPathComponent("out.png").path
    let apply = try CLIRunner.run(["apply", path, "-o", output])
    #expect(apply.status == 1)
    #expect(apply.standardError.contains("over the pixel limit"), "\(apply.standardError)")
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test func aPNGHeaderClaimingFourBillionPixelsIsDescribed() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    let bomb = root.appendingPathComponent("bomb.png")
    try HostileCorpus.pngHeaderOnly(width: 65536, height: 65536).write(to: bomb)
    try checkDescribedButRefused(bomb.path, side: 65536, scratch: root)
  }

  @Test func anImageWithinTheLimitSaysSo() throws {
    let rocket = CLIRunner.sample("rocket.jpg")
    let json = try object(try CLIRunner.run(["info", rocket, "--json"]))
    #expect(json["overPixelLimit"] as? Bool == false)
    let line = try CLIRunner.run(["info", rocket, "--pixel-limit", "273280"])
    #expect(
      line.standardOutput
        == "\(rocket): 640×427, 3 bands, uchar, srgb, orientation 1, ICC yes, jpegload\n")
    let over = try CLIRunner.run(["info", rocket, "--pixel-limit", "273279"])
    #expect(over.status == 0)
    #expect(over.standardOutput.contains("; 273280 pixels, over the pixel limit of 273279: "))
  }

  @Test(.enabled(if: RealFiles.available)) func sharpsPNGOfFourBillionPixelsIsDescribed() throws {
    let root = try scratch()
    defer { try? FileManager.default.removeItem(at: root) }
    try checkDescribedButRefused(
      RealFiles.path("damaged/65536-uint32-limit.png"), side: 65536, scratch: root)
  }
}
