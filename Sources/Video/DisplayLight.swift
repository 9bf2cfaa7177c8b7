import CFFmpeg
import ColourTransfer
import Foundation

/// The step of ``ToneMapper`` that FrameDial does itself, on planar float RGB (gbrpf32le: planes G, B,
/// R), in place: from what libavfilter's `zscale` gives to BT.709 display light, 1.0 being reference
/// white, with every colour inside BT.709.
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
struct DisplayLight: Sendable {
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

  private let decodesHLG: Bool
  private let converts: Bool
  /// HLG's inverse OETF (``HLGTransfer/decode(_:)``) over 0 … `signalTop`.
  private let sceneLight: [Float]
  /// `Lw/203 · Y^(γ−1)` over 0 … `luminanceTop`.
  private let systemGain: [Float]
  /// The luma weights of the input's primaries.
  private let weights: (Float, Float, Float)

  /// The step for input of `range` over BT.2020 primaries (`bt2020` false: BT.709).
  init(range: DynamicRange, bt2020: Bool) {
    decodesHLG = range == .hlg
    converts = bt2020
    weights = bt2020 ? (0.2627, 0.6780, 0.0593) : (0.2126, 0.7152, 0.0722)
    let size = Self.tableSize
    sceneLight = (0...size).map { index in
      Float(HLGTransfer.decode(Double(index) / Double(size) * Double(Self.signalTop)))
    }
    let scale = Float(ToneMapper.hlgPeak / ToneMapper.referenceWhite)
    systemGain = (0...size).map { index in
      scale * pow(Float(index) / Float(size) * Self.luminanceTop, Self.hlgGamma - 1)
    }
  }

  /// `table` (over 0 … `top`) at `value`, interpolated; clamped at both ends.
  private static func look(_ table: UnsafeBufferPointer<Float>, _ value: Float, top: Float) -> Float
  {
    let position = min(max(value, 0) / top, 1) * Float(tableSize)
    let index = min(Int(position), tableSize - 1)
    let fraction = position - Float(index)
    return table[index] + (table[index + 1] - table[index]) * fraction
  }

  /// Applies the step to the `width × height` gbrpf32le `frame`, rows in bands on several threads.
  func apply(to frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int) {
    let data = frame.pointee.data
    let lines = frame.pointee.linesize
    guard let green = data.0, let blue = data.1, let red = data.2 else { return }
    // Addresses cross to the worker threads as integers; each band writes rows of its own.
    let planes = [green, blue, red].map { Int(bitPattern: $0) }
    let strides = [lines.0, lines.1, lines.2].map { Int($0) }
    let bands = min(height, 8)
    DispatchQueue.concurrentPerform(iterations: bands) { band in
      let rows = (band * height / bands)..<((band + 1) * height / bands)
      for row in rows {
        let rowPlanes = (0..<3).compactMap {
          UnsafeMutablePointer<Float>(bitPattern: planes[$0] + row * strides[$0])
        }
        guard rowPlanes.count == 3 else { return }
        applyRow(red: rowPlanes[2], green: rowPlanes[0], blue: rowPlanes[1], width: width)
      }
    }
  }

  /// One row of ``apply(to:width:height:)``.
  private func applyRow(
    red: UnsafeMutablePointer<Float>, green: UnsafeMutablePointer<Float>,
    blue: UnsafeMutablePointer<Float>, width: Int
  ) {
    let m = Self.bt2020ToBT709
    sceneLight.withUnsafeBufferPointer { scene in
      systemGain.withUnsafeBufferPointer { gain in
        for x in 0..<width {
          var (r, g, b) = (red[x], green[x], blue[x])
          if decodesHLG {
            r = Self.look(scene, r, top: Self.signalTop)
            g = Self.look(scene, g, top: Self.signalTop)
            b = Self.look(scene, b, top: Self.signalTop)
            let luminance = weights.0 * r + weights.1 * g + weights.2 * b
            let factor = Self.look(gain, luminance, top: Self.luminanceTop)
            (r, g, b) = (r * factor, g * factor, b * factor)
          }
          if converts {
            (r, g, b) = (
              m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b,
              m[6] * r + m[7] * g + m[8] * b
            )
          }
          let least = min(r, g, b)
          if least < 0 {
            let luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
            if luminance > 0 {
              let keep = luminance / (luminance - least)
              (r, g, b) = (
                luminance + keep * (r - luminance), luminance + keep * (g - luminance),
                luminance + keep * (b - luminance)
              )
            } else {
              (r, g, b) = (0, 0, 0)
            }
          }
          (red[x], green[x], blue[x]) = (r, g, b)
        }
      }
    }
  }
}
