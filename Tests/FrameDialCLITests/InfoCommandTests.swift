import Foundation
import Testing

@Suite struct InfoCommandTests {
  @Test func versionAndHelp() throws {
    let version = try CLIRunner.run(["--version"])
    #expect(version.status == 0)
    #expect(version.standardOutput.hasPrefix("framedial "))
    #expect(version.standardOutput.contains("libvips 8."))
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
