import Foundation
import RowKernels
import Testing

@testable import Vips

/// FrameDial's fused kernels against a plain Swift reference, on sizes that exercise every SIMD path and
/// its scalar tail, on every kernel path this CPU has (the portable scalar one forced on every machine).
@Suite struct KernelTests {
  struct Seeded: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state ^ (state >> 29)
    }
  }

  @Test(arguments: [
    (1, 1, 1), (37, 23, 3), (64, 3, 3), (200, 7, 1), (1920, 4, 3), (31, 5, 2), (45, 9, 4),
  ])
  func lookupTablesMatchTheReferenceExactly(width: Int, height: Int, bands: Int) throws {
    try onEveryKernelPath { path in
      var random = Seeded(state: UInt64(width * 1000 + height * 10 + bands))
      let pixels = (0..<(width * height * bands)).map { _ in
        UInt8(truncatingIfNeeded: random.next())
      }
      let colourBands = bands >= 3 ? 3 : 1
      let tables = (0..<(colourBands * 256)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let image = try Image.fromPixels(pixels, width: width, height: height, bands: bands)
      let result = try image.applyingLookupTables(tables, colourBands: colourBands).pixelBytes()
      var mismatches = 0
      for index in pixels.indices {
        let band = index % bands
        let expected = band < colourBands ? tables[band * 256 + Int(pixels[index])] : pixels[index]
        if result[index] != expected { mismatches += 1 }
      }
      #expect(mismatches == 0, "\(path)")
    }
  }

  @Test func channelMixMatchesTheReference() throws {
    try onEveryKernelPath { path in
      var random = Seeded(state: 99)
      let width = 301
      let height = 7
      let pixels = (0..<(width * height * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let input: [Float] = (0..<768).map { entry -> Float in
        let level = Float(entry % 256) / 255
        return level * Float(1 + entry / 256) / 2
      }
      let matrix: [Float] = [1.2, -0.15, -0.05, -0.1, 1.3, -0.2, 0.05, -0.3, 1.25]
      let count = 3000
      let output = (0..<(3 * count)).map { UInt8(min(255, ($0 % count) * 255 / (count - 1))) }
      let scale: Float = 1500
      let result = try Image.fromPixels(pixels, width: width, height: height, bands: 3)
        .applyingChannelMix(inputTables: input, matrix: matrix, outputTables: output, scale: scale)
        .pixelBytes()
      var worst = 0
      for pixel in 0..<(width * height) {
        let linear = (0..<3).map { input[$0 * 256 + Int(pixels[pixel * 3 + $0])] }
        for channel in 0..<3 {
          var mixed: Float = matrix[channel * 3] * linear[0]
          mixed += matrix[channel * 3 + 1] * linear[1]
          mixed += matrix[channel * 3 + 2] * linear[2]
          let position = mixed * scale + 0.5
          let index = position > 0 ? min(Int(position), count - 1) : 0
          let expected = Int(output[channel * count + index])
          // Exact but for float summation order, which may move an index by one step of the table.
          worst = max(worst, abs(Int(result[pixel * 3 + channel]) - expected))
        }
      }
      #expect(worst <= 1, "\(path)")
    }
  }
}

/// The channel-mix kernel against a Swift reference of its definition, on odd sizes (SIMD bodies and tails),
/// both index modes, big output tables, and matrix results that are negative, huge, infinite or NaN.
@Suite struct ChannelMixKernelTests {
  static let sizes = [(1, 1), (15, 1), (17, 3), (301, 7), (1920, 4)]
  static let matrices: [[Float]] = [
    [1.2, -0.15, -0.05, -0.1, 1.3, -0.2, 0.05, -0.3, 1.25],
    [-2, 0.5, 0.1, 40, -35, 1e-3, 1e6, -1e6, 3],
    [3e38, -3e38, 1, 2e38, 2e38, 0, -1, 0.5, 0.25],
  ]

  /// Pseudo-random output tables of 2, 3000 and 2^20 entries a channel, made once.
  static let outputTables: [Int: [UInt8]] = Dictionary(
    uniqueKeysWithValues: [2, 3000, 1 << 20].map { count in
      (count, (0..<(3 * count)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
    })

  /// Non-decreasing output tables (the kind FrameDial builds) of 2,
  /// 3000 and 65535 entries a channel: each channel starts at its own code and climbs by random steps of
  /// 0 … 2 codes (about 300 codes over the table), stopping at 255.
  static let monotoneTables: [Int: [UInt8]] = Dictionary(
    uniqueKeysWithValues: [2, 3000, 65535].map { count in
      var random = KernelTests.Seeded(state: UInt64(count))
      let table = (0..<3).flatMap { channel -> [UInt8] in
        var code = channel * 20
        return (0..<count).map { _ in
          let steps = (0..<2).filter { _ in random.next() % UInt64(count) < 150 }.count
          code = min(255, code + steps)
          return UInt8(code)
        }
      }
      return (count, table)
    })

  /// The header's definition of one output value (index clamped in float, so huge values cannot trap).
  static func expectedIndex(_ mixed: Float, scale: Float, count: Int, squareRoot: Bool) -> Int {
    let value = squareRoot ? (mixed > 0 ? mixed.squareRoot() : 0) : mixed
    let position = value * scale + 0.5
    guard position > 0 else { return 0 }
    return position >= Float(count - 1) ? count - 1 : Int(position)
  }

  @Test(arguments: sizes, [false, true])
  func mixMatchesTheReferenceExactly(size: (Int, Int), squareRoot: Bool) throws {
    try onEveryKernelPath { path in
      for bands in [3, 4] {
        try mixMatchesTheReference(size: size, squareRoot: squareRoot, bands: bands)
      }
    }
  }

  /// One band count of ``mixMatchesTheReferenceExactly(size:squareRoot:)``: a fourth band is copied.
  func mixMatchesTheReference(size: (Int, Int), squareRoot: Bool, bands: Int) throws {
    for (matrixIndex, matrix) in Self.matrices.enumerated() {
      for (count, monotone) in [
        (2, false), (3000, false), (1 << 20, false), (2, true), (3000, true), (65535, true),
      ] {
        var random = KernelTests.Seeded(
          state: UInt64(size.0 * 7919 + size.1 * 31 + count + matrixIndex * 5))
        let (width, height) = size
        let pixels = (0..<(width * height * bands)).map { _ in
          UInt8(truncatingIfNeeded: random.next())
        }
        let input: [Float] = (0..<768).map { entry -> Float in
          let level = Float(entry % 256) / 255
          let gain = Float(1 + entry / 256) / 2
          let offset: Float = entry % 7 == 0 ? 0.2 : 0
          return level * gain - offset
        }
        let output = (monotone ? Self.monotoneTables[count] : Self.outputTables[count]) ?? []
        let scale = Float(count) * (squareRoot ? 0.9 : 0.6)
        let result = try Image.fromPixels(pixels, width: width, height: height, bands: bands)
          .applyingChannelMix(
            inputTables: input, matrix: matrix, outputTables: output, scale: scale,
            squareRootIndex: squareRoot
          )
          .pixelBytes()
        var mismatches = 0
        for pixel in 0..<(width * height) {
          let linear = (0..<3).map { input[$0 * 256 + Int(pixels[pixel * bands + $0])] }
          for channel in 0..<3 {
            var mixed: Float = matrix[channel * 3] * linear[0]
            mixed += matrix[channel * 3 + 1] * linear[1]
            mixed += matrix[channel * 3 + 2] * linear[2]
            let index = Self.expectedIndex(
              mixed, scale: scale, count: count, squareRoot: squareRoot)
            if result[pixel * bands + channel] != output[channel * count + index] {
              mismatches += 1
            }
          }
          if bands == 4 && result[pixel * 4 + 3] != pixels[pixel * 4 + 3] { mismatches += 1 }
        }
        #expect(
          mismatches == 0,
          "\(KernelPath.current): \(bands) bands, matrix \(matrixIndex), count \(count), monotone \(monotone)"
        )
      }
    }
  }
}

/// The 16-bit channel-mix kernel (its SIMD body and scalar tail) against the same Swift reference.
@Suite(.serialized) struct ChannelMix16KernelTests {
  /// Pseudo-random 16-bit output tables of 2, 3000, 65536 and 2^20 entries a channel, made once.
  static let outputTables: [Int: [UInt16]] = Dictionary(
    uniqueKeysWithValues: [2, 3000, 65536, 1 << 20].map { count in
      (count, (0..<(3 * count)).map { UInt16(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) })
    })

  @Test(arguments: ChannelMixKernelTests.sizes, [false, true])
  func mixMatchesTheReferenceExactly(size: (Int, Int), squareRoot: Bool) throws {
    // Every code path the CPU has (the AVX2 one mixes eight pixels at a time), each against the
    // definition.
    defer { KernelPath.force(nil) }
    for path in KernelPath.available {
      KernelPath.force(path)
      for bands in [3, 4] {
        for (matrixIndex, matrix) in ChannelMixKernelTests.matrices.enumerated() {
          for count in [2, 3000, 65536, 1 << 20] {
            try check(
              size: size, squareRoot: squareRoot, bands: bands, matrix: (matrixIndex, matrix),
              count: count)
          }
        }
      }
    }
  }

  /// One case: pixels of every kind of code, input tables with negative entries, a NaN and an
  /// infinity, and the kernel's output compared code by code with the definition.
  func check(
    size: (Int, Int), squareRoot: Bool, bands: Int, matrix: (index: Int, values: [Float]),
    count: Int
  ) throws {
    var random = KernelTests.Seeded(
      state: UInt64(size.0 * 7919 + size.1 * 31 + count + matrix.index * 5 + bands))
    let (width, height) = size
    let pixels = (0..<(width * height * bands)).map { _ in
      UInt16(truncatingIfNeeded: random.next())
    }
    var input: [Float] = (0..<(3 * 65536)).map { entry -> Float in
      let level = Float(entry % 65536) / 65535
      let gain = Float(1 + entry / 65536) / 2
      return entry % 7 == 0 ? level * gain - 0.2 : level * gain
    }
    input[pixels[0] == 0 ? 1 : Int(pixels[0])] = .nan
    input[65536 + Int(pixels[min(1, pixels.count - 1)])] = .infinity
    let output = Self.outputTables[count] ?? []
    let scale = Float(count) * (squareRoot ? 0.9 : 0.6)
    let result = try Image.fromPixels16(pixels, width: width, height: height, bands: bands)
      .applyingChannelMix(
        inputTables: input, matrix: matrix.values, outputTables: output, scale: scale,
        squareRootIndex: squareRoot
      )
      .pixelBytes()
    let codes = result.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    var mismatches = 0
    for pixel in 0..<(width * height) {
      let linear = (0..<3).map { input[$0 * 65536 + Int(pixels[pixel * bands + $0])] }
      for channel in 0..<3 {
        var mixed: Float = matrix.values[channel * 3] * linear[0]
        mixed += matrix.values[channel * 3 + 1] * linear[1]
        mixed += matrix.values[channel * 3 + 2] * linear[2]
        let index = ChannelMixKernelTests.expectedIndex(
          mixed, scale: scale, count: count, squareRoot: squareRoot)
        if codes[pixel * bands + channel] != output[channel * count + index] { mismatches += 1 }
      }
      if bands == 4 && codes[pixel * 4 + 3] != pixels[pixel * 4 + 3] { mismatches += 1 }
    }
    #expect(
      mismatches == 0,
      "\(width)×\(height), \(bands) bands, matrix \(matrix.index), count \(count), square root \(squareRoot)"
    )
  }
}

/// The bilinear resize kernel against the double-precision definition in its header (±1 level), enlarging and
/// shrinking, 1 to 4 bands, odd sizes, single rows and columns, and shrinks wide enough for the scalar chunks.
@Suite struct ResizeKernelTests {
  /// Input position of output pixel `index`: first and second input pixel and the second one's weight.
  static func sample(_ index: Int, from inSize: Int, to outSize: Int) -> (Int, Int, Double) {
    var position = (Double(index) + 0.5) * Double(inSize) / Double(outSize) - 0.5
    position = min(max(position, 0), Double(inSize - 1))
    let first = Int(position)
    return (first, min(first + 1, inSize - 1), position - Double(first))
  }

  @Test(arguments: [
    (37, 23, 61, 40, 3), (1280, 4, 1920, 6, 3), (200, 9, 71, 5, 1), (400, 3, 97, 2, 4),
    (1, 17, 5, 9, 3), (19, 1, 40, 1, 3), (64, 8, 200, 3, 2), (301, 5, 1000, 7, 4),
    (1000, 3, 33, 2, 3), (45, 6, 45, 6, 1), (17, 1, 1, 1, 4), (3840, 2, 1920, 1, 3),
  ])
  func resizeMatchesTheBilinearDefinition(
    inWidth: Int, inHeight: Int, width: Int, height: Int, bands: Int
  ) throws {
    try onEveryKernelPath { path in
      var random = KernelTests.Seeded(state: UInt64(inWidth * 131 + inHeight * 17 + width + bands))
      let pixels = (0..<(inWidth * inHeight * bands)).map { _ in
        UInt8(truncatingIfNeeded: random.next())
      }
      let result = try Image.fromPixels(pixels, width: inWidth, height: inHeight, bands: bands)
        .resizedBilinear(width: width, height: height)
        .pixelBytes()
      #expect(result.count == width * height * bands)
      guard result.count == width * height * bands else { return }
      var worst = 0
      for y in 0..<height {
        let (top, bottom, fy) = Self.sample(y, from: inHeight, to: height)
        for x in 0..<width {
          let (left, right, fx) = Self.sample(x, from: inWidth, to: width)
          for band in 0..<bands {
            func value(_ column: Int, _ row: Int) -> Double {
              Double(pixels[(row * inWidth + column) * bands + band])
            }
            let upper = value(left, top) * (1 - fx) + value(right, top) * fx
            let lower = value(left, bottom) * (1 - fx) + value(right, bottom) * fx
            let expected = Int((upper * (1 - fy) + lower * fy + 0.5).rounded(.down))
            worst = max(worst, abs(Int(result[(y * width + x) * bands + band]) - expected))
          }
        }
      }
      #expect(worst <= 1, "\(path)")
    }
  }

  /// Regions that start inside a row (here through a crop) give the same pixels as whole rows.
  @Test(arguments: [1, 3, 4])
  func croppedRegionsMatchWholeRows(bands: Int) throws {
    try onEveryKernelPath { path in
      var random = KernelTests.Seeded(state: UInt64(bands))
      let pixels = (0..<(300 * 4 * bands)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
      let resized = try Image.fromPixels(pixels, width: 300, height: 4, bands: bands)
        .resizedBilinear(width: 457, height: 6)
      let whole = try resized.pixelBytes()
      let crop = try resized.extractArea(left: 7, top: 1, width: 401, height: 4).pixelBytes()
      var mismatches = 0
      for y in 0..<4 {
        for value in 0..<(401 * bands)
        where crop[y * 401 * bands + value] != whole[((y + 1) * 457 + 7) * bands + value] {
          mismatches += 1
        }
      }
      #expect(mismatches == 0, "\(path)")
    }
  }
}
