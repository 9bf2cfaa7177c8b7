import CFFmpeg
import CToneMap
import ColourTransfer
import Foundation
import Synchronization

/// Tone-maps HDR video (HLG or PQ) to SDR BT.709, FrameDial's one tone mapper: `video --hdr sdr`,
/// `video --frame-at` and the studio all run it. It maps 16-bit R′G′B′ — packed rgb48le,
/// full range, the HLG or PQ codes as a frame's Y′CbCr converts to them, rendered in the video's own
/// encoding or as decoded — to packed 8-bit SDR BT.709 RGB (rgb24, full range), in one pass of
/// CToneMap's `fd_tone_map_rgb48_row`, with tables for every transcendental step:
///
/// 1. A code's HLG signal, or its PQ light with reference white at 1.0 (``PQTransfer/decode(_:)`` at
///    `npl=203`): reference white — HLG's 75 % signal on a 1000 cd/m² display, PQ's 203 cd/m²
///    (BT.2408) — is 1.0. The usual 100 cd/m² makes it 2.03, a stop too bright: a flat 75 % HLG patch
///    would come out at 236 of 255 through mobius, against 216–218 with 203, which leaves mobius's top
///    fifth of the range for highlights.
/// 2. The ``DisplayLight`` step: BT.709 display light with every colour inside BT.709, hues kept.
/// 3. The Möbius curve of libavfilter's `tonemap=mobius` (linear up to 0.3, then reaching 1.0 at the
///    peak: 1000/203 for HLG, the mastering display's or content light level's peak over 203 for PQ)
///    on the largest channel, the other two scaled by the same ratio, so a colour keeps its hue and
///    highlights roll off instead of clipping; reference white lands at 0.68 of the display's light,
///    217 of 255 (hable would put it at 173, reinhard at 207).
/// 4. BT.1886's encoding (the 2.4 power) rounded to 8 bits.
///
/// It gives the codes of libavfilter's chain of the same maths (`zscale`, the display-light step,
/// `tonemap=mobius`, `zscale`) within one (tested). Frames may be of any size (a viewfinder's); made by
/// ``VideoTranscoder/rgbToneMapper(width:height:)``, and by a transcode that tone-maps, whose frames
/// reach it row by row on their way from 10-bit Y′CbCr to 8-bit (``PlanarFrame/toneMapper``).
public final class RGBToneMapper: @unchecked Sendable {
  // `@unchecked Sendable`: the tables are written once, in init, and only read after.

  /// SDR diffuse white in cd/m² that HDR reference white is linearised to (BT.2408).
  static let referenceWhite = 203.0
  /// The peak of HLG (a 1000 cd/m² display, BT.2100's reference).
  static let hlgPeak = 1000.0
  /// Where the Möbius curve leaves the linear part (`tonemap=mobius`'s default `param`).
  static let mobiusKnee = 0.3

  /// The peak light of `range` in cd/m²: HLG's 1000; PQ's mastering display peak, else its content
  /// light level, else 1000.
  static func peak(of range: DynamicRange, metadata: HDRMetadata) -> Double {
    guard range == .pq else { return hlgPeak }
    if let display = metadata.masteringDisplay, display.maxLuminance > referenceWhite {
      return display.maxLuminance
    }
    if let level = metadata.contentLightLevel, Double(level.maxContentLight) > referenceWhite {
      return Double(level.maxContentLight)
    }
    return hlgPeak
  }

  /// The display lights at which the 8-bit SDR codes begin: −∞, then code k's for k in 1 … 255, where
  /// BT.1886's encoding, L^(1/2.4), reaches (k − 0.5)/255, then +∞.
  static let sdrThresholds =
    [-Float.infinity] + (1...255).map { Float(pow((Double($0) - 0.5) / 255, 2.4)) } + [.infinity]

  /// Slot `slot`'s entry of `FDToneMap.slot_codes`: the code of its least light in the high 16 bits;
  /// in the low 16, the low 15 bits of the light at which the next code begins when that light lies in
  /// the slot (it then shares the slot's top bits), else 0x8000, which no light's low 15 bits reach.
  static func slotCode(_ slot: Int) -> UInt32 {
    let id = UInt32(slot + Int(FD_TONE_MAP_FIRST_SLOT))
    let light = Float(bitPattern: id << 15)
    let code = sdrThresholds.lastIndex { $0 <= light } ?? 0
    let next = sdrThresholds[code + 1].bitPattern
    return UInt32(code) << 16 | (next >> 15 == id ? next & 0x7FFF : 0x8000)
  }

  /// The width of the frames mapped, in pixels.
  public let width: Int
  /// The height of the frames mapped, in pixels.
  public let height: Int
  private let light: DisplayLight
  /// A 16-bit code's value as the display-light step takes it (65 536 entries), then, for HLG, each
  /// code's value already through the HLG decoding (65 536 entries, `fd_tone_map_code_light`).
  private let tables: UnsafeMutableBufferPointer<Float>
  /// Each slot's first 8-bit code and its threshold's low bits (`FD_TONE_MAP_SLOTS` entries, as
  /// `FDToneMap.slot_codes` holds them).
  private let slotCodes: UnsafeMutableBufferPointer<UInt32>
  /// The mapping's parameters, pointing into the tables above.
  let parameters: FDToneMap
  /// The lights of the last channel mix a fused stage took in (``fused(with:)``).
  let mixLights = Mutex<MixLights?>(nil)

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
    let (codes, slots) = (65536, Int(FD_TONE_MAP_SLOTS))
    tables = .allocate(capacity: codes + (range == .hlg ? codes : 0))
    for code in 0..<codes {
      let signal = Double(code) / 65535
      tables[code] = Float(range == .pq ? PQTransfer.decode(signal) : signal)
    }
    slotCodes = .allocate(capacity: slots)
    for slot in 0..<slots {
      slotCodes[slot] = Self.slotCode(slot)
    }
    var map = FDToneMap()
    map.light = light.parameters
    map.code_value = UnsafePointer(tables.baseAddress)
    map.knee = Float(Self.mobiusKnee)
    map.peak = Float(Self.peak(of: range, metadata: metadata) / Self.referenceWhite)
    map.slot_codes = UnsafePointer(slotCodes.baseAddress)
    if range == .hlg, let decoded = tables.baseAddress.map({ $0 + codes }) {
      // The same values as decoding each pixel's signals, read from one table.
      withUnsafePointer(to: map) { fd_tone_map_code_light($0, decoded) }
      map.code_light = UnsafePointer(decoded)
    }
    parameters = map
  }

  deinit {
    tables.deallocate()
    slotCodes.deallocate()
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

  /// `pixels` packed rgb48le pixels at `input` tone-mapped into `pixels` packed rgb24 pixels at
  /// `output`, on the calling thread (any number of threads may map rows of their own at once).
  public func map(
    _ input: UnsafePointer<UInt16>, into output: UnsafeMutablePointer<UInt8>, pixels: Int
  ) {
    withUnsafePointer(to: parameters) { fd_tone_map_rgb48_row(input, output, pixels, $0) }
  }
}
