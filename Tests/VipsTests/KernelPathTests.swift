import RowKernels
import Testing

@testable import Vips

/// Every kernel on every code path this build and CPU have (``KernelPath/available``: scalar, AVX2,
/// AVX-512 on a CPU with all three) against the portable scalar path, bit for bit, on sizes whose rows
/// end in every kind of partial SIMD block. With `FRAMEDIAL_NO_SIMD` only the scalar path exists, and
/// the tests check that it is the one in force.
@Suite(.serialized) struct KernelPathTests {
  /// `render` on each available path, keyed by path; the scalar path is first.
  static func onEveryPath(_ render: () throws -> [UInt8]) rethrows -> [(KernelPath, [UInt8])] {
    defer { KernelPath.force(nil) }
    return try KernelPath.available.map { path in
      KernelPath.force(path)
      #expect(KernelPath.current == path)
      return (path, try render())
    }
  }

  /// Expects every path's bytes to equal the scalar path's, and the scalar result to differ from
  /// `input` in most places (the kernel did something).
  static func expectAgreement(_ results: [(KernelPath, [UInt8])], changing input: [UInt8]? = nil) {
    guard let (first, reference) = results.first else {
      Issue.record("no kernel path ran")
      return
    }
    #expect(first == .scalar)
    for (path, bytes) in results.dropFirst() {
      // A count, not the arrays: a failure then reports at once instead of printing whole frames.
      let differing = zip(bytes, reference).filter { $0 != $1 }.count
      #expect(bytes.count == reference.count, "\(path) against scalar: lengths")
      #expect(differing == 0, "\(path) against scalar: \(differing) of \(bytes.count) bytes differ")
    }
    if let input, input.count == reference.count {
      #expect(zip(input, reference).filter { $0 != $1 }.count > input.count / 2)
    }
  }

  static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = KernelTests.Seeded(state: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
  }

  @Test func pathsAreOrderedAndNamed() {
    #expect(KernelPath.available.first == .scalar)
    #expect(KernelPath.available.last == KernelPath.fastest)
    #expect(KernelPath.allCases.map(\.description) == ["scalar", "avx2", "avx512"])
    #expect(KernelPath.allCases.allSatisfy { KernelPath(name: $0.description) == $0 })
    #expect(KernelPath(name: "sse4") == nil)
    KernelPath.force(.avx512)
    #expect(KernelPath.current == KernelPath.fastest)
    KernelPath.force(nil)
  }

