import Foundation
import RowKernels
import TestSupport
import Testing

@Suite struct InfoCommandTests {
  @Test func jsonHasOneObjectPerFileAndErrorsNameTheCommand() throws {
    let result = try CLIRunner.run(["info", "--json", CLIRunner.sample("coffee.png"), "/dev/zero"])
    #expect(result.status == 1)
    let lines = result.standardOutput.split(separator: "\n").map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }
    #expect(lines.count == 2)
    #expect(lines[0]["width"] as? Int == 600 && lines[0]["height"] as? Int == 400)
    #expect(lines[0]["loader"] as? String == "pngload" && lines[0]["bands"] as? Int == 3)
    #expect(lines[1]["error"] as? String == "/dev/zero: not a regular file")
    #expect(result.standardError == "framedial info: /dev/zero: not a regular file\n")
  }

  @Test func devicesJsonCarriesScreensAndCameras() throws {
    let result = try CLIRunner.run(["devices", "--json"])
    #expect(result.status == 0)
    let devices = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    #expect(devices.count == 50)
    let pro = try #require(devices.first { $0["id"] as? String == "iphone-16-pro" })
    #expect(pro["cameraControl"] as? Bool == true && pro["scale"] as? Int == 3)
    #expect(pro["lensSwitchOvers"] as? [String] == ["1×", "5×"])
    #expect((pro["pixels"] as? [String: Int]) == ["width": 1206, "height": 2622])
    let webcam = try #require(devices.last)
    #expect(webcam["id"] as? String == "webcam" && webcam["pixels"] is NSNull)
  }

  @Test func versionAndHelp() throws {
    let version = try CLIRunner.run(["--version"])
    #expect(version.status == 0)
    #expect(version.standardOutput.hasPrefix("framedial "))
    #expect(version.standardOutput.contains("libvips 8."))
    #expect(version.standardOutput.contains("kernels \(KernelPath.current)"))
    let help = try CLIRunner.run(["--help"])
    #expect(help.status == 0)
    #expect(help.standardOutput.contains("info"))
    let infoHelp = try CLIRunner.run(["info", "--help"])
    #expect(infoHelp.status == 0)
    #expect(infoHelp.standardOutput.contains("usage: framedial info FILE"))
  }

  @Test func oneLinePerFileWithHeaderFacts() throws {
    let result = try CLIRunner.run([
      "info", CLIRunner.sample("rocket_exif_rotated.jpg"), CLIRunner.sample("coffee.heic"),
    ])
    #expect(result.status == 0)
    let lines = result.standardOutput.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(
      lines[0].hasSuffix(
        "rocket_exif_rotated.jpg: 427×640, 3 bands, uchar, srgb, orientation 6, ICC yes, jpegload"))
    #expect(
      lines[1].hasSuffix(
        "coffee.heic: 600×400, 3 bands, uchar, srgb, orientation 1, ICC no, heifload"))
  }

  @Test func missingFileIsReportedAfterTheOthersWithExitOne() throws {
    let result = try CLIRunner.run([
      "info", "/no/such/file.jpg", CLIRunner.sample("rocket.jpg"),
    ])
    #expect(result.status == 1)
    #expect(result.standardOutput.contains("rocket.jpg: 640×427"))
    #expect(result.standardError.contains("/no/such/file.jpg: no such file"))
  }

  @Test func usageErrorsExitTwo() throws {
    #expect(try CLIRunner.run(["info"]).status == 2)
    let unknown = try CLIRunner.run(["info", "--bogus", CLIRunner.sample("rocket.jpg")])
    #expect(unknown.status == 2)
    #expect(unknown.standardError.contains("unknown option --bogus"))
    #expect(try CLIRunner.run(["frobnicate"]).status == 2)
    #expect(try CLIRunner.run(["info", "--pixel-limit", "many", "x.jpg"]).status == 2)
  }
}
