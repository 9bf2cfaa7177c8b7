import Foundation
import HEIF
import ImageMathContract
import TestSupport
import Testing
import Vips

/// An iPhone's HDR photo edited with `apply` into a HEIC: the gain map, its type, version and
/// headroom read back with exiftool, and the HDR rendition the output makes (its picture and its
/// gain map) is the contract's edit of the input's, block by block over the whole photo.
@Suite struct GainMapEditCLITests {
  /// Sides of the blocks compared, in gain map pixels, and the step between the pixels sampled.
  static let (block, step) = (32, 4)

  /// The HDR rendition's luminance (SDR white 1) and the SDR picture's, at every `step`-th pixel of
  /// the gain map's grid, of the photo at `path` whose headroom is `headroom`, with `edit` applied
  /// to both renditions' light.
  static func luminances(
    _ path: String, headroom: Double,
    edit: (SIMD3<Double>, Double) -> SIMD3<Double> = { light, top in light }
  ) throws -> (hdr: [Double], width: Int, height: Int) {
    let type = HEIFAuxiliaryImage.appleHDRGainMapType
    let map = try #require(try HEIFFile(path: path).decodeAuxiliaryImage(type: type))
    let picture = try Image(contentsOf: path).thumbnailed(width: map.width, height: map.height)
    let pixels = try picture.pixelBytes()
    let luma = ContractFormulas.displayP3Luma
    let (width, height) = (map.width / step, map.height / step)
    var hdr: [Double] = []
    hdr.reserveCapacity(width * height)
    for y in 0..<height {
      for x in 0..<width {
        let index = y * step * map.width + x * step
        let sdr = SIMD3(
          ContractFormulas.decode(Double(pixels[index * picture.bands]) / 255),
          ContractFormulas.decode(Double(pixels[index * picture.bands + 1]) / 255),
          ContractFormulas.decode(Double(pixels[index * picture.bands + 2]) / 255))
        let light = ContractFormulas.hdrRendition(
          sdr: sdr, mapCode: Int(map.samples[index]), headroom: headroom)
        let edited = (edit(light, headroom) * luma).sum()
        let edge = (edit(sdr, 1) * luma).sum()
        // What a gain map carries: HDR light between the SDR picture's and the headroom times it.
        hdr.append(min(max(edited, edge), headroom * edge))
      }
    }
    return (hdr, width, height)
  }

  @Test(
    .enabled(if: RealFiles.available),
    arguments: zip(["heif/iphone_13_pro_max.HEIC", "heif/Apple_iPhone14.HEIC"], [true, false]))
  func anEditedHEICsHDRRenditionIsTheEditOfTheInputs(name: String, highlights: Bool) throws {
    let scratch = try CLIRunner.scratchFolder("gain-map-edit-real")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let input = RealFiles.path(name)
    let output = scratch.appendingPathComponent("edited.heic").path
    let result = try CLIRunner.run(
      [
        "apply", input, "-o", output, "--set", "ev=0.3", "--set", "wb=tungsten", "--set",
        "contrast=1.2", "--set", "saturation=1.3",
      ])
    #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
    let tags = ["-AuxiliaryImageType", "-HDRGainMapVersion", "-HDRHeadroom", "-HDRGain"]
    let read = try HDRGainMapCLITests.exiftool(tags, input)
    #expect(read.count == 4 && read.first == HEIFAuxiliaryImage.appleHDRGainMapType)
    #expect(try HDRGainMapCLITests.exiftool(tags, output) == read)
    let headroom = exp2(
      HDRGainMapCLITests.stops(Double(read[2]) ?? 0, Double(read[3]) ?? 0))

    let gains = ContractFormulas.whiteBalanceGains(
      kelvin: 2850, tint: 0, xyzToRGB: ContractFormulas.xyzToDisplayP3)
    let expected = try Self.luminances(input, headroom: headroom) { light, top in
      ContractFormulas.edited(
        light, ev: 0.3, gains: gains, saturation: 1.3, contrast: 1.2,
        luma: ContractFormulas.displayP3Luma, top: top)
    }
    let written = try Self.luminances(output, headroom: headroom)
    try #require(written.hdr.count == expected.hdr.count)
    // Mean luminance of each block, then each block's relative error where it is not near black.
    let side = Self.block / Self.step
    var errors: [Double] = []
    var above = 0
    for top in stride(from: 0, through: expected.height - side, by: side) {
      for left in stride(from: 0, through: expected.width - side, by: side) {
        var (want, got) = (0.0, 0.0)
        for y in top..<(top + side) {
          for x in left..<(left + side) {
            want += expected.hdr[y * expected.width + x]
            got += written.hdr[y * expected.width + x]
          }
        }
        want /= Double(side * side)
        got /= Double(side * side)
        guard want > 0.02 else { continue }
        above += want > 1 ? 1 : 0
        errors.append(abs(got - want) / want)
      }
    }
    errors.sort()
    let median = errors[errors.count / 2]
    let high = errors[errors.count * 95 / 100]
    #expect(errors.count > 1000, "\(errors.count) blocks")
    // The iPhone 14 photo is a dim scene: its map's largest code is 34, its picture's 167.
    #expect((above > 20) == highlights, "\(name): \(above) blocks above SDR white")
    #expect(median <= 0.01 && high <= 0.04, "\(name): median \(median), 95th percentile \(high)")
  }
}
