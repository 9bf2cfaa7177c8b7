import CFFmpeg
import CToneMap
import ColourTransfer
import Foundation

/// The display-light step of ``RGBToneMapper``: from HLG's signal or PQ's light (1.0 being
/// reference white) to BT.709 display light, with every colour inside BT.709. (It also runs on planar
/// float RGB, gbrpf32le: planes G, B, R, in place, as libavfilter's `zscale` gives it, in the tests'
/// reference chain.)
///
/// - HLG comes as its R′G′B′ signal and is decoded here with BT.2100's inverse OETF and its OOTF on
///   luminance, `Fd = Lw/203 · Ys^(γ−1) · E` (γ = 1.2 for Lw = 1000 cd/m²), which keeps each colour's
///   hue: `zscale`'s own HLG decoding raises each channel to γ instead, which turns a BT.709 red
///   (0.627, 0.069, 0.016 in BT.2020) into (0.627, 0.045, 0.0085) light, more saturated and just
///   outside BT.709.
/// - PQ comes as linear light from `zscale` (its EOTF with `npl=203`), kept as it is.
/// - BT.2020 primaries are converted to BT.709 (BT.2087's matrix).
/// - A colour outside BT.709 (a channel below 0) is moved towards the grey of its own BT.709
///   luminance until that channel is 0: luminance and the hue line kept, where clipping each channel
///   to 0 (what the encoding would do) makes it brighter and shifts its hue (BT.2020's green turns
///   yellow-green).
///
/// The arithmetic is CToneMap's `fd_display_light_row`, which ``RGBToneMapper``'s whole mapping runs
/// too.
final class DisplayLight: @unchecked Sendable {
  // `@unchecked Sendable`: the tables are written once, in init, and only read after.

  /// BT.2020 to BT.709, linear RGB (ITU-R BT.2087).
  static let bt2020ToBT709: [Float] = [
    1.6605, -0.5876, -0.0728,
    -0.1246, 1.1329, -0.0083,
    -0.0182, -0.1006, 1.1187,
  ]

  /// HLG's system gamma for a 1000 cd/m² display.
  static let hlgGamma: Float = 1.2
  private static let tableSize = 4096
  /// The largest HLG signal tabulated (super-whites reach 1.09).
  private static let signalTop: Float = 1.25
  /// The largest scene luminance tabulated for Ys^(γ−1).
  private static let luminanceTop: Float = 1.5

  /// `Lw/203 · Y^(γ−1)` over 0 … `luminanceTop` as `tableSize` (value, step) pairs, then HLG's
  /// inverse OETF (``HLGTransfer/decode(_:)``) over 0 … `signalTop`, `tableSize + 1` entries; nil for PQ.
  private let tables: UnsafeMutableBufferPointer<Float>?
  /// The step as the C kernel runs it (``fd_display_light_row``), pointing into `tables`.
  let parameters: FDDisplayLight

  /// The step for input of `range` over BT.2020 primaries (`bt2020` false: BT.709).
  init(range: DynamicRange, bt2020: Bool) {
    let size = Self.tableSize
    var step = FDDisplayLight()
    if range == .hlg {
      // The gain's (value, step) pairs first, so that each pair is 8-byte aligned, then the decoding.
      let tables = UnsafeMutableBufferPointer<Float>.allocate(capacity: 2 * size + size + 1)
      let scale = Float(RGBToneMapper.hlgPeak / RGBToneMapper.referenceWhite)
      let gains = (0...size).map {
        scale * pow(Float($0) / Float(size) * Self.luminanceTop, Self.hlgGamma - 1)
      }
      for index in 0..<size {
        tables[2 * index] = gains[index]
        tables[2 * index + 1] = gains[index + 1] - gains[index]
      }
      for index in 0...size {
        tables[2 * size + index] = Float(
          HLGTransfer.decode(Double(index) / Double(size) * Double(Self.signalTop)))
      }
      step.system_gain_steps = UnsafePointer(tables.baseAddress)
      step.scene_light = UnsafePointer(tables.baseAddress.map { $0 + 2 * size })
      self.tables = tables
    } else {
      tables = nil
    }
    step.table_size = Int32(size)
    step.signal_top = Self.signalTop
    step.luminance_top = Self.luminanceTop
    step.weights = bt2020 ? (0.2627, 0.6780, 0.0593) : (0.2126, 0.7152, 0.0722)
    step.converts = bt2020 ? 1 : 0
    let m = Self.bt2020ToBT709
    step.matrix = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
    parameters = step
  }

  deinit { tables?.deallocate() }
}
