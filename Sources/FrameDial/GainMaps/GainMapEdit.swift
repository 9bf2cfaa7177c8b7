import ColourTransfer
import Dispatch
import Foundation

/// An edit of an HDR photo carried over to its HDR rendition, and the gain map that makes the edited
/// HDR rendition from the edited SDR picture (docs/image-math.md, "Editing an HDR photo").
///
/// With SDR white at 1 in linear light, the photo's HDR rendition is `hdr = sdr × (1 + (H − 1) g)`
/// (``HDRGainMap``; `g` the map's sample through the BT.709 transfer, `H` the headroom). The plan's
/// colour stages act on both renditions in the same linear light: on the SDR picture as always
/// (clipped to 0 … 1 at the end), on the HDR rendition with nothing clipped at SDR white — the transfer,
/// the look's curve and contrast continue their formulas above it — and the one clip at the headroom.
/// The new gain map is the ratio of the two results' luminances, `g′ = (Y(hdr′) / Y(sdr′) − 1) / (H − 1)`
/// clipped to 0 … 1, stored through the BT.709 transfer at 8 bits.
///
/// The stages run through tables: the base's and the map's codes to light, and the stages after the
/// linear ones (transfer, curve, contrast and back to light), which act on each channel alike, as one
/// function tabulated over the square root of light and interpolated.
struct GainMapEdit: Sendable {
  /// The headroom `H`, above 1.
  let headroom: Float
  /// The folded gains: exposure, white balance (measured ones included), diagonal looks.
  private let gains: SIMD3<Float>
  /// The merged matrix's columns; nil when no stage mixes channels.
  private let matrix: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)?
  /// The luma weights of the picture's primaries.
  private let luma: SIMD3<Float>
  /// A base code's linear light (sRGB transfer).
  private let linear: [Float]
  /// A map code's factor `1 + (H − 1) g`.
  private let boost: [Float]
  /// The stages after the linear ones, light to light, at light `(i / scale)²` for entry `i`.
  private let tail: [Float]
  /// `(tail.count − 1) / sqrt(top)`, `top` the most light the linear stages can give.
  private let tailScale: Float
  /// The light at which each 8-bit map code begins, for codes 1 … 255.
  private let thresholds: [Float]
  /// The map code of gain `i / codeSteps`, within one of the exact one.
  private let codes: [UInt8]

  /// Steps of ``codes`` between gains 0 and 1.
  static let codeSteps = 4096
  /// Entries of ``tail``.
  static let tailEntries = 4096

  /// The edit of `pipeline` (nil: no colour stage) for a photo of headroom `headroom` (> 1) whose
  /// primaries have `lumaWeights`; `autoGains` are the measured white-balance gains when the pipeline
  /// uses them.
  init?(
    pipeline: ColourPipeline?, autoGains: SIMD3<Double>, headroom: Double,
    lumaWeights: SIMD3<Double>
  ) {
    guard headroom > 1, headroom.isFinite else { return nil }
    var gains = pipeline?.gains ?? SIMD3(repeating: 1)
    if pipeline?.usesAutoGains == true {
      for channel in 0..<3 where autoGains[channel].isFinite {
        gains[channel] *= min(max(autoGains[channel], 0.25), 4)
      }
    }
    let rows = pipeline?.matrix.map { [$0.row0, $0.row1, $0.row2] }
    let reach = rows.map { $0.map { abs($0.x) + abs($0.y) + abs($0.z) }.max() ?? 1 } ?? 1
    let top = headroom * max(gains.max(), 1) * max(reach, 1)
    self.headroom = Float(headroom)
    self.gains = SIMD3<Float>(gains)
    self.matrix = rows.map { rows in
      (
        SIMD3<Float>(SIMD3(rows[0].x, rows[1].x, rows[2].x)),
        SIMD3<Float>(SIMD3(rows[0].y, rows[1].y, rows[2].y)),
        SIMD3<Float>(SIMD3(rows[0].z, rows[1].z, rows[2].z))
      )
    }
    self.luma = SIMD3<Float>(lumaWeights)
    self.linear = (0..<256).map { Float(SRGBTransfer.decode(Double($0) / 255)) }
    self.boost = (0..<256).map {
      Float(1 + (headroom - 1) * BT709Transfer.decode(Double($0) / 255))
    }
    let count = Self.tailEntries
    self.tail = (0..<count).map { index in
      let root = top.squareRoot() * Double(index) / Double(count - 1)
      return Float(Self.tail(root * root, pipeline: pipeline))
    }
    self.tailScale = Float(Double(count - 1) / top.squareRoot())
    self.thresholds = (0..<255).map { Float(BT709Transfer.decode((Double($0) + 0.5) / 255)) }
    self.codes = (0...Self.codeSteps).map {
      UInt8((BT709Transfer.encode(Double($0) / Double(Self.codeSteps)) * 255).rounded())
    }
  }

  /// The stages after the linear ones on one channel's light, continued above SDR white: the
  /// transfer's encode (negative light as 0), the look's curve, contrast, and the transfer's decode
  /// (a negative signal as 0).
  static func tail(_ light: Double, pipeline: ColourPipeline?) -> Double {
    guard let pipeline else { return max(light, 0) }
    let transfer = pipeline.encoding.transfer
    var signal = transfer.encode(max(light, 0))
    if let curve = pipeline.curve { signal = curve.evaluate(signal) }
    signal = Contrast.apply(signal, contrast: pipeline.contrast, pivot: transfer.contrastPivot)
    return transfer.decode(max(signal, 0))
  }

  /// The edited gain map of a `width × height` photo given at the map's size: `base` its 8-bit RGB
  /// codes (three bytes a pixel, sRGB transfer), `map` its gain map's codes. A pixel whose edited SDR
  /// light is black keeps its map code.
  func editedMap(base: [UInt8], map: [UInt8], width: Int, height: Int) -> [UInt8] {
    let pixels = width * height
    guard pixels > 0, base.count >= pixels * 3, map.count >= pixels else { return map }
    let bands = pixels >= 1 << 16 ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, 8)) : 1
    return [UInt8](unsafeUninitializedCapacity: pixels) { output, written in
      guard let target = output.baseAddress else { return }
      let address = UInt(bitPattern: target)
      base.withUnsafeBufferPointer { base in
        map.withUnsafeBufferPointer { map in
          let (baseAddress, mapAddress) = (
            UInt(bitPattern: base.baseAddress), UInt(bitPattern: map.baseAddress)
          )
          @Sendable func run(_ band: Int) {
            guard let base = UnsafePointer<UInt8>(bitPattern: baseAddress),
              let map = UnsafePointer<UInt8>(bitPattern: mapAddress),
              let output = UnsafeMutablePointer<UInt8>(bitPattern: address)
            else { return }
            withTables { tables in
              for index in (band * pixels / bands)..<((band + 1) * pixels / bands) {
                output[index] = tables.code(
                  red: base[3 * index], green: base[3 * index + 1], blue: base[3 * index + 2],
                  map: map[index])
              }
            }
          }
          if bands == 1 {
            run(0)
          } else {
            DispatchQueue.concurrentPerform(iterations: bands, execute: run)
          }
        }
      }
      written = pixels
    }
  }

  /// The edited map code of one pixel: its base codes and its map code.
  func code(red: UInt8, green: UInt8, blue: UInt8, map: UInt8) -> UInt8 {
    withTables { $0.code(red: red, green: green, blue: blue, map: map) }
  }

  /// Calls `body` with the tables' memory.
  private func withTables<T>(_ body: (Tables) -> T) -> T {
    linear.withUnsafeBufferPointer { linear in
      boost.withUnsafeBufferPointer { boost in
        tail.withUnsafeBufferPointer { tail in
          thresholds.withUnsafeBufferPointer { thresholds in
            codes.withUnsafeBufferPointer { codes in
              body(
                Tables(
                  edit: self, linear: linear, boost: boost, tail: tail, thresholds: thresholds,
                  codes: codes))
            }
          }
        }
      }
    }
  }

  /// The edit's tables as memory, for the loop over a map's pixels.
  private struct Tables {
    let edit: GainMapEdit
    let linear: UnsafeBufferPointer<Float>
    let boost: UnsafeBufferPointer<Float>
    let tail: UnsafeBufferPointer<Float>
    let thresholds: UnsafeBufferPointer<Float>
    let codes: UnsafeBufferPointer<UInt8>

    func code(red: UInt8, green: UInt8, blue: UInt8, map: UInt8) -> UInt8 {
      let light = SIMD3(linear[Int(red)], linear[Int(green)], linear[Int(blue)]) * edit.gains
      var mixed = light
      if let matrix = edit.matrix {
        mixed = matrix.0 * light.x + matrix.1 * light.y + matrix.2 * light.z
      }
      let factor = boost[Int(map)]
      let sdr = SIMD3(tail(mixed.x), tail(mixed.y), tail(mixed.z))
      let hdr = SIMD3(tail(mixed.x * factor), tail(mixed.y * factor), tail(mixed.z * factor))
      let headroom = edit.headroom
      let sdrLight = (edit.luma * sdr.clamped(lowerBound: .zero, upperBound: .one)).sum()
      let hdrLight =
        (edit.luma * hdr.clamped(lowerBound: .zero, upperBound: .init(repeating: headroom))).sum()
      guard sdrLight > 1e-5 else { return map }
      return code(of: (hdrLight / sdrLight - 1) / (headroom - 1))
    }

    /// The tabulated tail at `light`, linear between entries.
    private func tail(_ light: Float) -> Float {
      let position = max(light, 0).squareRoot() * edit.tailScale
      let last = tail.count - 1
      guard position < Float(last) else { return tail[last] }
      let index = Int(position)
      let fraction = position - Float(index)
      return tail[index] + (tail[index + 1] - tail[index]) * fraction
    }

    /// The 8-bit code whose light range holds `gain`: the code table's guess at `gain`'s step,
    /// then the thresholds either side of it.
    private func code(of gain: Float) -> UInt8 {
      guard gain > 0 else { return 0 }
      var code = Int(codes[min(Int(gain * Float(GainMapEdit.codeSteps)), GainMapEdit.codeSteps)])
      while code < 255 && thresholds[code] <= gain { code += 1 }
      while code > 0 && thresholds[code - 1] > gain { code -= 1 }
      return UInt8(code)
    }
  }
}
