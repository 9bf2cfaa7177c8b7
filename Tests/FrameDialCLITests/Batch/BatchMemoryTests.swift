import Foundation
import TestSupport
import Testing

@Suite struct BatchMemoryTests {
  /// The peak resident memory (VmHWM) of a running process, sampled until it exits.
  func runMeasuringPeak(_ process: Process) throws -> Int {
    try process.run()
    var peak = 0
    while process.isRunning {
      if let status = try? String(
        contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
      {
        peak = max(peak, kilobytes * 1024)
      }
      Thread.sleep(forTimeInterval: 0.01)
    }
    process.waitUntilExit()
    return peak
  }

  @Test func threeHundredImagesWithTwoJobsStayUnderTheMemoryBound() throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-memory-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    for folder in 0..<3 {
      let sub = input.appendingPathComponent("roll\(folder)")
      try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
      for index in 0..<100 {
        let sample = ["rocket.jpg", "grace_hopper.jpg", "coffee.png"][index % 3]
        try FileManager.default.copyItem(
          atPath: CLIRunner.sample(sample),
          toPath: sub.appendingPathComponent("\(index)-\(sample)").path)
      }
    }
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = [
      "batch", input.path, "-o", root.appendingPathComponent("out").path, "--jobs", "2", "--set",
      "ev=0.4",
      "--set", "saturation=1.3", "--set", "wb=tungsten", "--json",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let peak = try runMeasuringPeak(process)
    #expect(process.terminationStatus == 0)
    // Stated bound: 300 images through two jobs peak under 250 MB resident.
    #expect(peak > 0 && peak < 250 << 20, "peak \(peak >> 20) MB")
  }
}
