import CRowKernels
import CToneMap
import RowKernels

/// The lights of one 16-bit channel mix's output codes, as the tone mapper reads them
/// (`fd_tone_map_mix_lights`), with the mix they were made for.
final class MixLights: @unchecked Sendable {
  // `@unchecked Sendable`: written once, in init, and only read after.

  /// The mix, while it lives.
  private(set) weak var colour: ColourRows?
  /// 3 × the mix's output count.
  let values: UnsafeMutableBufferPointer<Float>

  init(_ colour: ColourRows, parts: FDColourMix16, mapper: RGBToneMapper) {
    self.colour = colour
    values = .allocate(capacity: 3 * Int(max(0, parts.output_count)))
    withUnsafePointer(to: mapper.parameters) {
      fd_tone_map_mix_lights($0, parts.output_tables, parts.output_count, values.baseAddress)
    }
  }

  deinit { values.deallocate() }
}

/// A 16-bit channel mix and the tone mapping to SDR as one stage (CToneMap's
/// `fd_tone_map_mixed_rgb48_row`): each pixel is mixed and mapped in one step, with no 16-bit row
/// between them, and comes out with the codes of the mix followed by the mapper.
final class MixedToneMapStage: RGB48RowStage, @unchecked Sendable {
  // `@unchecked Sendable`: nothing changes after init.

  private let mapper: RGBToneMapper
  /// Holds the mix's tables, which `mix` points into.
  private let colour: ColourRows
  private let lights: MixLights
  private let mix: FDToneMapMix

  init(mapper: RGBToneMapper, colour: ColourRows, parts: FDColourMix16, lights: MixLights) {
    (self.mapper, self.colour, self.lights) = (mapper, colour, lights)
    mix = FDToneMapMix(colour: parts, lights: UnsafePointer(lights.values.baseAddress))
  }

  func map(_ input: UnsafePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, pixels: Int) {
    withUnsafePointer(to: mapper.parameters) { map in
      withUnsafePointer(to: mix) { fd_tone_map_mixed_rgb48_row(input, output, pixels, map, $0) }
    }
  }
}
