import Foundation
import RowKernels
import TestSupport
import Testing

/// FrameDial's own YUV 4:2:0 ↔ RGB conversion against the `ffmpeg` command's (swscale with
/// `accurate_rnd+full_chroma_int`, bicubic chroma) on real frames: testsrc2 with noise, odd sizes,
/// extreme codes, 8 and 10 bits, the three matrices and both ranges.
@Suite struct YUVConversionTests {
  /// One conversion case: size, depth, matrix, range.
  struct Case: CustomTestStringConvertible, Sendable {
    var width: Int
    var height: Int
    var depth: Int
    var matrix: YUVMatrix
    var range: YUVRange
    var testDescription: String {
      "\(width)x\(height) \(depth)-bit \(matrix.rawValue) \(range.rawValue)"
    }
    var layout: YUV420Layout {
      YUV420Layout(width: width, height: height, depth: depth, matrix: matrix, range: range)
    }
    var yuvName: String { depth == 8 ? "yuv420p" : "yuv420p10le" }
    var rgbName: String { depth == 8 ? "rgb24" : "rgb48le" }
    /// ffmpeg's scale filter converting from (or to) this case's YUV.
    func scale(fromYUV: Bool) -> String {
      let side = fromYUV ? "in" : "out"
      return "scale=\(side)_color_matrix=\(matrix.rawValue):\(side)_range=\(range.rawValue):"
        + "flags=accurate_rnd+full_chroma_int"
    }
  }

  static let cases = [
    Case(width: 320, height: 240, depth: 8, matrix: .bt601, range: .tv),
    Case(width: 641, height: 359, depth: 8, matrix: .bt709, range: .pc),
    Case(width: 320, height: 180, depth: 10, matrix: .bt709, range: .tv),
    Case(width: 97, height: 61, depth: 10, matrix: .bt601, range: .pc),
    Case(width: 320, height: 180, depth: 10, matrix: .bt2020, range: .tv),
  ]

  /// A noisy testsrc2 frame of the case's size in its YUV format (cropped from a larger even frame,
  /// so odd sizes are real).
  func noisyFrame(_ test: Case, in folder: URL) throws -> [UInt8] {
    let url = folder.appendingPathComponent("noisy.yuv")
    try VideoClips.make(
      url,
      [
        "-f", "lavfi", "-i",
        "testsrc2=size=\(test.width + 1)x\(test.height + 1),noise=alls=30:allf=t,format=yuv444p,"
          + "crop=\(test.width):\(test.height):0:0,format=\(test.yuvName)",
        "-frames:v", "1", "-f", "rawvideo",
      ])
    return Array(try Data(contentsOf: url))
  }

  /// `input` (raw frames of `inputFormat`) converted by the ffmpeg command with `filter`.
  func ffmpeg(
    _ input: [UInt8], _ test: Case, from inputFormat: String, to outputFormat: String,
    filter: String, in folder: URL
  ) throws -> [UInt8] {
    let (source, target) = (
      folder.appendingPathComponent("in.raw"), folder.appendingPathComponent("out.raw")
    )
    try Data(input).write(to: source)
    try VideoClips.make(
      target,
      [
        "-f", "rawvideo", "-pix_fmt", inputFormat, "-s", "\(test.width)x\(test.height)", "-i",
        source.path, "-vf", filter, "-pix_fmt", outputFormat, "-f", "rawvideo",
      ])
    return Array(try Data(contentsOf: target))
  }

  func toRGB(_ yuv: [UInt8], _ layout: YUV420Layout) throws -> [UInt8] {
    try YUV420Converter(layout).packedRGB(fromYUV: yuv)
  }

  func toYUV(_ rgb: [UInt8], _ layout: YUV420Layout) throws -> [UInt8] {
    try YUV420Converter(layout).packedYUV(fromRGB: rgb)
  }

  /// Samples of 1 or 2 bytes (little-endian).
  func samples(_ bytes: [UInt8], sampleBytes: Int) -> [Int] {
    guard sampleBytes == 2 else { return bytes.map(Int.init) }
    return stride(from: 0, to: bytes.count - 1, by: 2).map {
      Int(bytes[$0]) | Int(bytes[$0 + 1]) << 8
    }
  }

  func largestDifference(_ left: [Int], _ right: [Int]) -> Int {
    zip(left, right).map { abs($0 - $1) }.max() ?? .max
  }

  @Test(arguments: cases)
  func yuvToRGBMatchesFFmpeg(_ test: Case) throws {
    let folder = try CLIRunner.scratchFolder("yuv-to-rgb")
    let yuv = try noisyFrame(test, in: folder)
    #expect(yuv.count == test.layout.frameBytes)
    let ours = samples(try toRGB(yuv, test.layout), sampleBytes: test.layout.sampleBytes)
    let theirs = samples(
      try ffmpeg(
        yuv, test, from: test.yuvName, to: test.rgbName, filter: test.scale(fromYUV: true),
        in: folder), sampleBytes: test.layout.sampleBytes)
    #expect(ours.count == theirs.count)
    // 8-bit: one code. 16-bit RGB from 10-bit video: 16 of 65535, a quarter of a 10-bit code.
    #expect(largestDifference(ours, theirs) <= (test.depth == 8 ? 1 : 16))
    // Not trivially equal: the noise gives every value a chance to differ.
    #expect(Set(ours).count > (test.depth == 8 ? 200 : 5000))
  }

