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

  init(_ colour: ColourRows, parts: ChannelMix16Parts, mapper: RGBToneMapper) {
    self.colour = colour
    values = .allocate(capacity: 3 * parts.outputCount)
    withUnsafePointer(to: mapper.parameters) {
      fd_tone_map_mix_lights($0, parts.outputTables, Int32(parts.outputCount), values.baseAddress)
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

  init(mapper: RGBToneMapper, colour: ColourRows, parts: ChannelMix16Parts, lights: MixLights) {
    (self.mapper, self.colour, self.lights) = (mapper, colour, lights)
    var mix = FDToneMapMix()
    mix.input_tables = parts.inputTables
    withUnsafeMutableBytes(of: &mix.matrix) { bytes in
      for (index, value) in parts.matrix.prefix(9).enumerated() {
        bytes.storeBytes(of: value, toByteOffset: index * 4, as: Float.self)
      }
    }
    mix.lights = UnsafePointer(lights.values.baseAddress)
    mix.output_count = Int32(parts.outputCount)
    mix.scale = parts.scale
    mix.square_root_index = parts.squareRootIndex ? 1 : 0
    self.mix = mix
  }

  func map(_ input: UnsafePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, pixels: Int) {
    withUnsafePointer(to: mapper.parameters) { map in
      withUnsafePointer(to: mix) { fd_tone_map_mixed_rgb48_row(input, output, pixels, map, $0) }
    }
  }
}
