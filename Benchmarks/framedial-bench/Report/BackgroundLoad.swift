import Foundation
import Measurement

#if canImport(Glibc)
  import Glibc
#endif

/// How much CPU other processes used while a measurement ran, so a reader can judge a shared machine's
/// noise: the machine's busy time from /proc/stat minus this process's own CPU time (all its threads,
/// libvips workers included), per second of wall time, in cores.
struct BackgroundLoad {
  private let wall: ContinuousClock.Instant
  private let machineBusy: Double
  private let ownBusy: Double

  /// A sample taken now.
  init() {
    wall = ContinuousClock.now
    machineBusy = Self.machineBusySeconds()
    ownBusy = Timing.processCPUSeconds()
  }

  /// Cores other processes kept busy on average since `self` was taken (NaN when /proc/stat is
  /// unreadable).
  func otherCoresSince() -> Double {
    let now = BackgroundLoad()
    let seconds = Timing.seconds(from: wall, to: now.wall)
    guard seconds > 0, machineBusy.isFinite, now.machineBusy.isFinite else { return .nan }
    return max(0, ((now.machineBusy - machineBusy) - (now.ownBusy - ownBusy)) / seconds)
  }

  /// Seconds all CPUs spent busy since boot (user, nice, system, irq, softirq, steal).
  private static func machineBusySeconds() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
      let line = text.split(separator: "\n").first, line.hasPrefix("cpu ")
    else { return .nan }
    let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard fields.count >= 8 else { return .nan }
    let busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]
    return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