  @Test(arguments: cases)
  func rgbToYUVMatchesFFmpeg(_ test: Case) throws {
    let folder = try CLIRunner.scratchFolder("rgb-to-yuv")
    let yuv = try noisyFrame(test, in: folder)
    let rgb = try toRGB(yuv, test.layout)
    let ours = try toYUV(rgb, test.layout)
    let theirs = try ffmpeg(
      rgb, test, from: test.rgbName, to: test.yuvName, filter: test.scale(fromYUV: false),
      in: folder)
    let layout = test.layout
    let (oursY, theirsY) = (
      samples(Array(ours[..<layout.lumaBytes]), sampleBytes: layout.sampleBytes),
      samples(Array(theirs[..<layout.lumaBytes]), sampleBytes: layout.sampleBytes)
    )
    #expect(largestDifference(oursY, theirsY) <= 1)
    // Chroma: every column but, at odd widths, the last (swscale averages the last pixel with the
    // one after it in memory; FrameDial takes that pixel's own chroma).
    let columns = layout.width % 2 == 0 ? layout.chromaWidth : layout.chromaWidth - 1
    for plane in 0..<2 {
      let start = layout.lumaBytes + plane * layout.chromaBytes
      let (a, b) = (
        samples(Array(ours[start..<(start + layout.chromaBytes)]), sampleBytes: layout.sampleBytes),
        samples(
          Array(theirs[start..<(start + layout.chromaBytes)]), sampleBytes: layout.sampleBytes)
      )
      let differences = (0..<layout.chromaHeight).flatMap { row in
        (0..<columns).map {
          abs(a[row * layout.chromaWidth + $0] - b[row * layout.chromaWidth + $0])
        }
      }
      #expect(differences.max() ?? 99 <= 1, "plane \(plane + 1)")
    }
  }

  /// Extreme codes (the ends of each range, alternating at random): within one code of ffmpeg except
  /// where swscale's 32-bit arithmetic wraps (a channel more than twice white comes out black); there
  /// FrameDial clips to white.
  @Test(arguments: [YUVRange.tv, .pc])
  func extremeCodesMatchFFmpegOrClipToWhite(_ range: YUVRange) throws {
    let test = Case(width: 64, height: 32, depth: 8, matrix: .bt709, range: range)
    let (lumaCodes, chromaCodes): ([UInt8], [UInt8]) =
      range == .tv
      ? ([16, 17, 234, 235], [16, 17, 128, 239, 240]) : ([0, 1, 254, 255], [0, 1, 128, 254, 255])
    var generator = SplitMix(seed: 7)
    let layout = test.layout
    let yuv =
      (0..<layout.lumaBytes).map { _ in lumaCodes[generator.next(lumaCodes.count)] }
      + (0..<(2 * layout.chromaBytes)).map { _ in chromaCodes[generator.next(chromaCodes.count)] }
    let folder = try CLIRunner.scratchFolder("yuv-extremes")
    let ours = try toRGB(yuv, layout)
    let theirs = try ffmpeg(
      yuv, test, from: test.yuvName, to: test.rgbName, filter: test.scale(fromYUV: true),
      in: folder)
    let mismatched = zip(ours, theirs).filter { abs(Int($0) - Int($1)) > 1 }
    #expect(mismatched.allSatisfy { $0 == (255, 0) })
    #expect(mismatched.count < ours.count / 20)
    #expect(ours.contains(0) && ours.contains(255))
  }

  /// The AVX-512, AVX2 and scalar paths give the same codes both ways, at sizes whose rows end in
  /// every kind of partial block (widths of 130, 97 and 2 pixels: SIMD blocks and scalar tails, odd
  /// widths, no block at all), both matrices and ranges, 8 and 10 bits.
  @Test func allPathsAgreeBitForBit() throws {
    let folder = try CLIRunner.scratchFolder("yuv-paths")
    let cases = [
      Case(width: 130, height: 66, depth: 8, matrix: .bt709, range: .tv),
      Case(width: 97, height: 61, depth: 8, matrix: .bt601, range: .pc),
      Case(width: 2, height: 3, depth: 8, matrix: .bt709, range: .pc),
      Case(width: 130, height: 66, depth: 10, matrix: .bt709, range: .tv),
    ]
    defer { KernelPath.force(nil) }
    for test in cases {
      let yuv = try noisyFrame(test, in: folder)
      KernelPath.force(nil)
      let fast = try toRGB(yuv, test.layout)
      let fastBack = try toYUV(fast, test.layout)
      for path in KernelPath.available {
        KernelPath.force(path)
        #expect(try toRGB(yuv, test.layout) == fast, "\(test.testDescription), \(path)")
        #expect(try toYUV(fast, test.layout) == fastBack, "\(test.testDescription), \(path)")
      }
    }
  }
}

/// A small deterministic random number generator for test data.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  /// A whole number in 0 ..< `bound`.
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
