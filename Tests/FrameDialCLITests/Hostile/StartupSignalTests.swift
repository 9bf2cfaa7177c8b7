import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A signal sent as `framedial` starts, before or while its command installs its trap, ends the run
/// as one sent later does: never a run that completes as if no signal had come.
@Suite struct StartupSignalTests {
  /// True once the process `pid` blocks, ignores or catches `signal` (its main thread's mask and the
  /// process's dispositions, as /proc/PID/status shows them), or has gone.
  func touches(_ signal: Int32, pid: pid_t) -> Bool {
    let descriptor = open("/proc/\(pid)/status", O_RDONLY)
    guard descriptor >= 0 else { return true }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return true }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
    if text.contains("State:\tZ") { return true }
    let bit = UInt64(1) << UInt64(signal - 1)
    for line in text.split(separator: "\n")
    where line.hasPrefix("SigBlk:") || line.hasPrefix("SigIgn:") || line.hasPrefix("SigCgt:") {
      let hex = line.split(separator: "\t").last.map(String.init) ?? ""
      if let mask = UInt64(hex, radix: 16), mask & bit != 0 { return true }
    }
    return false
  }

  @Test func aSignalSentAsTheProcessStartsEndsTheRunWithNoOutput() throws {
    let root = try CLIRunner.scratchFolder("startup-signals")
    defer { try? FileManager.default.removeItem(at: root) }
    let clip = root.appendingPathComponent("clip.mp4")
    try VideoClips.make(
      clip, VideoClips.testSource(seconds: 0.4) + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
    var endings: [String: Int] = [:]
    // 50 runs: 30 signalled the moment the process first touches the signal (blocks, ignores or
    // catches it: the start-up window in which a trap is being set up), 20 right after the spawn.
    for run in 0..<50 {
      let signal = run % 2 == 0 ? SIGINT : SIGTERM
      let folder = root.appendingPathComponent("run\(run)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let errors = root.appendingPathComponent("run\(run).err")
      let process = try ShellStartedProcess(
        ["video", clip.path, "-o", folder.appendingPathComponent("out.mp4").path],
        errors: errors.path)
      if run < 30 {
        let end = Date().addingTimeInterval(10)
        while !touches(signal, pid: process.pid), Date() < end {}
      }
      process.send(signal)
      let ending = process.wait()
      let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
      endings["\(ending)", default: 0] += 1
      // Stopped by the trap (128 + the signal, said on standard error) or, sent before the process
      // got as far as holding signals, by the signal's default action: no work started either way.
      switch ending {
      case .exited(let code):
        #expect(code == 128 + signal, "run \(run): \(ending): \(message)")
        #expect(message.contains("framedial video: stopped by SIG"), "run \(run): \(message)")
      case .killed(let by):
        #expect(by == signal, "run \(run): \(ending)")
      }
      let left = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      #expect(left.isEmpty, "run \(run) (\(ending)) left \(left)")
    }
    #expect(endings["exited with 0"] == nil, "\(endings)")
  }
}
