import Foundation
import RowKernels
import Testing

@testable import Video

/// ``RGBToneMapper/fused(with:)``: a 16-bit channel mix and the tone mapping in one step a row give,
/// on every kernel path, the codes of the mix's 16-bit rows mapped by the mapper.
@Suite struct MixedToneMapStageTests {
  /// A 16-bit mix shaped like a colour state's: inputs squared and scaled a channel (a warm white
  /// balance, one stop up), a saturation matrix whose negative terms push colours below 0, and output
  /// codes of the square root (or the value itself) up to a peak of 4, so that bright colours reach
  /// the tables' ends.
  static func mix(squareRoot: Bool) throws -> ColourRows {
    let gains: [Float] = [2.4, 2.0, 1.5]
    var inputs = [Float](repeating: 0, count: 3 * 65536)
    for channel in 0..<3 {
      for code in 0..<65536 {
        let signal = Float(code) / 65535
        inputs[channel * 65536 + code] = gains[channel] * signal * signal
      }
    }
    let s: Float = 1.3
    let weights: [Float] = [0.2627, 0.6780, 0.0593]
    var matrix = [Float](repeating: 0, count: 9)
    for row in 0..<3 {
      for column in 0..<3 {
        matrix[3 * row + column] = (1 - s) * weights[column] + (row == column ? s : 0)
      }
    }
    let count = 4097
    let peak: Float = 4
    let scale = Float(count - 1) / (squareRoot ? peak.squareRoot() : peak)
    var outputs = [UInt16](repeating: 0, count: 3 * count)
    for channel in 0..<3 {
      for index in 0..<count {
        let position = Float(index) / scale
        let light = squareRoot ? position * position : position
        // The inverse of the inputs' square, to a code, a little apart per channel.
        let signal = min((light / peak).squareRoot() * (1 - 0.01 * Float(channel)), 1)
        outputs[channel * count + index] = UInt16((signal * 65535).rounded())
      }
    }
    return try ColourRows(
      inputTables16: inputs, matrix: matrix, outputTables16: outputs, scale: scale,
      squareRootIndex: squareRoot)
  }

  @Test(arguments: RGBToneMapperTests.cases.indices, [true, false])
  func mixedRowsGiveTheMixThenTheMapperOnEveryPath(index: Int, squareRoot: Bool) throws {
    let (name, colour, metadata) = RGBToneMapperTests.setting(index)
    let (width, height) = (RGBToneMapperTests.width, RGBToneMapperTests.height)
    let mapper = try RGBToneMapper(width: width, height: height, colour: colour, metadata: metadata)
    let mix = try Self.mix(squareRoot: squareRoot)
    let stage = try #require(mapper.fused(with: mix))
    #expect(stage !== mapper)
    let samples = RGBToneMapperTests.frame()
    let pixels = width * height
    func twoSteps(_ count: Int) -> [UInt8] {
      var mixed = [UInt16](repeating: 0, count: 3 * count)
      var codes = [UInt8](repeating: 0, count: 3 * count)
      samples.withUnsafeBufferPointer { input in
        mixed.withUnsafeMutableBufferPointer { middle in
          codes.withUnsafeMutableBufferPointer { output in
            guard let from = input.baseAddress, let between = middle.baseAddress,
              let to = output.baseAddress
            else { return }
            mix.apply16(from, between, pixels: count)
            mapper.map(UnsafePointer(between), into: to, pixels: count)
          }
        }
      }
      return codes
    }
    func oneStep(_ count: Int) -> [UInt8] {
      var codes = [UInt8](repeating: 0, count: 3 * count)
      samples.withUnsafeBufferPointer { input in
        codes.withUnsafeMutableBufferPointer { output in
          guard let from = input.baseAddress, let to = output.baseAddress else { return }
          stage.map(from, into: to, pixels: count)
        }
      }
      return codes
    }
    defer { KernelPath.force(nil) }
    // The whole frame, a run that ends inside a SIMD block, and a run shorter than any block.
    let lengths = [pixels, pixels - 13, 7]
    KernelPath.force(.scalar)
    let expected = lengths.map(twoSteps)
    #expect(Set(expected[0]).count > 200, "\(name): the mixed frame reaches most codes")
    for path in KernelPath.available {
      KernelPath.force(path)
      for (length, codes) in zip(lengths, expected) {
        let differing = zip(oneStep(length), codes).filter { $0 != $1 }.count
        #expect(differing == 0, "\(name), \(length) pixels on the \(path) path")
      }
    }
  }

  /// The tables a fused stage needs are made once for a mix and again only for another.
  @Test func aStageForTheSameMixReusesItsLights() throws {
    let (_, colour, metadata) = RGBToneMapperTests.setting(0)
    let mapper = try RGBToneMapper(width: 8, height: 8, colour: colour, metadata: metadata)
    let mix = try Self.mix(squareRoot: true)
    _ = mapper.fused(with: mix)
    let first = mapper.mixLights.withLock { $0.map(ObjectIdentifier.init) }
    _ = mapper.fused(with: mix)
    #expect(mapper.mixLights.withLock { $0.map(ObjectIdentifier.init) } == first)
    _ = mapper.fused(with: try Self.mix(squareRoot: false))
    #expect(mapper.mixLights.withLock { $0.map(ObjectIdentifier.init) } != first)
  }

  /// A colour that is not a 16-bit mix stays in front of the mapper.
  @Test func aLookupTableIsNotTakenIn() throws {
    let (_, colour, metadata) = RGBToneMapperTests.setting(0)
    let mapper = try RGBToneMapper(width: 8, height: 8, colour: colour, metadata: metadata)
    let tables = (0..<(3 * 65536)).map { UInt16(truncatingIfNeeded: $0) }
    #expect(mapper.fused(with: try ColourRows(lookupTables16: tables)) == nil)
  }
}
