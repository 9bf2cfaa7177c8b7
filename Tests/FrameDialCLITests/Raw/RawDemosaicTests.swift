import CRowKernels
import Foundation
import RowKernels
import Testing

@testable import Raw

/// FrameDial's AHD demosaicing against LibRaw 0.20's own AHD, sample for sample, on DNGs the tests
/// write: every Bayer pattern, sizes that leave every kind of tail, noise that clips, on every code
/// path and in one to three bands; other patterns refused, and LibRaw's own when it does not run.
@Suite(.serialized) struct RawDemosaicTests {
  /// A scene of noise: each pixel's colours pseudo-random over 0 … 1.3 of the white level (a fifth
  /// of the samples clip), so that edges run everywhere and the two directions' homogeneity differs
  /// from pixel to pixel; seen through a camera whose channels mix.
  static func noise(width: Int, height: Int, pattern: [UInt8]) -> DNGScene {
    var scene = DNGScene()
    (scene.width, scene.height, scene.pattern) = (width, height, pattern)
    scene.colourMatrix = [0.9, -0.25, -0.05, -0.45, 1.3, 0.15, -0.05, 0.15, 0.7]
    (scene.whiteLevel, scene.blackLevel) = (16383, 512)
    scene.asShotNeutral = SIMD3(0.42, 1, 0.63)
    scene.scene = { x, y in
      func unit(_ channel: Int) -> Double {
        var hash = UInt64(x &* 73_856_093 ^ y &* 19_349_663 ^ channel &* 83_492_791)
        hash = (hash ^ (hash >> 29)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 32
        return Double(hash % 10_000) / 10_000 * 1.3
      }
      return SIMD3(unit(0), unit(1), unit(2))
    }
    return scene
  }

  /// Writes `scene` as a DNG in a new folder.
  static func write(_ scene: DNGScene) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-demosaic-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent("noise.dng")
    try scene.data().write(to: url)
    return url
  }

  /// The red, green and blue samples of the file's development in the camera's colours, after
  /// `finish` (which may change the working picture; it gets its samples, width and height).
  static func developed(
    _ url: URL, _ demosaicing: RawFile.Demosaicing,
    finish: (UnsafeMutablePointer<UInt16>, Int, Int) throws -> Void = { _, _, _ in }
  ) throws -> [UInt16] {
    let file = try RawFile(path: url.path)
    let picture = try file.developInCameraColours(demosaicing: demosaicing)
    // FrameDial's AHD ran exactly when asked for with a band to run in.
    if case .frameDial(let bands) = demosaicing, bands > 0 {
      #expect(file.isDemosaicedByFrameDial)
    } else {
      #expect(!file.isDemosaicedByFrameDial)
    }
    try finish(picture.samples, picture.width, picture.height)
    return (0..<(picture.width * picture.height)).flatMap { pixel in
      (0..<3).map { picture.samples[pixel * 4 + $0] }
    }
  }

  static let bayerPatterns: [[UInt8]] = [
    [0, 1, 1, 2], [2, 1, 1, 0], [1, 0, 2, 1], [1, 2, 0, 1],
  ]

  @Test(arguments: bayerPatterns, [[22, 22], [67, 45], [250, 37], [37, 90]])
  func everySampleIsLibRawsOwnAHDOnEveryPathAndInAnyBands(pattern: [UInt8], size: [Int]) throws {
    defer { KernelPath.force(nil) }
    let url = try Self.write(Self.noise(width: size[0], height: size[1], pattern: pattern))
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    let libRaw = try Self.developed(url, .libRaw)
    // Not a flat picture: most samples differ from their neighbours.
    #expect(Set(libRaw).count > libRaw.count / 4)
    // Not the mosaic: each pixel's other colours filled.
    #expect(libRaw != (try Self.developed(url, .none)))
    for path in KernelPath.available {
      KernelPath.force(path)
      for bands in [1, 2, 3] {
        let ours = try Self.developed(url, .frameDial(bands: bands))
        let wrong = zip(ours, libRaw).filter { $0 != $1 }.count
        #expect(wrong == 0, "\(path), \(bands) bands: \(wrong) of \(libRaw.count) samples differ")
      }
    }
  }

