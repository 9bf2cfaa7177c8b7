import Foundation
import TestSupport
import Testing

@testable import FrameDialCLI

/// The light `framedial` runs `--version` and the core commands on JPEG, PNG, GIF, WebP and TIFF photos
/// itself, without FFmpeg or libsoup in the process, and hands every other run to `framedial-full`.
@Suite struct FullCommandTests {
  /// The shared libraries the program at `path` is linked with (`ldd`).
  static func linkedLibraries(_ path: String) throws -> String {
    try CLIRunner.run([path], executable: URL(fileURLWithPath: "/usr/bin/ldd")).standardOutput
  }

  @Test func theLightProgramLinksNeitherFFmpegNorLibsoupAndTheFullOneBoth() throws {
    let light = try Self.linkedLibraries(CLIRunner.binary.path)
    let full = try Self.linkedLibraries(
      CLIRunner.productsFolder.appendingPathComponent(FullCommand.programName).path)
    for library in ["libavcodec", "libavformat", "libswscale", "libsoup"] {
      #expect(!light.contains(library), "framedial links \(library)")
      #expect(full.contains(library), "framedial-full does not link \(library)")
    }
    // HDR video is tone-mapped by FrameDial's own pass: libavfilter (and the thirty-odd libraries it
    // loads) is in neither program.
    #expect(!light.contains("libavfilter") && !full.contains("libavfilter"))
    #expect(light.contains("libvips"))
  }

  @Test func whatTheLightProgramRunsItselfAndWhatItHandsOver() throws {
    let jpeg = CLIRunner.sample("rocket.jpg")
    let png = CLIRunner.sample("coffee.png")
    let heic = CLIRunner.sample("coffee.heic")
    // Output names that name no file, wherever the tests run (an existing file is looked at).
    let out = "/nonexistent-\(UUID().uuidString)/x"
    let light: [[String]] = [
      ["--version"], ["apply", jpeg, "-o", out + ".jpg"],
      ["apply", png, "-o", out + ".png", "--size", "64"],
      ["presets"], ["controls", "--json"], ["apply", "/no/such/file.jpg", "-o", out + ".jpg"],
      ["lut", "-o", out + ".cube", "--set", "ev=0.5"],
    ]
    let full: [[String]] = [
      [], ["--help"], ["info", jpeg], ["video", "in.mp4", "-o", "out.mp4"], ["studio", jpeg],
      ["batch", "folder", "-o", out], ["apply", heic, "-o", out + ".jpg"],
      ["apply", jpeg, "-o", out + ".heic"],
      ["apply", jpeg, "-o", out + ".jpg", "--format", "AVIF"],
      ["apply", jpeg, "-o", out, "--format=heic"], ["apply", "-", "-o", out + ".jpg"],
      ["apply", CLIRunner.repository.appendingPathComponent("README.md").path, "-o", out + ".jpg"],
      ["nonsense"],
    ]
    for arguments in light {
      #expect(!FullCommand.isNeeded(for: ["framedial"] + arguments), "\(arguments)")
    }
    for arguments in full {
      #expect(FullCommand.isNeeded(for: ["framedial"] + arguments), "\(arguments)")
    }
  }

  @Test func photosAreToldByTheirFirstBytes() {
    let light: [[UInt8]] = [
      [0xFF, 0xD8, 0xFF, 0xE0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
      Array("GIF89a".utf8),
      Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8), [0x49, 0x49, 0x2A, 0x00],
      [0x4D, 0x4D, 0x00, 0x2A],
      [0x49, 0x49, 0x2B, 0x00],
    ]
    let full: [[UInt8]] = [
      [], [0xFF, 0xD8], Array("\u{0}\u{0}\u{0}\u{18}ftypheic".utf8),
      Array("RIFF\u{0}\u{0}\u{0}\u{0}AVI ".utf8),
      [0x1A, 0x45, 0xDF, 0xA3], Array("FUJIFILMCCD-RAW".utf8), [0x49, 0x49, 0x55, 0x00],
    ]
    for head in light { #expect(StillMagic.isLightPhoto(head: head), "\(head)") }
    for head in full { #expect(!StillMagic.isLightPhoto(head: head), "\(head)") }
  }

  /// Run through the light program, `info` and `video --help` are `framedial-full`'s: same output.
  @Test func aHandedOverRunIsTheFullProgramsRun() throws {
    let full = CLIRunner.productsFolder.appendingPathComponent(FullCommand.programName)
    for arguments in [["info", CLIRunner.sample("coffee.heic")], ["video", "--help"], ["--help"]] {
      let viaLight = try CLIRunner.run(arguments)
      let direct = try CLIRunner.run(arguments, executable: full)
      #expect(viaLight.status == 0, "\(arguments): \(viaLight.standardError)")
      #expect(viaLight.standardOutput == direct.standardOutput, "\(arguments)")
      #expect(viaLight.standardError == direct.standardError, "\(arguments)")
    }
  }

  /// Alone in a folder, the light program still runs what it can, and says what is missing for the rest.
  @Test func withoutTheFullProgramBesideItTheRunSaysSo() throws {
    let folder = try CLIRunner.scratchFolder("light-alone")
    defer { try? FileManager.default.removeItem(at: folder) }
    let alone = folder.appendingPathComponent("framedial")
    try FileManager.default.copyItem(at: CLIRunner.binary, to: alone)
    let version = try CLIRunner.run(["--version"], executable: alone)
    #expect(version.status == 0 && version.standardOutput.hasPrefix("framedial "))
    let video = try CLIRunner.run(["video", "--help"], executable: alone)
    #expect(video.status == 1)
    #expect(
      video.standardError.hasPrefix(
        "framedial: cannot run \(folder.appendingPathComponent("framedial-full").path) ("),
      "\(video.standardError)")
    #expect(video.standardError.contains("No such file or directory"))
    #expect(
      video.standardError.contains("build it with `swift build --product framedial-full`"),
      "\(video.standardError)")
    // A framedial-full that is there but cannot run is not a build to make.
    let full = folder.appendingPathComponent("framedial-full")
    try Data("not a program".utf8).write(to: full)
    let refused = try CLIRunner.run(["video", "--help"], executable: alone)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("Permission denied"), "\(refused.standardError)")
    #expect(!refused.standardError.contains("swift build"), "\(refused.standardError)")
  }
}
