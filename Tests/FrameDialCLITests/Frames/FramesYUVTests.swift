import Controls
import Foundation
import FrameDial
import RowKernels
import TestSupport
import Testing

/// `framedial frames` on YUV 4:2:0 frames (`--pix-fmt yuv420p`, `yuv420p10le`) and YUV4MPEG2 streams
/// (`--y4m`), and the identity round trip of every deep or planar format.
@Suite struct FramesYUVTests {
  static let (width, height) = (FramePipe.width, FramePipe.height)
  static let size = "\(width)x\(height)"

  /// `count` different YUV frames of `layout`: the sample photo converted, shifted per frame.
  static func frames(_ count: Int, _ layout: YUV420Layout) throws -> [[UInt8]] {
    let format: PixelFormat = layout.depth == 8 ? .rgb24 : .rgb48
    let converter = try YUV420Converter(layout)
    return try FramePipe.frames(count, format: format).map { try converter.packedYUV(fromRGB: $0) }
  }

  /// The frames rendered in-process by one YUV renderer following `state`.
  static func rendered(_ frames: [[UInt8]], _ layout: YUV420Layout, state: ControlState) throws
    -> [[UInt8]]
  {
    let renderer = try YUVFrameRenderer(layout: layout, controls: LiveControlState(state))
    return try frames.map { frame in
      var output = [UInt8](repeating: 0, count: frame.count)
      try frame.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
      return output
    }
  }

  static func layout(depth: Int, range: YUVRange = .tv) -> YUV420Layout {
    YUV420Layout(width: width, height: height, depth: depth, matrix: .bt601, range: range)
  }

  /// A YUV4MPEG2 stream: `header`, then each frame after a `FRAME` line.
  static func y4m(_ header: String, _ frames: [[UInt8]]) -> [UInt8] {
    Array((header + "\n").utf8) + frames.flatMap { Array("FRAME\n".utf8) + $0 }
  }

