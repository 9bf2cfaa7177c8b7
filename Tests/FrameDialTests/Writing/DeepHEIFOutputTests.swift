import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// A 16-bit picture written as HEIC keeps 10 bits a sample (HEVC Main 10) and as AVIF 12: a ramp of
/// 512 levels comes back with more than 256 of them, each near its own level; an 8-bit picture stays
/// 8 bits.
@Suite(.serialized) struct DeepHEIFOutputTests {
  let renderer = StillRenderer()

  /// A 512 × 64 16-bit RGB PNG at `path`: a grey ramp across, level `128 x` at column `x`.
  static func writeRamp(_ path: String) throws {
    var samples = [UInt16](repeating: 0, count: 512 * 64 * 3)
    for y in 0..<64 {
      for x in 0..<512 {
        for channel in 0..<3 { samples[(y * 512 + x) * 3 + channel] = UInt16(x * 128) }
      }
    }
    try Image.fromPixels16(samples, width: 512, height: 64, bands: 3).write(to: path)
  }

  @Test(arguments: [(ImageFormat.heic, 10), (.avif, 12)])
  func aSixteenBitPictureKeepsMoreThanEightBits(format: ImageFormat, bits: Int) throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("ramp.png").path
    try Self.writeRamp(input)
    #expect(try Image(contentsOf: input).format == .ushort)
    let output = folder.appendingPathComponent("ramp.\(format.fileExtension)").path
    try renderer.renderFile(at: input, to: output, state: ControlState())
    #expect(HEIFOutput.bitDepth(of: try Image(contentsOf: input), format: format) == bits)

    let written = try Image(contentsOf: output)
    #expect(written.format == .ushort, "\(format): read back as \(written.format)")
    let row = try written.extractArea(left: 0, top: 32, width: 512, height: 1)
      .extractBands(1).cast(to: .ushort)
    let levels = try row.pixelBytes().withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    #expect(Set(levels).count > 256, "\(format): \(Set(levels).count) levels")
    let worst = levels.enumerated().map { abs(Int($1) - $0 * 128) }.max() ?? 65535
    // One code of 10 bits is 64 of 16; the encoder's loss on a smooth ramp is a few more.
    #expect(worst <= 512, "\(format): a level is \(worst) of 65535 off")

    let eight = folder.appendingPathComponent("eight.\(format.fileExtension)").path
    let jpeg = folder.appendingPathComponent("ramp.jpg").path
    try renderer.renderFile(at: input, to: jpeg, state: ControlState())
    try renderer.renderFile(at: jpeg, to: eight, state: ControlState())
    #expect(try Image(contentsOf: eight).format == .uchar)
  }
}
