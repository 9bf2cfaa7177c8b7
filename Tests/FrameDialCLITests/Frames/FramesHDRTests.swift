import Controls
import Foundation
import FrameDial
import RowKernels
import Testing

/// `framedial frames --transfer hlg|pq --primaries bt2020`: HDR frames through a pipe get the BT.2100
/// maths, YUV frames the BT.2020 matrix, and 8-bit frames are refused.
@Suite struct FramesHDRTests {
  static let (width, height) = (FramePipe.width, FramePipe.height)
  static let size = "\(width)x\(height)"

  /// One rgb48le frame of flat patches of 10-bit codes (scaled to 16 bits), one code per column.
  static func patchFrame(_ codes: [Int]) -> [UInt8] {
    var samples: [UInt16] = []
    for _ in 0..<height {
      for x in 0..<width {
        let code = UInt16(codes[x * codes.count / width] * 64)
        samples += [code, code, code]
      }
    }
    return samples.withUnsafeBytes { Array($0) }
  }

  @Test func hlgExposureThroughAPipeDoublesSceneLight() throws {
    let codes = [0, 64, 256, 512, 600, 768, 900, 1023]
    let frame = Self.patchFrame(codes)
    let run = try FramePipe.run(
      [
        "--size", Self.size, "--pix-fmt", "rgb48le", "--transfer", "hlg", "--primaries", "bt2020",
        "--set", "ev=1",
      ], input: frame)
    #expect(run.status == 0, "\(run.standardError)")
    let output = run.output.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    #expect(output.count == Self.width * Self.height * 3)
    let (a, b, c) = (0.17883277, 0.28466892, 0.55991073)
    func oetf(_ e: Double) -> Double {
      e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
    }
    func inverse(_ v: Double) -> Double { v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12 }
    for (index, code) in codes.enumerated() {
      let x = index * Self.width / codes.count
      let signal = Double(code * 64) / 65535
      let want = Int((min(oetf(2 * inverse(signal)), 1) * 65535 + 0.5).rounded(.down))
      #expect(abs(Int(output[3 * x]) - want) <= 2, "code \(code)")
    }
    // The 75 % reference white at +1 EV: OETF(2 × 0.265).
    let white = Double(output[3 * (5 * Self.width / codes.count)]) / 65535
    #expect(abs(white - oetf(2 * 0.265)) < 0.002)
    let renderer = try FrameRenderer(
      width: Self.width, height: Self.height, pixelFormat: .rgb48,
      controls: LiveControlState(ControlState(exposureBias: 1)), encoding: .bt2100HLG)
    var expected = [UInt8](repeating: 0, count: frame.count)
    try frame.withUnsafeBytes { input in
      try expected.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
    }
    #expect(run.output == expected)
  }

  @Test func tenBitYUVWithBT2020PrimariesUsesTheBT2020Matrix() throws {
    let layout = YUV420Layout(
      width: Self.width, height: Self.height, depth: 10, matrix: .bt2020, range: .tv)
    let converter = try YUV420Converter(layout)
    let frames = try FramePipe.frames(2, format: .rgb48).map {
      try converter.packedYUV(fromRGB: $0)
    }
    let arguments = [
      "--size", Self.size, "--pix-fmt", "yuv420p10le", "--transfer", "pq", "--primaries", "bt2020",
      "--set", "saturation=1.5", "--set", "ev=-0.5",
    ]
    let run = try FramePipe.run(arguments, input: Array(frames.joined()))
    #expect(run.status == 0, "\(run.standardError)")
    let renderer = try YUVFrameRenderer(
      layout: layout, controls: LiveControlState(ControlState(exposureBias: -0.5, saturation: 1.5)),
      encoding: .bt2100PQ)
    let expected = try frames.map { frame in
      var output = [UInt8](repeating: 0, count: frame.count)
      try frame.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
      return output
    }
    #expect(run.output == Array(expected.joined()))
    let bt709 = try FramePipe.run(
      arguments + ["--colour-matrix", "bt709"], input: Array(frames.joined()))
    #expect(bt709.status == 0 && bt709.output != run.output)
  }

  @Test func theIdentityKeepsHDRFramesBitForBit() throws {
    let frame = (0..<(Self.width * Self.height * 6)).map { UInt8(truncatingIfNeeded: $0 &* 97) }
    let run = try FramePipe.run(
      ["--size", Self.size, "--pix-fmt", "rgb48le", "--transfer", "pq", "--primaries", "bt2020"],
      input: frame)
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.output == frame)
  }

  @Test(arguments: [["--transfer", "hlg"], ["--pix-fmt", "yuv420p", "--transfer", "pq"]])
  func eightBitFramesAreRefusedForHLGAndPQ(arguments: [String]) throws {
    let run = try FramePipe.run(["--size", Self.size] + arguments, input: [])
    #expect(run.status == 2)
    #expect(run.standardError.contains("framedial frames:"))
    #expect(run.standardError.contains("needs frames of 10 bits or more"))
  }

  /// A 10-bit YUV4MPEG2 stream takes `--transfer hlg --primaries bt2020` (the header carries neither)
  /// and renders as the in-process HLG renderer does; an 8-bit stream is refused, naming its depth.
  @Test func y4mStreamsTakeTheTransferAndRefuseEightBits() throws {
    let layout = YUV420Layout(
      width: Self.width, height: Self.height, depth: 10, matrix: .bt2020, range: .tv)
    let converter = try YUV420Converter(layout)
    let frames = try FramePipe.frames(2, format: .rgb48).map {
      try converter.packedYUV(fromRGB: $0)
    }
    let header = "YUV4MPEG2 W\(Self.width) H\(Self.height) F25:1 Ip C420p10 XYSCSS=420P10"
    func stream(_ header: String, _ frames: [[UInt8]]) -> [UInt8] {
      Array((header + "\n").utf8) + frames.flatMap { Array("FRAME\n".utf8) + $0 }
    }
    let run = try FramePipe.run(
      ["--y4m", "--transfer", "hlg", "--primaries", "bt2020", "--set", "contrast=1.4"],
      input: stream(header, frames))
    #expect(run.status == 0, "\(run.standardError)")
    let renderer = try YUVFrameRenderer(
      layout: layout, controls: LiveControlState(ControlState(contrast: 1.4)), encoding: .bt2100HLG)
    let expected = try frames.map { frame in
      var output = [UInt8](repeating: 0, count: frame.count)
      try frame.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
      return output
    }
    #expect(run.output == stream(header, expected))

    let eightBit = "YUV4MPEG2 W\(Self.width) H\(Self.height) F25:1 Ip C420jpeg"
    let refused = try FramePipe.run(
      ["--y4m", "--transfer", "hlg"],
      input: stream(eightBit, [[UInt8](repeating: 128, count: Self.width * Self.height * 3 / 2)]))
    #expect(refused.status == 1)
    #expect(refused.output.isEmpty)
    #expect(
      refused.standardError.contains("it is 8-bit, and --transfer hlg needs frames of 10 bits"))
  }
}
