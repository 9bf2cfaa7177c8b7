import Foundation
import Measurement

/// What a user pays for each run of a command from a shell loop or another program: `framedial
/// --version` against `vips --version`, and a small photo through `framedial apply --size 256` against
/// `vipsthumbnail -s 256`. Each round runs every command once, the order turned each round, after
/// warm-up runs that bring the binaries and libraries into the page cache.
struct StartupBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// The small photo's width (the sample photo reduced by libvips, `vips thumbnail`).
  static let smallWidth = 640

  /// How the small photo is made, for the report.
  static let inputDescription =
    "small.jpg: the sample photo reduced to \(smallWidth) pixels wide by `vips thumbnail "
    + "SampleImages/rocket.jpg small.jpg \(smallWidth)` (libvips's default JPEG quality)"

  func run() throws -> [CommandPairResult] {
    let framedial = try BatchBenchmark.framedialBinary()
    let vips = try ChildProcess.libvipsTool("vips")
    let thumbnailer = try BatchBenchmark.vipsthumbnailBinary()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-startup-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let small = folder.appendingPathComponent("small.jpg").path
    try Self.check(
      ChildProcess.run(vips, ["thumbnail", options.imagePath, small, String(Self.smallWidth)]),
      "vips thumbnail")
    let ours = folder.appendingPathComponent("framedial.jpg").path
    let theirs = folder.appendingPathComponent("vipsthumbnail.jpg").path
    let pairs = [
      CommandPairs.Pair(
        name: "--version", framedial: (framedial, ["--version"]), anchor: (vips, ["--version"])),
      CommandPairs.Pair(
        name: "apply small.jpg --size 256",
        framedial: (framedial, ["apply", small, "-o", ours, "--size", "256", "--overwrite"]),
        anchor: (thumbnailer, [small, "-s", "256", "-o", theirs])),
    ]
    let rounds = options.quick ? 10 : 40
    progress("startup: \(pairs.count) comparisons × \(rounds) rounds, in turns")
    return try CommandPairs.time(pairs, rounds: rounds, warmUpRounds: 3, folder: folder.path)
  }

  /// Throws unless the child exited 0.
  private static func check(_ exit: ChildProcess.Exit, _ name: String) throws {
    guard exit.code == 0 else { throw ChildProcessError("\(name) exited \(exit.code)") }
  }
}
