import Foundation
import RowKernels
import SeededRandom
import Testing

/// The one-pass 10-bit render (`YUV420Converter.transform10`) against the same steps run over whole
/// frames: 10-bit Y′CbCr to 16-bit RGB, the 16-bit colour rows, a second stage to rgb24 and the
/// conversion back, on every kernel path this CPU has, with odd sizes and band edges.
@Suite struct YUVTransform10Tests {
  /// A 10-bit 4:2:0 frame of seeded codes: smooth ramps with noise, so that neighbouring rows and
  /// columns differ (a band edge converted twice must agree with itself).
  static func frame(_ layout: YUV420Layout, seed: UInt64) -> [UInt8] {
    var random = SeededGenerator(seed: seed)
    var samples: [UInt16] = []
    for (width, height, low, span) in [
      (layout.width, layout.height, 64, 876), (layout.chromaWidth, layout.chromaHeight, 64, 896),
      (layout.chromaWidth, layout.chromaHeight, 64, 896),
    ] {
      for y in 0..<height {
        for x in 0..<width {
          let ramp = (x * 7 + y * 3) % span
          samples.append(UInt16(low + (ramp + Int.random(in: 0..<60, using: &random)) % span))
        }
      }
    }
    return samples.withUnsafeBytes { Array($0) }
  }

  /// Seeded 16-bit mixing tables: a power-law decode with per-channel gains, a saturating matrix and
  /// square-root-indexed output codes.
  static func mixing() throws -> ColourRows {
    var input = [Float](repeating: 0, count: 3 * 65536)
    for channel in 0..<3 {
      for code in 0..<65536 {
        input[channel * 65536 + code] =
          Float(pow(Double(code) / 65535, 2.2)) * [1.3, 1.0, 0.8][channel]
      }
    }
    let count = 70000
    let output = (0..<(3 * count)).map { UInt16(Double($0 % count) / Double(count - 1) * 65535) }
    return try ColourRows(
      inputTables16: input, matrix: [1.3, -0.2, -0.1, -0.15, 1.3, -0.15, -0.1, -0.2, 1.3],
      outputTables16: output, scale: Float(count - 1) / 1.2, squareRootIndex: true)
  }

  /// Seeded 16-bit per-channel tables (a contrast curve, each channel its own).
  static func lookup() throws -> ColourRows {
    let tables = (0..<3).flatMap { channel in
      (0..<65536).map { code -> UInt16 in
        let x = Double(code) / 65535
        let curved = x * x * (3 - 2 * x) * 0.9 + x * 0.1 * Double(channel + 1) / 3
        return UInt16(min(65535, (curved * 65535).rounded()))
      }
    }
    return try ColourRows(lookupTables16: tables)
  }

  /// A second stage to rgb24: the high byte of each sample, brightened by an offset per channel.
  final class HighBytes: RGB48RowStage {
    func map(
      _ input: UnsafePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, pixels: Int
    ) {
      for index in 0..<(3 * pixels) {
        output[index] = UInt8(min(255, Int(input[index] >> 8) + index % 3 * 5))
      }
    }
  }

  /// The whole-frame reference: `frame` to RGB, through `colour` and `stage`, and back with
  /// `target`.
  static func reference(
    _ frame: [UInt8], _ converter: YUV420Converter, colour: ColourRows?, stage: HighBytes?,
    target: YUV420Converter
  ) throws -> [UInt8] {
    let layout = converter.layout
    let pixels = layout.width * layout.height
    var rgb = [UInt16](repeating: 0, count: 3 * pixels)
    frame.withUnsafeBytes { bytes in
      rgb.withUnsafeMutableBytes { out in
        converter.toRGB(
          converter.planes(of: bytes.baseAddress!), into: out.baseAddress!,
          rgbStride: layout.rgbRowBytes)
      }
    }
    if let colour {
      var coloured = rgb
      rgb.withUnsafeBufferPointer { input in
        coloured.withUnsafeMutableBufferPointer { output in
          colour.apply16(input.baseAddress!, output.baseAddress!, pixels: pixels)
        }
      }
      rgb = coloured
    }
    guard let stage else {
      return try converter.packedYUV(fromRGB: rgb.withUnsafeBytes { Array($0) })
    }
    var bytes = [UInt8](repeating: 0, count: 3 * pixels)
    rgb.withUnsafeBufferPointer { input in
      bytes.withUnsafeMutableBufferPointer { output in
        stage.map(input.baseAddress!, into: output.baseAddress!, pixels: pixels)
      }
    }
    return try target.packedYUV(fromRGB: bytes)
  }

