import RowKernels
import Testing

@testable import Vips

/// `ColourRows` (the lut8 and 8-bit mix kernels on the caller's buffers, packed or as planes) against
/// the same kernels as libvips graph nodes, on a random 1000 × 7 RGB frame transformed in runs of odd
/// lengths, so that the SIMD bodies and every tail length run.
@Suite struct ColourRowsTests {
  static let width = 1000
  static let height = 7

  /// Lengths of the runs the frame is transformed in: below, at and past the SIMD steps (64 pixels for
  /// the AVX-512 paths, 32 for AVX2), starting at unaligned addresses.
  static let runs = [1, 63, 64, 65, 31, 33, 191, 999, 1001, 7, 2047, 129]

  static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = KernelTests.Seeded(state: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
  }

  static let frame = randomBytes(width * height * 3, seed: 2024)

  /// The frame's pixels cut into runs of the lengths in `runs`, in turn: first pixel and length.
  static let pixelRuns: [(start: Int, length: Int)] = {
    var cuts: [(start: Int, length: Int)] = []
    var pixel = 0
    while pixel < width * height {
      let length = min(runs[cuts.count % runs.count], width * height - pixel)
      cuts.append((pixel, length))
      pixel += length
    }
    return cuts
  }()

  /// `rows` applied to the frame run by run.
  static func transformed(by rows: ColourRows) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: frame.count)
    frame.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        guard let source = input.baseAddress, let target = output.baseAddress else { return }
        for run in pixelRuns {
          rows.apply(source + 3 * run.start, target + 3 * run.start, pixels: run.length)
        }
      }
    }
    return output
  }

  static func mismatches(_ a: [UInt8], _ b: [UInt8]) -> Int {
    guard a.count == b.count else { return max(a.count, b.count) }
    return zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) }
  }

  static func frameImage() throws -> Image {
    try Image.fromPixels(frame, width: width, height: height, bands: 3)
  }

  /// `rows` applied to the frame split into R, G and B planes, run by run, packed again.
  static func transformedAsPlanes(by rows: ColourRows) -> [UInt8] {
    let count = width * height
    // The R plane, then the G plane, then the B plane.
    let planes = (0..<(3 * count)).map { frame[3 * ($0 % count) + $0 / count] }
    var output = [UInt8](repeating: 0, count: planes.count)
    planes.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        guard let source = input.baseAddress, let target = output.baseAddress else { return }
        for run in pixelRuns {
          rows.apply(
            planes: (0..<3).map { source + $0 * count + run.start },
            into: (0..<3).map { target + $0 * count + run.start }, pixels: run.length)
        }
      }
    }
    return (0..<(3 * count)).map { output[($0 % 3) * count + $0 / 3] }
  }

  @Test func lookupTablesMatchTheLibvipsKernel() throws {
    try onEveryKernelPath { path in
      let tables = Self.randomBytes(768, seed: 7)
      let rows = try ColourRows(lookupTables: tables)
      let expected = try Self.frameImage().applyingLookupTables(tables, colourBands: 3).pixelBytes()
      let result = Self.transformed(by: rows)
      #expect(Self.mismatches(result, expected) == 0, "\(path)")
      #expect(
        Self.mismatches(Self.transformedAsPlanes(by: rows), expected) == 0, "\(path), as planes")
      // The tables really were applied: the first pixel's red is its table entry.
      #expect(result[0] == tables[Int(Self.frame[0])])
    }
  }

  @Test(arguments: [256, 4096], [false, true])
  func channelMixMatchesTheLibvipsKernel(count: Int, squareRoot: Bool) throws {
    try onEveryKernelPath { path in
      let input: [Float] = (0..<768).map { entry -> Float in
        let level = Float(entry % 256) / 255
        let gain = Float(1 + entry / 256) / 2
        return level * gain - (entry % 7 == 0 ? 0.1 : 0)
      }
      let matrix: [Float] = [1.2, -0.15, -0.05, -0.1, 1.3, -0.2, 0.05, -0.3, 1.25]
      // Random codes, so that an index one step off almost always shows.
      let output = Self.randomBytes(3 * count, seed: UInt64(count) + (squareRoot ? 1 : 0))
      let scale = Float(count) * (squareRoot ? 0.9 : 0.6)
      let rows = try ColourRows(
        inputTables: input, matrix: matrix, outputTables: output, scale: scale,
        squareRootIndex: squareRoot)
      let expected = try Self.frameImage()
        .applyingChannelMix(
          inputTables: input, matrix: matrix, outputTables: output, scale: scale,
          squareRootIndex: squareRoot
        )
        .pixelBytes()
      let result = Self.transformed(by: rows)
      #expect(Self.mismatches(result, expected) == 0, "\(path)")
      #expect(
        Self.mismatches(Self.transformedAsPlanes(by: rows), expected) == 0, "\(path), as planes")
      #expect(Self.mismatches(result, Self.frame) > Self.frame.count / 2)
    }
  }

  @Test func badSizesThrow() {
    let input = [Float](repeating: 0.5, count: 768)
    let matrix: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
    let output = [UInt8](repeating: 9, count: 3 * 256)
    #expect(throws: RowKernelError.self) {
      try ColourRows(lookupTables: [UInt8](repeating: 0, count: 767))
    }
    #expect(throws: RowKernelError.self) { try ColourRows(lookupTables: []) }
    for (input, matrix, output) in [
      (Array(input.dropLast()), matrix, output), (input, Array(matrix.dropLast()), output),
      (input, matrix, Array(output.dropLast())), (input, matrix, []),
    ] {
      #expect(throws: RowKernelError.self) {
        try ColourRows(
          inputTables: input, matrix: matrix, outputTables: output, scale: 255,
          squareRootIndex: false)
      }
    }
  }
}