  @Test func environmentValuesAreChecked() throws {
    for name in ["scalar", "avx2", "avx512"] {
      try KernelPath.checkEnvironment(["FRAMEDIAL_SIMD": name])
    }
    try KernelPath.checkEnvironment([:])
    #expect(throws: RowKernelError.self) {
      try KernelPath.checkEnvironment(["FRAMEDIAL_SIMD": "AVX2"])
    }
    #expect(throws: RowKernelError.self) { try KernelPath.checkEnvironment(["FRAMEDIAL_SIMD": ""]) }
  }

  @Test(arguments: [(1000, 7, 3), (333, 5, 1), (97, 3, 4), (64, 2, 3)])
  func lookupTablesAgree(width: Int, height: Int, bands: Int) throws {
    let pixels = Self.randomBytes(width * height * bands, seed: UInt64(width + bands))
    let colourBands = min(bands, 3)
    let tables = Self.randomBytes(colourBands * 256, seed: 11)
    let results = try Self.onEveryPath {
      try Image.fromPixels(pixels, width: width, height: height, bands: bands)
        .applyingLookupTables(tables, colourBands: colourBands).pixelBytes()
    }
    Self.expectAgreement(results, changing: pixels)
  }

  @Test(arguments: [(1000, 5, 3), (301, 7, 4)], [false, true])
  func channelMixAgrees(size: (Int, Int, Int), squareRoot: Bool) throws {
    let (width, height, bands) = size
    let pixels = Self.randomBytes(width * height * bands, seed: UInt64(width))
    let input: [Float] = (0..<768).map { Float($0 % 256) / 255 * Float(1 + $0 / 256) / 2 }
    let matrix: [Float] = [1.2, -0.15, -0.05, -0.1, 1.3, -0.2, 0.05, -0.3, 1.25]
    let output = Self.randomBytes(3 * 4096, seed: 5)
    let results = try Self.onEveryPath {
      try Image.fromPixels(pixels, width: width, height: height, bands: bands)
        .applyingChannelMix(
          inputTables: input, matrix: matrix, outputTables: output, scale: 3000,
          squareRootIndex: squareRoot
        ).pixelBytes()
    }
    Self.expectAgreement(results, changing: pixels)
  }

  @Test func colourRowsAgreePackedAndAsPlanes() throws {
    let tables = Self.randomBytes(768, seed: 3)
    let input: [Float] = (0..<768).map { Float($0 % 256) / 255 }
    let matrix: [Float] = [1.1, -0.1, 0, -0.05, 1.1, -0.05, 0, -0.2, 1.2]
    let output = Self.randomBytes(3 * 1024, seed: 4)
    for make in [
      { try ColourRows(lookupTables: tables) },
      {
        try ColourRows(
          inputTables: input, matrix: matrix, outputTables: output, scale: 1000,
          squareRootIndex: false)
      },
    ] {
      Self.expectAgreement(
        try Self.onEveryPath { ColourRowsTests.transformed(by: try make()) },
        changing: ColourRowsTests.frame)
      Self.expectAgreement(
        try Self.onEveryPath { ColourRowsTests.transformedAsPlanes(by: try make()) },
        changing: ColourRowsTests.frame)
    }
  }

  @Test(arguments: [(1000, 6, 3, 1500, 9), (640, 4, 1, 301, 3), (97, 5, 4, 45, 11)])
  func bilinearResizeAgrees(inWidth: Int, inHeight: Int, bands: Int, width: Int, height: Int)
    throws
  {
    let pixels = Self.randomBytes(inWidth * inHeight * bands, seed: UInt64(inWidth * bands))
    let results = try Self.onEveryPath {
      try Image.fromPixels(pixels, width: inWidth, height: inHeight, bands: bands)
        .resizedBilinear(width: width, height: height).pixelBytes()
    }
    Self.expectAgreement(results)
  }

  @Test(arguments: [(1920, 3, 3, 640), (1000, 2, 1, 333), (777, 3, 4, 256), (500, 2, 3, 499)])
  func lanczosReductionAgrees(inWidth: Int, height: Int, bands: Int, width: Int) throws {
    let pixels = Self.randomBytes(inWidth * height * bands, seed: UInt64(inWidth + width))
    let results = try Self.onEveryPath {
      try Image.fromPixels(pixels, width: inWidth, height: height, bands: bands)
        .reducedHorizontally(toWidth: width).pixelBytes()
    }
    Self.expectAgreement(results)
  }

  /// The 16-bit Lanczos 3 reduction, rows then columns: the HDR viewfinder's 1080p to 1206 × 678, rows
  /// and columns that end in partial vectors and odd pixels, one axis alone, 1 to 4 bands, and a shrink
  /// of 10 whose taps only the scalar rows pass takes. Random samples reach past both ends of the range
  /// through the filter's lobes, so the clamping runs too.
  @Test(arguments: [
    (1920, 1080, 1206, 678, 3), (301, 40, 86, 13, 3), (131, 9, 130, 9, 3), (64, 70, 64, 20, 4),
    (37, 23, 19, 5, 1), (90, 400, 33, 40, 3), (45, 20, 22, 11, 2), (96, 30, 30, 10, 1),
  ])
  func sixteenBitLanczosReductionAgrees(
    inWidth: Int, inHeight: Int, width: Int, height: Int, bands: Int
  ) throws {
    var random = KernelTests.Seeded(state: UInt64(inWidth * 7 + width + bands))
    let samples = (0..<(inWidth * inHeight * bands)).map { _ in
      UInt16(truncatingIfNeeded: random.next())
    }
    let image = try Image.fromPixels16(samples, width: inWidth, height: inHeight, bands: bands)
    let results = try Self.onEveryPath {
      try image.reducedByLanczos3(toWidth: width, height: height).pixelBytes()
    }
    Self.expectAgreement(results)
    #expect(results.first?.1.count == width * height * bands * 2)
  }

  @Test(arguments: [(130, 66, 8), (97, 61, 8), (130, 66, 10)])
  func yuvConversionsAgree(width: Int, height: Int, depth: Int) throws {
    let layout = YUV420Layout(
      width: width, height: height, depth: depth, matrix: .bt709, range: .tv)
    var frame = Self.randomBytes(layout.frameBytes, seed: UInt64(width * depth))
    if depth == 10 {  // 10-bit samples in native byte order, below 1024
      for index in stride(from: 1, to: frame.count, by: 2) { frame[index] &= 3 }
    }
    let converter = try YUV420Converter(layout)
    let rgb = try Self.onEveryPath { try converter.packedRGB(fromYUV: frame) }
    Self.expectAgreement(rgb)
    guard let reference = rgb.first?.1 else { return }
    Self.expectAgreement(try Self.onEveryPath { try converter.packedYUV(fromRGB: reference) })
  }
}