  @Test(arguments: ["yuv420p", "yuv420p10le", "rgb48le", "rgba64le"])
  func theIdentityStateRoundTripsEveryByte(format: String) throws {
    let bytesPerFrame =
      switch format {
      case "yuv420p": Self.layout(depth: 8).frameBytes
      case "yuv420p10le": Self.layout(depth: 10).frameBytes
      case "rgb48le": Self.width * Self.height * 6
      default: Self.width * Self.height * 8
      }
    // Three frames of arbitrary bytes: codes outside the range and stray high bits included.
    let input = (0..<(3 * bytesPerFrame)).map { (index: Int) -> UInt8 in
      UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 13)
    }
    let run = try FramePipe.run(["--size", Self.size, "--pix-fmt", format], input: input)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.output == input)
  }

  @Test(arguments: [8, 10])
  func yuvFramesMatchTheInProcessYUVRendererByteForByte(depth: Int) throws {
    let layout = Self.layout(depth: depth)
    let frames = try Self.frames(3, layout)
    let state = ControlState(exposureBias: 0.5, zoom: 1.5, saturation: 1.3)
    let run = try FramePipe.run(
      [
        "--size", Self.size, "--pix-fmt", depth == 8 ? "yuv420p" : "yuv420p10le",
        "--set", "ev=0.5", "--set", "zoom=1.5", "--set", "saturation=1.3",
      ], input: Array(frames.joined()))
    #expect(run.status == 0, "\(run.standardError)")
    let expected = try Self.rendered(frames, layout, state: state)
    #expect(FramePipe.split(run.output, frameBytes: layout.frameBytes) == expected)
    #expect(expected != frames)
  }

  @Test func theMatrixAndRangeFlagsChangeTheConversion() throws {
    let layout = Self.layout(depth: 8)
    let frames = try Self.frames(1, layout)
    var outputs: [[UInt8]] = []
    for flags in [[], ["--colour-matrix", "bt709"], ["--range", "pc"]] {
      let run = try FramePipe.run(
        ["--size", Self.size, "--pix-fmt", "yuv420p", "--set", "saturation=1.4"] + flags,
        input: frames[0])
      #expect(run.status == 0, "\(run.standardError)")
      outputs.append(run.output)
    }
    var bt709 = layout
    bt709.matrix = .bt709
    #expect(
      outputs[1] == (try Self.rendered(frames, bt709, state: ControlState(saturation: 1.4)))[0])
    #expect(Set(outputs).count == 3)
  }

  @Test(arguments: [
    ("YUV4MPEG2 W64 H48 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG", 8, YUVRange.tv),
    ("YUV4MPEG2 W64 H48 F30000:1001 Ip A0:0 C420mpeg2 XCOLORRANGE=FULL", 8, .pc),
    ("YUV4MPEG2 W64 H48 F25:1 I? C420p10 XYSCSS=420P10 XCOLORRANGE=LIMITED", 10, .tv),
    ("YUV4MPEG2 H48 W64", 8, .tv),
  ])
  func aY4MStreamIsRenderedWithItsHeadersSizeDepthAndRange(
    header: String, depth: Int, range: YUVRange
  ) throws {
    let layout = Self.layout(depth: depth, range: range)
    let frames = try Self.frames(3, layout)
    let run = try FramePipe.run(
      ["--y4m", "--set", "ev=-0.5", "--set", "contrast=1.2"], input: Self.y4m(header, frames))
    #expect(run.status == 0, "\(run.standardError)")
    let expected = try Self.rendered(
      frames, layout, state: ControlState(exposureBias: -0.5, contrast: 1.2))
    // The header is written back unchanged, and every frame after its FRAME line.
    #expect(run.output == Self.y4m(header, expected))
  }

  @Test(arguments: [
    ("", "standard input is empty"),
    ("RIFF W64 H48\n", "does not start with a YUV4MPEG2 header"),
    ("YUV4MPEG2 W64\n", "no frame height (H)"),
    ("YUV4MPEG2 Wx H48\n", "W must be a whole number"),
    ("YUV4MPEG2 W64 H48 C444\n", "colour space C444 is not supported"),
    ("YUV4MPEG2 W64 H48 C420p12\n", "colour space C420p12 is not supported"),
    ("YUV4MPEG2 W64 H48 It\n", "interlaced (It)"),
    ("YUV4MPEG2 W64 H48 F25\n", "F (frame rate) must be two whole numbers"),
    ("YUV4MPEG2 W64 H48 XCOLORRANGE=WIDE\n", "XCOLORRANGE must be LIMITED or FULL, not 'WIDE'"),
    ("YUV4MPEG2 W64 H48 Q7\n", "unknown header parameter 'Q7'"),
    ("YUV4MPEG2 W64 H48\nFRAMES\n", "does not start with a FRAME line (found 'FRAMES')"),
    ("YUV4MPEG2 W64 H48\nFRAME\n" + String(repeating: "x", count: 100), "frame 1 is incomplete"),
    ("YUV4MPEG2 W64 H48", "ends inside a header line"),
  ])
  func badStreamsAreClearErrors(input: String, message: String) throws {
    let run = try FramePipe.run(["--y4m"], input: Array(input.utf8))
    #expect(run.status == 1)
    #expect(run.standardError.contains(message), "\(run.standardError)")
    #expect(run.standardError.split(separator: "\n").count == 1)
  }

  @Test func aTimelineTakesTheY4MHeadersRate() throws {
    let folder = try CLIRunner.scratchFolder("y4m-timeline")
    let timeline = folder.appendingPathComponent("events.jsonl")
    try Data("{\"time\":0.08,\"type\":\"slide\",\"control\":\"exposure-bias\",\"value\":1}\n".utf8)
      .write(to: timeline)
    let layout = Self.layout(depth: 8)
    let frames = try Self.frames(4, layout)
    let header = "YUV4MPEG2 W64 H48 F25:1 Ip"
    let run = try FramePipe.run(
      ["--y4m", "--timeline", timeline.path], input: Self.y4m(header, frames))
    #expect(run.status == 0, "\(run.standardError)")
    // At 25 frames per second, 0.08 s is frame 2 (counting from 0): frames 0 and 1 untouched.
    let lit = try Self.rendered(frames, layout, state: ControlState(exposureBias: 1))
    #expect(run.output == Self.y4m(header, [frames[0], frames[1], lit[2], lit[3]]))
  }

  /// Runs a shell pipeline (`bash -c`, failing when any stage fails) with `FRAMEDIAL` set to the built binary; returns its status
  /// and standard error.
  static func shell(_ pipeline: String) throws -> (status: Int32, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", "set -o pipefail; " + pipeline]
    process.environment = (ProcessInfo.processInfo.environment).merging(
      ["FRAMEDIAL": CLIRunner.binary.path]) { $1 }
    let errors = Pipe()
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// ffmpeg decodes to YUV4MPEG2, FrameDial renders with no size or matrix flags, ffmpeg encodes; the
  /// result matches the rgb24 pipe (ffmpeg's accurate conversions on both sides) to within rounding.
  @Test func aY4MPipeThroughFFmpegNeedsNoSizeOrMatrixFlags() throws {
    let folder = try CLIRunner.scratchFolder("y4m-pipe")
    let clip = folder.appendingPathComponent("in.mp4")
    try VideoClips.make(
      clip,
      VideoClips.testSource(size: "320x240", seconds: 0.4) + [
        "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p",
      ])
    let (viaY4M, viaRGB) = (
      folder.appendingPathComponent("y4m.rgb"), folder.appendingPathComponent("rgb.rgb")
    )
    let decode = "ffmpeg -v error -i '\(clip.path)'"
    let encode = "ffmpeg -v error -y -i - -f rawvideo -pix_fmt rgb24"
    let y4m = try Self.shell(
      "\(decode) -f yuv4mpegpipe - | \"$FRAMEDIAL\" frames --y4m --set saturation=1.3 "
        + "--set ev=0.3 | \(encode) '\(viaY4M.path)'")
    #expect(y4m.status == 0, "\(y4m.errors)")
    // The rgb24 pipe, with ffmpeg converting as FrameDial's conversion does.
    let flags = "-sws_flags bicubic+accurate_rnd+full_chroma_int"
    let rgb = try Self.shell(
      "\(decode) \(flags) -f rawvideo -pix_fmt rgb24 - | \"$FRAMEDIAL\" frames --size 320x240 "
        + "--set saturation=1.3 --set ev=0.3 | ffmpeg -v error -f rawvideo -pix_fmt rgb24 "
        + "-s 320x240 -i - \(flags) -pix_fmt yuv420p -f yuv4mpegpipe - | \(encode) '\(viaRGB.path)'"
    )
    #expect(rgb.status == 0, "\(rgb.errors)")
    let (a, b) = (Array(try Data(contentsOf: viaY4M)), Array(try Data(contentsOf: viaRGB)))
    #expect(a.count == 320 * 240 * 3 * 10)
    #expect(a.count == b.count)
    let differences = zip(a, b).map { abs(Int($0) - Int($1)) }.sorted()
    let mean = Double(differences.reduce(0, +)) / Double(max(1, differences.count))
    // Measured: mean 0.008, 99 % equal, 99.9 % within 2, largest 4 (a 1-code YUV difference amplified
    // by the colour state and ffmpeg's last conversion).
    #expect(mean < 0.05)
    #expect(differences[differences.count * 99 / 100] <= 1)
    #expect((differences.last ?? 99) <= 8)
  }
}