  /// The 16-bit way (LibRaw's conversion to sRGB, and its copy upright for a turned raw) on FrameDial's
  /// AHD gives LibRaw's own development sample for sample.
  @Test(arguments: [1, 3, 6, 8])
  func theSixteenBitDevelopmentIsLibRawsOwnInEveryOrientation(orientation: Int) throws {
    var scene = Self.noise(width: 57, height: 41, pattern: [1, 2, 0, 1])
    scene.orientation = orientation
    let url = try Self.write(scene)
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    func developed(_ demosaicing: RawFile.Demosaicing) throws -> (Int, Int, [UInt16]) {
      let file = try RawFile(path: url.path)
      let raw = try file.develop(halfSize: false, curve: nil, demosaicing: demosaicing)
      #expect(file.isDemosaicedByFrameDial == (demosaicing != .libRaw))
      #expect(raw.samples.count == raw.width * raw.height * raw.bands)
      return (raw.width, raw.height, Array(raw.samples))
    }
    let libRaw = try developed(.libRaw)
    let ours = try developed(.frameDial(bands: 2))
    // Turned a quarter for orientations 6 and 8.
    #expect(libRaw.0 == (orientation >= 5 ? 41 : 57) && libRaw.1 == (orientation >= 5 ? 57 : 41))
    #expect(ours.0 == libRaw.0 && ours.1 == libRaw.1)
    #expect(Set(libRaw.2).count > libRaw.2.count / 4)
    let wrong = zip(ours.2, libRaw.2).filter { $0 != $1 }.count
    #expect(wrong == 0, "\(wrong) of \(libRaw.2.count) samples differ")
  }

  /// When FrameDial's AHD does not run (here: no band to run it in), LibRaw's own develops the file
  /// again from its raw data: the same samples as asking for LibRaw's.
  @Test func whenTheKernelDoesNotRunLibRawsOwnDemosaics() throws {
    let url = try Self.write(Self.noise(width: 40, height: 32, pattern: [0, 1, 1, 2]))
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    var ran = true
    _ = try Self.developed(url, .none) { samples, width, height in
      ran = AHDDemosaic.run(
        samples, width: width, height: height, filters: 0x9494_9494,
        camera: [1, 0, 0, 0, 1, 0, 0, 0, 1], bands: 0)
    }
    #expect(!ran)
    let libRaw = try Self.developed(url, .libRaw)
    #expect(try Self.developed(url, .frameDial(bands: 0)) == libRaw)
    #expect(try Self.developed(url, .frameDial(bands: 2)) == libRaw)
  }

  /// Patterns other than red, green and blue with two greens on a diagonal of each 2 × 2 block are
  /// refused, and the picture is left as it was.
  @Test(arguments: [
    // Greens sharing a column; sharing a row; a fourth colour; an X-Trans sensor; a Leaf sensor.
    UInt32(0x6464_6464), 0x8585_8585, 0xE4E4_E4E4, 9, 1,
  ])
  func otherPatternsAreRefused(filters: UInt32) throws {
    var picture = [UInt16](repeating: 1000, count: 32 * 32 * 4)
    let ran = try picture.withUnsafeMutableBufferPointer { buffer in
      AHDDemosaic.run(
        try #require(buffer.baseAddress), width: 32, height: 32, filters: filters,
        camera: [1, 0, 0, 0, 1, 0, 0, 0, 1], bands: 1)
    }
    #expect(!ran)
    #expect(picture.allSatisfy { $0 == 1000 })
  }

  /// The kernel alone on pictures LibRaw never makes (any code at any pixel, the full 16-bit range):
  /// the scalar path and the AVX2 path give the same samples, and so do any number of bands.
  @Test(arguments: [[16, 16], [61, 23], [333, 40], [40, 100]])
  func everyPathAndBandCountGivesTheSameSamplesOnAnyCodes(size: [Int]) throws {
    defer { KernelPath.force(nil) }
    let (width, height) = (size[0], size[1])
    var random = UInt64(width * 977 + height)
    let mosaic: [UInt16] = (0..<(width * height * 4)).map { index in
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let value = UInt16(truncatingIfNeeded: random >> 40)
      return index % 7 == 0 ? 65535 : index % 17 == 0 ? 0 : value
    }
    let camera: [Float] = [1.9, -0.7, -0.2, -0.35, 1.6, -0.25, 0.1, -0.9, 1.8]
    // Red, green / green, blue as LibRaw gives it after its pre_interpolate.
    let filters: UInt32 = 0x9494_9494
    func demosaiced(_ bands: Int) throws -> [UInt16] {
      var picture = mosaic
      let ran = try picture.withUnsafeMutableBufferPointer { buffer in
        AHDDemosaic.run(
          try #require(buffer.baseAddress), width: width, height: height, filters: filters,
          camera: camera,
          bands: bands)
      }
      #expect(ran)
      return picture
    }
    KernelPath.force(.scalar)
    let reference = try demosaiced(1)
    #expect(reference != mosaic)
    for path in KernelPath.available {
      KernelPath.force(path)
      for bands in [1, 2, 5] {
        let samples = try demosaiced(bands)
        let wrong = zip(samples, reference).filter { $0 != $1 }.count
        #expect(wrong == 0, "\(path), \(bands) bands: \(wrong) samples differ")
      }
    }
  }
}
