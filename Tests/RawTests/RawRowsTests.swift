import RowKernels
import Testing

@testable import Raw

/// The raw colour pass (LibRaw's camera conversion, then tables or the mix, into 8-bit RGB in place)
/// on every code path against a Swift reference of its definition, pixel by pixel.
@Suite(.serialized) struct RawRowsTests {
  /// A seeded generator, so a failure repeats.
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state ^ (state >> 29)
    }
  }

  /// The mix's output table index of a mixed value (`mix_index.h`, which the mix kernel shares):
  /// clamped in float, so huge values cannot trap.
  static func expectedIndex(_ mixed: Float, scale: Float, count: Int, squareRoot: Bool) -> Int {
    let value = squareRoot ? (mixed > 0 ? mixed.squareRoot() : 0) : mixed
    let position = value * scale + 0.5
    guard position > 0 else { return 0 }
    return position >= Float(count - 1) ? count - 1 : Int(position)
  }

  /// Camera matrices: near the identity, one that mixes strongly (negative sums clip to 0, large ones
  /// to 65535), and a real camera's (rows summing to 1).
  static let cameras: [[Float]] = [
    [1, 0, 0, 0, 1, 0, 0, 0, 1],
    [1.9, -0.7, -0.2, -0.35, 1.6, -0.25, 0.1, -0.9, 1.8],
    [1.7312, -0.6234, -0.1078, -0.1976, 1.4561, -0.2585, 0.0127, -0.5203, 1.5076],
  ]

  /// LibRaw's conversion of one pixel: products and sums in `Float` in its order, truncated, clipped.
  static func cameraCodes(_ pixel: ArraySlice<UInt16>, _ m: [Float]) -> [Int] {
    let (r, g, b) = (
      Float(pixel[pixel.startIndex]), Float(pixel[pixel.startIndex + 1]),
      Float(pixel[pixel.startIndex + 2])
    )
    return (0..<3).map { c in
      var sum = m[3 * c] * r
      sum += m[3 * c + 1] * g
      sum += m[3 * c + 2] * b
      return min(max(Int(sum), 0), 65535)
    }
  }

  /// `pixels` pixels of four samples: every kind of code, a fourth sample that must be ignored.
  static func picture(_ pixels: Int, seed: UInt64) -> [UInt16] {
    var random = Seeded(state: seed)
    return (0..<(pixels * 4)).map { index in
      let value = UInt16(truncatingIfNeeded: random.next())
      // Mostly mid-range codes, some at the extremes.
      return index % 4 == 3 ? value : index % 11 == 0 ? 65535 : index % 13 == 0 ? 0 : value / 2
    }
  }

  /// Converts `samples` in place and returns the first `pixels × 3` bytes.
  static func converted(
    _ samples: [UInt16], pixels: Int, camera: [Float], colour: RawRows.Colour
  ) throws -> [UInt8] {
    var picture = samples
    try picture.withUnsafeMutableBufferPointer { buffer in
      try RawRows.convert(
        try #require(buffer.baseAddress), pixels: pixels, camera: camera, colour: colour)
    }
    return picture.withUnsafeBytes { Array($0.prefix(pixels * 3)) }
  }

  @Test(arguments: [1, 7, 8, 9, 61, 1000])
  func perChannelTablesGiveTheDefinitionsCodesOnEveryPath(pixels: Int) throws {
    defer { KernelPath.force(nil) }
    var random = Seeded(state: UInt64(pixels))
    let tables = (0..<(3 * 65536)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    for path in KernelPath.available {
      KernelPath.force(path)
      for (index, camera) in Self.cameras.enumerated() {
        let samples = Self.picture(pixels, seed: UInt64(pixels * 3 + index))
        let bytes = try Self.converted(
          samples, pixels: pixels, camera: camera, colour: .tables(tables))
        var wrong = 0
        for pixel in 0..<pixels {
          let codes = Self.cameraCodes(samples[(pixel * 4)..<(pixel * 4 + 4)], camera)
          for c in 0..<3 where bytes[pixel * 3 + c] != tables[c * 65536 + codes[c]] { wrong += 1 }
        }
        #expect(wrong == 0, "\(path), camera \(index), \(pixels) pixels")
      }
    }
  }

  @Test(arguments: [1, 8, 13, 1000], [false, true])
  func theMixGivesTheDefinitionsCodesOnEveryPath(pixels: Int, squareRoot: Bool) throws {
    defer { KernelPath.force(nil) }
    var random = Seeded(state: UInt64(pixels * 2 + (squareRoot ? 1 : 0)))
    let input: [Float] = (0..<(3 * 65536)).map { entry in
      let level = Float(entry % 65536) / 65535
      return entry % 7 == 0 ? level * 1.7 - 0.1 : level * Float(1 + entry / 65536) / 2
    }
    let count = 5000
    let output = (0..<(3 * count)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let matrix: [Float] = [1.2, -0.15, -0.05, -0.1, 1.3, -0.2, 0.05, -0.3, 1.25]
    let scale = Float(count) * (squareRoot ? 0.9 : 0.6)
    for path in KernelPath.available {
      KernelPath.force(path)
      for (index, camera) in Self.cameras.enumerated() {
        let samples = Self.picture(pixels, seed: UInt64(pixels * 5 + index))
        let bytes = try Self.converted(
          samples, pixels: pixels, camera: camera,
          colour: .mix(
            input: input, matrix: matrix, output: output, scale: scale,
            squareRootIndex: squareRoot))
        var wrong = 0
        for pixel in 0..<pixels {
          let codes = Self.cameraCodes(samples[(pixel * 4)..<(pixel * 4 + 4)], camera)
          let linear = (0..<3).map { input[$0 * 65536 + codes[$0]] }
          for c in 0..<3 {
            var mixed = matrix[c * 3] * linear[0]
            mixed += matrix[c * 3 + 1] * linear[1]
            mixed += matrix[c * 3 + 2] * linear[2]
            let position = Self.expectedIndex(
              mixed, scale: scale, count: count, squareRoot: squareRoot)
            if bytes[pixel * 3 + c] != output[c * count + position] { wrong += 1 }
          }
        }
        #expect(wrong == 0, "\(path), camera \(index), \(pixels) pixels, square root \(squareRoot)")
      }
    }
  }

  @Test func tablesOfTheWrongSizeAreRefusedAndThePictureIsUntouched() throws {
    var picture: [UInt16] = [1, 2, 3, 4]
    try picture.withUnsafeMutableBufferPointer { buffer in
      let start = try #require(buffer.baseAddress)
      #expect(throws: RawError.self) {
        try RawRows.convert(start, pixels: 1, camera: Self.cameras[0], colour: .tables([1, 2, 3]))
      }
      #expect(throws: RawError.self) {
        try RawRows.convert(
          start, pixels: 1, camera: [1, 0, 0],
          colour: .tables([UInt8](repeating: 0, count: 3 * 65536)))
      }
    }
    #expect(picture == [1, 2, 3, 4])
  }
}
