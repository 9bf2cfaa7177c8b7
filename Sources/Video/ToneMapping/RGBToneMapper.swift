import CFFmpeg
import CToneMap
import ColourTransfer
import Foundation

/// Tone-maps frames of HDR video held as 16-bit R′G′B′ — packed rgb48le, full range, the HLG or PQ
/// codes as ``VideoTranscoder/play(choose:show:)`` and
/// ``VideoTranscoder/toneMappedFrame(at:render:still:)`` hand them over, rendered in the video's own
/// encoding or as decoded — to packed 8-bit SDR BT.709 RGB (rgb24), with the maths of `video --hdr sdr`
/// (``ToneMapper``) in one pass of CToneMap's `fd_tone_map_rgb48_row`: a code's signal (HLG) or its
/// PQ light at `npl=203` (``PQTransfer/decode(_:)``), the ``DisplayLight`` step, libavfilter's
/// `tonemap=mobius` curve on the largest channel, and BT.1886's encoding rounded to 8 bits, without
/// the chain's float frames. It gives ``ToneMapper``'s libavfilter chain's codes within one (tested).
/// Frames may be of any size (a viewfinder's); made by ``VideoTranscoder/rgbToneMapper(width:height:)``.
public final class RGBToneMapper: @unchecked Sendable {
  // `@unchecked Sendable`: the tables are written once, in init, and only read after.

  /// The width of the frames mapped, in pixels.
  public let width: Int
  /// The height of the frames mapped, in pixels.
  public let height: Int
  private let light: DisplayLight
  /// A 16-bit code's value as the display-light step takes it (65 536 entries), then the lights at
  /// which the 8-bit codes begin (−∞, the 255 of codes 1 … 255, +∞).
  private let tables: UnsafeMutableBufferPointer<Float>
  /// The 8-bit code of each slot's least light (`FD_TONE_MAP_SLOTS` entries).
  private let firstCodes: UnsafeMutableBufferPointer<UInt8>
  private let parameters: FDToneMap

  /// A mapper of `width × height` frames of video tagged `colour` (HLG or PQ, as
  /// ``VideoTranscoder/rgbToneMapper(width:height:)`` checks) with `metadata` (for PQ's peak).
  ///
  /// - Throws: ``VideoError`` when the size is not positive.
  init(width: Int, height: Int, colour: ColourTags, metadata: HDRMetadata) throws(VideoError) {
    guard width > 0, height > 0 else {
      throw VideoError("cannot tone-map frames of \(width)×\(height) pixels")
    }
    let range = colour.dynamicRange
    (self.width, self.height) = (width, height)
    light = DisplayLight(range: range, bt2020: colour.primaries != AVCOL_PRI_BT709)
    let codes = 65536
    tables = .allocate(capacity: codes + 257)
    for code in 0..<codes {
      let signal = Double(code) / 65535
      tables[code] = Float(range == .pq ? PQTransfer.decode(signal) : signal)
    }
    // Code k begins where BT.1886's encoding, L^(1/2.4), reaches (k − 0.5)/255.
    let thresholds =
      [-Float.infinity]
      + (1...255).map { Float(pow((Double($0) - 0.5) / 255, 2.4)) } + [Float.infinity]
    for (index, light) in thresholds.enumerated() { tables[codes + index] = light }
    let slots = Int(FD_TONE_MAP_SLOTS)
    firstCodes = .allocate(capacity: slots)
    for slot in 0..<slots {
      let light = Float(bitPattern: UInt32(slot + Int(FD_TONE_MAP_FIRST_SLOT)) << 15)
      let code = thresholds.lastIndex { $0 <= light } ?? 0
      firstCodes[slot] = UInt8(code)
    }
    var map = FDToneMap()
    map.light = light.parameters
    map.code_value = UnsafePointer(tables.baseAddress)
    map.knee = Float(ToneMapper.mobiusKnee)
    map.peak = Float(ToneMapper.peak(of: range, metadata: metadata) / ToneMapper.referenceWhite)
    map.thresholds = UnsafePointer(tables.baseAddress.map { $0 + codes })
    map.first_codes = UnsafePointer(firstCodes.baseAddress)
    parameters = map
  }

  deinit {
    tables.deallocate()
    firstCodes.deallocate()
  }

  /// `input` (`width × height` rgb48le pixels, packed, little-endian) tone-mapped into `output`
  /// (`width × height` rgb24 pixels, packed), rows in bands on several threads.
  ///
  /// - Throws: ``VideoError`` when a buffer is too small.
  public func map(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
    throws(VideoError)
  {
    let (width, height) = (self.width, self.height)
    guard let from = input.baseAddress, input.count >= width * 6 * height else {
      throw VideoError(
        "a \(width)×\(height) frame to tone-map needs \(width * 6 * height) bytes, not \(input.count)"
      )
    }
    guard let to = output.baseAddress, output.count >= width * 3 * height else {
      throw VideoError("a tone-mapped frame does not fit its buffer")
    }
    // Addresses cross to the worker threads as integers; each band writes rows of its own.
    let (source, target) = (Int(bitPattern: from), Int(bitPattern: to))
    let bands = min(height, 8)
    DispatchQueue.concurrentPerform(iterations: bands) { band in
      withUnsafePointer(to: parameters) { map in
        for row in (band * height / bands)..<((band + 1) * height / bands) {
          guard
            let samples = UnsafePointer<UInt16>(bitPattern: source + row * width * 6),
            let bytes = UnsafeMutablePointer<UInt8>(bitPattern: target + row * width * 3)
          else { return }
          fd_tone_map_rgb48_row(samples, bytes, width, map)
        }
      }
    }
  }
}
