import Foundation
import Measurement

/// One comparison of two commands for the same job (a `framedial` command and an anchor: libvips's own
/// tool, or `framedial` without the part being measured), each run as a fresh process once a round.
struct CommandPairResult: Sendable, Codable {
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

/// Runs pairs of commands in turns: each round runs every command once as a new process, the order
/// of each pair turned every other round, after `warmUpRounds` rounds that bring the binaries, the
/// libraries and the inputs into the page cache and are not counted.
enum CommandPairs {
  /// A pair: its name, and the `framedial` command and the anchor as executable and arguments.
  struct Pair {
    var name: String
    var framedial: (executable: String, arguments: [String])
    var anchor: (executable: String, arguments: [String])
  }

  /// The timed pairs; `folder` is left out of the command lines reported.
  static func time(_ pairs: [Pair], rounds: Int, warmUpRounds: Int, folder: String) throws
    -> [CommandPairResult]
  {
    var times = Array(repeating: (framedial: [Double](), anchor: [Double]()), count: pairs.count)
    for round in -warmUpRounds..<rounds {
      for (index, pair) in pairs.enumerated() {
        var runs = [(true, pair.framedial), (false, pair.anchor)]
        if round % 2 != 0 { runs.reverse() }
        for (isFramedial, command) in runs {
          var exit: ChildProcess.Exit?
          let seconds = try Timing.measure {
            exit = try ChildProcess.run(command.executable, command.arguments)
          }
          if let exit, exit.code != 0 {
            throw ChildProcessError("\(command.executable) exited \(exit.code)")
          }
          guard round >= 0 else { continue }
          if isFramedial {
            times[index].framedial.append(seconds * 1000)
          } else {
            times[index].anchor.append(seconds * 1000)
          }
        }
      }
    }
    func line(_ command: (executable: String, arguments: [String])) -> String {
      ([URL(fileURLWithPath: command.executable).lastPathComponent] + command.arguments)
        .joined(separator: " ").replacingOccurrences(of: folder + "/", with: "")
    }
    return pairs.enumerated().map { index, pair in
      CommandPairResult(
        name: pair.name, framedialCommand: line(pair.framedial), anchorCommand: line(pair.anchor),
        framedialMilliseconds: times[index].framedial, anchorMilliseconds: times[index].anchor)
    }
  }
}
