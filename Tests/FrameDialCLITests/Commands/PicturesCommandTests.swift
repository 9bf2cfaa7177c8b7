import Foundation
import TestSupport
import Testing
import Vips

@Suite struct PicturesCommandTests {
  func scratch() throws -> URL { try CLIRunner.scratchFolder("pictures") }

  @Test func devicesListsTheCatalogWithItsSource() throws {
    let result = try CLIRunner.run(["devices"])
    #expect(result.status == 0)
    let line = try #require(
      result.standardOutput.split(separator: "\n").first { $0.hasPrefix("iphone-16-pro ") })
    #expect(line.contains("402×874") && line.contains("@3x") && line.contains("1206×2622"))
    #expect(line.hasSuffix("yes             0.5×–25×  1× 5×   -8…8 EV"))
    #expect(result.standardOutput.contains("Human Interface Guidelines, Layout"))
  }

  @Test func previewWritesTheDeviceScreen() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("preview.png").path
    let result = try CLIRunner.run([
      "preview", CLIRunner.sample("rocket.jpg"), "-o", output, "--device", "iphone-16",
      "--orientation", "landscape", "--control", "zoom", "--set", "zoom=2", "--grid",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let image = try Image(contentsOf: output)
    #expect(image.width == 2556 && image.height == 1179)
    #expect(result.standardOutput.contains("overlay"))
  }

  @Test func unknownDeviceIsAUsageErrorListingTheCatalog() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("preview.png").path
    let result = try CLIRunner.run([
      "preview", CLIRunner.sample("rocket.jpg"), "-o", output, "--device", "pixel-9",
    ])
    #expect(result.status == 2)
    #expect(result.standardError.contains("unknown device 'pixel-9'"))
    #expect(result.standardError.contains("iphone-16-pro-max"))
    #expect(!FileManager.default.fileExists(atPath: output))
    let fit = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", output, "--fit", "iphone-16:upside",
    ])
    #expect(fit.status == 2)
    let mode = try CLIRunner.run([
      "apply", CLIRunner.sample("rocket.jpg"), "-o", output, "--fit-mode", "contain",
    ])
    #expect(mode.status == 2 && mode.standardError.contains("--fit-mode needs --fit"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
  }

  @Test func fitTurnsTheScreenToMatchEachPhotoUnlessAnOrientationIsGiven() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    // rocket.jpg is 640 × 427; rocket_exif_rotated.jpg stores 427 × 640 pixels with EXIF orientation 6,
    // which turns them back to the same 640 × 427 landscape photo: the screen follows the upright photo.
    for (sample, fit, want) in [
      ("rocket.jpg", "iphone-16-pro", (2622, 1206)),
      ("rocket_exif_rotated.jpg", "iphone-16-pro", (2622, 1206)),
      ("rocket.jpg", "iphone-16-pro:auto", (2622, 1206)),
      ("rocket.jpg", "iphone-16-pro:portrait", (1206, 2622)),
      ("rocket_exif_rotated.jpg", "iphone-16-pro:portrait", (1206, 2622)),
    ] {
      let output = folder.appendingPathComponent("\(sample)-\(fit).jpg").path
      let result = try CLIRunner.run([
        "apply", CLIRunner.sample(sample), "-o", output, "--fit", fit,
      ])
      #expect(result.status == 0, "\(result.standardError)")
      let header = try Image.probe(output)
      #expect(header.width == want.0 && header.height == want.1, "\(sample) \(fit)")
    }
  }

  @Test func applyFitAndSweepWriteTheirSizes() throws {
    let folder = try scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fitted = folder.appendingPathComponent("fitted.jpg").path
    let apply = try CLIRunner.run([
      "apply", CLIRunner.sample("coffee.png"), "-o", fitted, "--fit", "iphone-se-4:landscape",
      "--fit-mode", "contain",
    ])
    #expect(apply.status == 0, "\(apply.standardError)")
    let image = try Image(contentsOf: fitted)
    // 600 × 400 inside 1136 × 640: the height decides, 960 × 640.
    #expect(image.width == 960 && image.height == 640)
    let sheet = folder.appendingPathComponent("sweep.png").path
    let sweep = try CLIRunner.run([
      "sweep", CLIRunner.sample("coffee.png"), "-o", sheet, "--control", "filter", "--values",
      "none,mono,sepia",
    ])
    #expect(sweep.status == 0, "\(sweep.standardError)")
    #expect(sweep.standardOutput.contains("3 tiles of 400×267: None, Mono, Sepia"))
    let bad = try CLIRunner.run([
      "sweep", CLIRunner.sample("coffee.png"), "-o", sheet + ".2.png", "--control", "ev",
      "--values", "0,nope",
    ])
    #expect(bad.status == 2)
    #expect(!FileManager.default.fileExists(atPath: sheet + ".2.png"))
  }
}
