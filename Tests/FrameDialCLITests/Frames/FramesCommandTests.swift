import Controls
import Foundation
import FrameDial
import TestSupport
import Testing

@Suite struct FramesCommandTests {
  static let size = "\(FramePipe.width)x\(FramePipe.height)"

  @Test(arguments: PixelFormat.allCases)
  func framesMatchTheInProcessRendererByteForByte(format: PixelFormat) throws {
    let frames = try FramePipe.frames(4, format: format)
    let state = ControlState(
      exposureBias: 0.5, zoom: 1.5, contrast: 1.2, saturation: 1.3,
      whiteBalance: .preset(.tungsten))
    let run = try FramePipe.run(
      [
        "--size", Self.size, "--pix-fmt", format.rawValue, "--set", "ev=0.5", "--set", "zoom=1.5",
        "--set", "contrast=1.2", "--set", "saturation=1.3", "--set", "wb=tungsten",
      ], input: Array(frames.joined()))
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardError.isEmpty)
    let output = FramePipe.split(run.output, frameBytes: frames[0].count)
    let expected = try FramePipe.rendered(frames, format: format, state: state)
    #expect(output.count == 4)
    #expect(output == expected)
    #expect(output != frames)
  }

  @Test func aStateFileAndAutoWhiteBalanceFollowTheSameRenderer() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-frames-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let stateFile = folder.appendingPathComponent("look.json")
    try Data(#"{"whiteBalance": "auto", "filter": "chrome"}"#.utf8).write(to: stateFile)
    let frames = try FramePipe.frames(3)
    let run = try FramePipe.run(
      ["--size", Self.size, "--state", stateFile.path], input: Array(frames.joined()))
    #expect(run.status == 0, "\(run.standardError)")
    let expected = try FramePipe.rendered(
      frames, state: ControlState(whiteBalance: .auto, filter: .chrome))
    #expect(FramePipe.split(run.output, frameBytes: frames[0].count) == expected)
  }

  @Test func aTimelineEventAtFrameThreeChangesExactlyFramesThreeOnwards() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-frames-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let timeline = folder.appendingPathComponent("events.jsonl")
    try Data(
      """
      {"time":0.3,"type":"slide","control":"exposure-bias","value":1}
      {"time":0.31,"type":"press","phase":"ended","kind":"primary"}

      """.utf8
    ).write(to: timeline)
    let frames = try FramePipe.frames(6)
    let run = try FramePipe.run(
      ["--size", Self.size, "--set", "contrast=1.1", "--timeline", timeline.path, "--fps", "10"],
      input: Array(frames.joined()))
    #expect(run.status == 0, "\(run.standardError)")
    let before = try FramePipe.rendered(frames, state: ControlState(contrast: 1.1))
    let after = try FramePipe.rendered(frames, state: ControlState(exposureBias: 1, contrast: 1.1))
    let output = FramePipe.split(run.output, frameBytes: frames[0].count)
    #expect(output.count == 6)
    #expect(Array(output[0..<3]) == Array(before[0..<3]))
    #expect(Array(output[3...]) == Array(after[3...]))
    #expect(before[3] != after[3])
  }

  @Test func aTruncatedLastFrameIsReportedAfterTheWholeFramesAreWritten() throws {
    let frames = try FramePipe.frames(3)
    let frameBytes = frames[0].count
    let input = Array(frames.joined().prefix(frameBytes * 5 / 2))
    let run = try FramePipe.run(["--size", Self.size], input: input)
    #expect(run.reason == .exit)
    #expect(run.status == 1)
    #expect(run.output == Array(frames[0...1].joined()))
    #expect(
      run.standardError.contains("frame 3 is incomplete: \(frameBytes / 2) of \(frameBytes) bytes"))
    #expect(run.standardError.split(separator: "\n").count == 1)
  }

  @Test func noInputIsNoFramesAndSuccess() throws {
    let run = try FramePipe.run(["--size", Self.size, "--set", "ev=1", "--stats"], input: [])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.output.isEmpty)
    #expect(run.standardError.contains("frames: 0 frames"))
  }

  @Test func statsReportFramesRateAndPercentiles() throws {
    let frames = try FramePipe.frames(3)
    let run = try FramePipe.run(
      ["--size", Self.size, "--set", "ev=0.5", "--stats", "--threads", "1"],
      input: Array(frames.joined()))
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.output.count == frames[0].count * 3)
    #expect(run.standardError.contains("frames: 3 frames, "))
    #expect(run.standardError.contains("frames/s; render p50 "))
    #expect(run.standardError.contains(" ms, p99 "))
  }

  @Test func framesAreReadAheadWhileTheLastOneWaitsForItsReader() throws {
    // 1080p rgb24 frames (6.2 MB) are larger than any pipe buffer: a command that read, rendered and
    // wrote on one thread would not take frame 2 until frame 1 had gone out.
    let frameBytes = 1920 * 1080 * 3
    let frames = (0..<3).map { [UInt8](repeating: UInt8(40 + 60 * $0), count: frameBytes) }
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["frames", "--size", "1920x1080"]
    let (input, output, error) = (Pipe(), Pipe(), Pipe())
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let writer = input.fileHandleForWriting
    let allTaken = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      for frame in frames { try? writer.write(contentsOf: frame) }
      try? writer.close()
      allTaken.signal()
    }
    // Nothing reads standard output yet, and still every frame goes in.
    let taken = allTaken.wait(timeout: .now() + 60) == .success
    #expect(taken)
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let message = String(
      decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    if !taken { allTaken.wait() }
    #expect(process.terminationStatus == 0, "\(message)")
    #expect(out.count == 3 * frameBytes)
    #expect(Array(out) == Array(frames.joined()))
  }

  @Test func aReaderThatClosesEarlyEndsTheRunWithOneMessage() throws {
    let frames = try FramePipe.frames(1)
    // 40 frames (368 KB) cannot all wait in a 64 KB pipe, so the command is still writing when the
    // reader goes.
    let inputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-frames-\(UUID().uuidString).raw")
    try Data(Array(repeating: frames[0], count: 40).joined()).write(to: inputFile)
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["frames", "--size", Self.size, "--set", "ev=0.3"]
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let first = try output.fileHandleForReading.read(upToCount: frames[0].count) ?? Data()
    try output.fileHandleForReading.close()
    let message = String(
      decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(first.count == frames[0].count)
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 1)
    #expect(message.contains("the reader closed standard output"))
    #expect(message.split(separator: "\n").count == 1)
  }

  @Test(arguments: [
    ["--size", "0x5"], ["--size", "12"], ["--size", "64x"], ["--size", "-3x4"], [],
    ["--size", "64x48", "--pix-fmt", "nv12"], ["--size", "64x48", "--fps", "0"],
    ["--y4m", "--size", "64x48"], ["--y4m", "--pix-fmt", "yuv420p"],
    ["--size", "64x48", "--range", "tv"],
    ["--size", "64x48", "--pix-fmt", "yuv420p", "--colour-matrix", "smpte240m"],
    ["--size", "64x48", "--pix-fmt", "rgb48le", "--transfer", "slog3"],
    ["--size", "64x48", "--pix-fmt", "rgb48le", "--primaries", "p3"],
    ["--size", "64x48", "--timeline", "events.jsonl"], ["--size", "64x48", "--set", "ev=9"],
    ["--size", "64x48", "--threads", "0"], ["--size", "64x48", "input.raw"],
  ])
  func usageErrorsExitTwo(arguments: [String]) throws {
    let run = try FramePipe.run(arguments, input: [])
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.standardError.contains("usage: framedial frames"))
  }

  @Test func aMalformedTimelineIsAUsageErrorNamingTheLine() throws {
    let timeline = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-frames-\(UUID().uuidString).jsonl")
    try Data("{\"time\":0,\"type\":\"slide\",\"control\":\"zoom\",\"value\":99}\n".utf8)
      .write(to: timeline)
    defer { try? FileManager.default.removeItem(at: timeline) }
    let run = try FramePipe.run(
      ["--size", Self.size, "--timeline", timeline.path, "--fps", "30000/1001"], input: [])
    #expect(run.status == 2)
    #expect(run.standardError.contains("line 1"))
    #expect(run.standardError.contains("99"))
  }
}
