import Foundation
import Measurement

/// One start-up comparison: a `framedial` command and libvips's own command for the same job, each
/// run as a fresh process once a round, in turns.
struct StartupResult: Sendable, Codable {
  /// What is compared ("--version", "apply small.jpg --size 256").
  var name: String
  /// The two command lines, as a user types them.
  var framedialCommand: String
  var anchorCommand: String
  /// Wall milliseconds from start to exit, one a round.
  var framedialMilliseconds: [Double]
  var anchorMilliseconds: [Double]

  /// The median over rounds of framedial's time over the anchor's.
  var ratio: Double? {
    guard framedialMilliseconds.count == anchorMilliseconds.count, !anchorMilliseconds.isEmpty
    else { return nil }
    return Statistics.median(
      sorted: zip(framedialMilliseconds, anchorMilliseconds).map { $0 / $1 }.sorted())
  }
}

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

  func run() throws -> [StartupResult] {
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
    let pairs: [(name: String, framedial: [String], anchor: (String, [String]))] = [
      ("--version", ["--version"], (vips, ["--version"])),
      (
        "apply small.jpg --size 256",
        ["apply", small, "-o", ours, "--size", "256", "--overwrite"],
        (thumbnailer, [small, "-s", "256", "-o", theirs])
      ),
    ]
    let rounds = options.quick ? 10 : 40
    progress("startup: \(pairs.count) comparisons × \(rounds) rounds, in turns")
    var times = Array(repeating: (framedial: [Double](), anchor: [Double]()), count: pairs.count)
    for round in -3..<rounds {
      for (index, pair) in pairs.enumerated() {
        var runs: [(isFramedial: Bool, executable: String, arguments: [String])] = [
          (true, framedial, pair.framedial), (false, pair.anchor.0, pair.anchor.1),
        ]
        if round % 2 != 0 { runs.reverse() }
        for run in runs {
          var exit: ChildProcess.Exit?
          let seconds = try Timing.measure {
            exit = try ChildProcess.run(run.executable, run.arguments)
          }
          if let exit { try Self.check(exit, run.executable) }
          // The first rounds warm the page cache and are not counted.
          guard round >= 0 else { continue }
          if run.isFramedial {
            times[index].framedial.append(seconds * 1000)
          } else {
            times[index].anchor.append(seconds * 1000)
          }
        }
      }
    }
    return pairs.enumerated().map { index, pair in
      StartupResult(
        name: pair.name,
        framedialCommand: (["framedial"] + pair.framedial).joined(separator: " ")
          .replacingOccurrences(of: folder.path + "/", with: ""),
        anchorCommand: ([URL(fileURLWithPath: pair.anchor.0).lastPathComponent] + pair.anchor.1)
          .joined(separator: " ").replacingOccurrences(of: folder.path + "/", with: ""),
        framedialMilliseconds: times[index].framedial, anchorMilliseconds: times[index].anchor)
    }
  }

  /// Throws unless the child exited 0.
  private static func check(_ exit: ChildProcess.Exit, _ name: String) throws {
    guard exit.code == 0 else { throw ChildProcessError("\(name) exited \(exit.code)") }
  }
}