  /// `frame` rendered in one pass into a packed frame of `target`'s layout.
  static func onePass(
    _ frame: [UInt8], _ converter: YUV420Converter, colour: ColourRows?, stage: HighBytes?,
    target: YUV420Converter
  ) throws -> [UInt8] {
    var output = [UInt8](repeating: 0, count: target.layout.frameBytes)
    try frame.withUnsafeBytes { bytes in
      try output.withUnsafeMutableBytes { out in
        let planes = target.planes(of: out.baseAddress!)
        try converter.transform10(
          converter.planes(of: bytes.baseAddress!),
          into: planes.map { UnsafeMutableRawPointer(mutating: $0.base) },
          strides: planes.map(\.stride), through: colour, then: stage, convertedBy: target)
      }
    }
    return output
  }

  static let sizes = [(1920, 1080), (333, 257), (64, 36)]

  @Test(arguments: sizes.indices)
  func onePassIsTheWholeFrameStepsExactlyOnEveryPath(size: Int) throws {
    let (width, height) = Self.sizes[size]
    let layout = YUV420Layout(width: width, height: height, depth: 10, matrix: .bt2020, range: .tv)
    let sdr = YUV420Layout(width: width, height: height, depth: 8, matrix: .bt709, range: .tv)
    let frame = Self.frame(layout, seed: UInt64(100 + size))
    // Three threads, so a frame has band edges where rows are converted by both neighbours.
    try onEveryKernelPath { path in
      let converter = try YUV420Converter(layout, threads: 3)
      let target = try YUV420Converter(sdr, threads: 3)
      for (name, colour) in [("mixing", try Self.mixing()), ("lookup", try Self.lookup())] {
        let kept = try Self.onePass(frame, converter, colour: colour, stage: nil, target: converter)
        let keptReference = try Self.reference(
          frame, converter, colour: colour, stage: nil, target: converter)
        #expect(kept == keptReference, "\(path) \(name) 10-bit")
        #expect(kept != frame, "\(path) \(name): the colour rows changed nothing")
        let staged = try Self.onePass(
          frame, converter, colour: colour, stage: HighBytes(), target: target)
        let stagedReference = try Self.reference(
          frame, converter, colour: colour, stage: HighBytes(), target: target)
        #expect(staged == stagedReference, "\(path) \(name) to 8-bit")
      }
      let plain = try Self.onePass(
        frame, converter, colour: nil, stage: HighBytes(), target: target)
      #expect(
        plain
          == (try Self.reference(frame, converter, colour: nil, stage: HighBytes(), target: target)),
        "\(path) without colour")
    }
  }

  @Test func framesThatDoNotFitAreRefused() throws {
    let layout = YUV420Layout(width: 64, height: 36, depth: 10, matrix: .bt2020, range: .tv)
    let converter = try YUV420Converter(layout)
    let eight = try YUV420Converter(
      YUV420Layout(width: 64, height: 36, depth: 8, matrix: .bt709, range: .tv))
    let other = try YUV420Converter(
      YUV420Layout(width: 32, height: 36, depth: 10, matrix: .bt2020, range: .tv))
    let frame = Self.frame(layout, seed: 7)
    // An 8-bit frame needs the stage to rgb24; a 10-bit one takes 16-bit rows, no stage's rgb24.
    let cases: [(YUV420Converter, HighBytes?)] = [
      (eight, nil), (other, nil), (other, HighBytes()), (converter, HighBytes()),
    ]
    for (target, stage) in cases {
      #expect(throws: RowKernelError.self) {
        try Self.onePass(frame, converter, colour: nil, stage: stage, target: target)
      }
    }
  }
}
