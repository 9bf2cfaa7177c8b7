import CFFmpeg
import CToneMap
import Foundation
import RowKernels
import Testing

@testable import Video

/// ``RGBToneMapper``'s one pass (CToneMap) against the libavfilter chain of the same maths
/// (``LibavfilterToneMapper``: zscale, the display-light step, tonemap=mobius, zscale), on the same 16-bit
/// R′G′B′ frames: codes spread over the whole range, a grey ramp and ramps of each primary.
@Suite struct RGBToneMapperTests {
  static let width = 512
  static let height = 64

  /// Packed rgb48le samples: rows of pseudo-random codes (a fixed linear congruential sequence), then
  /// a grey ramp and a ramp of each primary alone, 0 … 65535 along the row.
  static func frame() -> [UInt16] {
    var samples = [UInt16](repeating: 0, count: width * height * 3)
    var state: UInt32 = 12345
    for index in 0..<(width * (height - 4) * 3) {
      state = state &* 1_664_525 &+ 1_013_904_223
      samples[index] = UInt16(truncatingIfNeeded: state >> 16)
    }
    for x in 0..<width {
      let code = UInt16(x * 65535 / (width - 1))
      for (ramp, channels) in [[0, 1, 2], [0], [1], [2]].enumerated() {
        let base = ((height - 4 + ramp) * width + x) * 3
        for channel in channels { samples[base + channel] = code }
      }
    }
    return samples
  }

  /// `samples` tone-mapped by libavfilter's chain (``LibavfilterToneMapper`` giving rgb24).
  static func reference(_ samples: [UInt16], colour: ColourTags, metadata: HDRMetadata) throws
    -> [UInt8]
  {
    let mapper = try LibavfilterToneMapper(
      width: width, height: height, format: AV_PIX_FMT_RGB48LE, colour: colour,
      metadata: metadata, output: AV_PIX_FMT_RGB24)
    var frame: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()
    defer { av_frame_free(&frame) }
    let input = try #require(frame)
    input.pointee.width = Int32(width)
    input.pointee.height = Int32(height)
    input.pointee.format = AV_PIX_FMT_RGB48LE.rawValue
    input.pointee.color_trc = colour.transfer
    input.pointee.color_primaries = colour.primaries
    input.pointee.colorspace = AVCOL_SPC_RGB
    input.pointee.color_range = AVCOL_RANGE_JPEG
    try #require(av_frame_get_buffer(input, 0) >= 0)
    let inputPlane = try #require(input.pointee.data.0)
    let inputStride = Int(input.pointee.linesize.0)
    let rowBytes = width * 6
    try samples.withUnsafeBytes { bytes in
      let source = try #require(bytes.baseAddress)
      for row in 0..<height {
        let target = UnsafeMutableRawPointer(inputPlane + row * inputStride)
        target.copyMemory(from: source + row * rowBytes, byteCount: rowBytes)
      }
    }
    let mapped = try mapper.map(input)
    let plane = try #require(mapped.pointee.data.0)
    let stride = Int(mapped.pointee.linesize.0)
    var codes = [UInt8](repeating: 0, count: width * height * 3)
    for row in 0..<height {
      for x in 0..<(width * 3) { codes[row * width * 3 + x] = plane[row * stride + x] }
    }
    return codes
  }

  static let cases: [(String, AVColorTransferCharacteristic, AVColorPrimaries, Int?)] = [
    ("HLG, BT.2020", AVCOL_TRC_ARIB_STD_B67, AVCOL_PRI_BT2020, nil),
    ("HLG, BT.709", AVCOL_TRC_ARIB_STD_B67, AVCOL_PRI_BT709, nil),
    ("PQ, BT.2020, no metadata", AVCOL_TRC_SMPTE2084, AVCOL_PRI_BT2020, nil),
    ("PQ, BT.2020, 4000 cd/m² content", AVCOL_TRC_SMPTE2084, AVCOL_PRI_BT2020, 4000),
  ]

  /// Case `index`'s name, full-range BT.2020 colour tags and metadata.
  static func setting(_ index: Int) -> (String, ColourTags, HDRMetadata) {
    let (name, transfer, primaries, lightLevel) = cases[index]
    let colour = ColourTags(
      matrix: AVCOL_SPC_BT2020_NCL, range: AVCOL_RANGE_JPEG, primaries: primaries,
      transfer: transfer)
    var metadata = HDRMetadata()
    if let lightLevel {
      metadata.contentLightLevel = ContentLightLevel(
        maxContentLight: lightLevel, maxFrameAverageLight: lightLevel / 4)
    }
    return (name, colour, metadata)
  }

  @Test(arguments: cases.indices)
  func onePassGivesTheLibavfilterChainsCodesWithinOne(index: Int) throws {
    let (name, colour, metadata) = Self.setting(index)
    let samples = Self.frame()
    let expected = try Self.reference(samples, colour: colour, metadata: metadata)
    let mapper = try RGBToneMapper(
      width: Self.width, height: Self.height, colour: colour, metadata: metadata)
    var codes = [UInt8](repeating: 0, count: Self.width * Self.height * 3)
    try samples.withUnsafeBytes { input in
      try codes.withUnsafeMutableBytes { try mapper.map(input, into: $0) }
    }
    let differences = zip(codes, expected).map { abs(Int($0) - Int($1)) }
    let largest = differences.max() ?? 0
    let differing = differences.filter { $0 > 0 }.count
    #expect(largest <= 1, "\(name): largest difference \(largest)")
    // The reference's own codes depend on the CPU that zscale (zimg) runs its vector code on. Measured
    // on an AVX-512 CPU: 12 (HLG) to 59 (PQ) of the 98 304 samples differ, by one code; on an AMD EPYC
    // with AVX2 alone, 54–87 % of them do (FrameDial's codes are the same on both, see
    // `everyKernelPathGivesTheScalarPathsCodes`), so there the bound is the one code alone.
    if Self.cpuHasAVX512 {
      #expect(differing * 1000 < differences.count, "\(name): \(differing) samples differ")
    }
  }

  /// True when /proc/cpuinfo lists AVX-512 F among the CPU's flags.
  static let cpuHasAVX512: Bool = {
    let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    return info.split(separator: "\n").contains {
      $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx512f")
    }
  }()

  @Test(arguments: cases.indices)
  func everyKernelPathGivesTheScalarPathsCodes(index: Int) throws {
    let (name, colour, metadata) = Self.setting(index)
    let mapper = try RGBToneMapper(
      width: Self.width, height: Self.height, colour: colour, metadata: metadata)
    let samples = Self.frame()
    // A run that ends inside a SIMD block, and a run of every sample: the block loops and their tails.
    func mapped(_ pixels: Int) -> [UInt8] {
      var codes = [UInt8](repeating: 0, count: pixels * 3)
      samples.withUnsafeBufferPointer { input in
        codes.withUnsafeMutableBufferPointer { output in
          mapper.map(input.baseAddress!, into: output.baseAddress!, pixels: pixels)
        }
      }
      return codes
    }
    defer { KernelPath.force(nil) }
    let lengths = [Self.width * Self.height, Self.width * Self.height - 13, 7]
    KernelPath.force(.scalar)
    let expected = lengths.map(mapped)
    for path in KernelPath.available {
      KernelPath.force(path)
      #expect(lengths.map(mapped) == expected, "\(name) on the \(path) path")
    }
  }

  /// Every 16-bit code as a grey, and again with the other channels apart, through each setting on
  /// every path: the output lights pass every 8-bit code's threshold in small steps, so a vector path
  /// that found a code's slot or thresholds other than the scalar path does would show.
  @Test(arguments: cases.indices)
  func everyCodeGivesTheScalarPathsCodesOnEveryPath(index: Int) throws {
    let (name, colour, metadata) = Self.setting(index)
    let (width, height) = (512, 256)
    let mapper = try RGBToneMapper(width: width, height: height, colour: colour, metadata: metadata)
    var samples = [UInt16](repeating: 0, count: width * height * 3)
    for code in 0..<65536 {
      let value = UInt16(code)
      samples.replaceSubrange((3 * code)..<(3 * code + 3), with: [value, value, value])
      let coloured = 3 * (65536 + code)
      samples.replaceSubrange(
        coloured..<(coloured + 3), with: [value, value / 3, UInt16(65535 - code)])
    }
    func mapped() -> [UInt8] {
      var codes = [UInt8](repeating: 0, count: width * height * 3)
      samples.withUnsafeBufferPointer { input in
        codes.withUnsafeMutableBufferPointer { output in
          guard let from = input.baseAddress, let to = output.baseAddress else { return }
          mapper.map(from, into: to, pixels: width * height)
        }
      }
      return codes
    }
    defer { KernelPath.force(nil) }
    KernelPath.force(.scalar)
    let expected = mapped()
    #expect(Set(expected).count > 200, "the ramps reach most codes")
    for path in KernelPath.available.dropFirst() {
      KernelPath.force(path)
      let codes = mapped()
      #expect(zip(codes, expected).filter { $0 != $1 }.count == 0, "\(name) on the \(path) path")
    }
  }

  /// The code table: a slot's first code is its least light's, its low bits those of the next code's
  /// threshold when it lies in the slot, and no slot holds two thresholds, so first code or the next by
  /// one comparison of low bits is every light's exact code; checked on lights spread over every slot,
  /// and on each side of every threshold, against the thresholds themselves.
  @Test func theSlotTableGivesEveryLightsExactCode() throws {
    let (_, colour, metadata) = Self.setting(0)
    let mapper = try RGBToneMapper(width: 8, height: 8, colour: colour, metadata: metadata)
    let entries = try #require(mapper.parameters.slot_codes)
    let thresholds = RGBToneMapper.sdrThresholds
    func exact(_ light: Float) -> Int { (thresholds.lastIndex { $0 <= light } ?? 0) }
    func first(_ slot: Int) -> Int { Int(entries[slot] >> 16) }
    let slots = Int(FD_TONE_MAP_SLOTS)
    #expect(first(0) == 0 && first(slots - 1) == 255)
    var (checked, inside) = (0, 0)
    for slot in 0..<slots {
      if slot + 1 < slots { #expect(first(slot + 1) - first(slot) <= 1, "slot \(slot)") }
      let low = entries[slot] & 0xFFFF
      #expect(low <= 0x8000, "slot \(slot)")
      // The slot's least light, 61 lights across it, its last light, and both sides of its threshold.
      let least = UInt32(slot + Int(FD_TONE_MAP_FIRST_SLOT)) << 15
      let span: UInt32 = slot + 1 < slots ? 1 << 15 : 1
      var steps = Array(stride(from: 0, to: span, by: 541)) + [span - 1]
      if low < 0x8000 {
        steps += [low, max(low, 1) - 1]
        inside += 1
      }
      for step in steps {
        let light = Float(bitPattern: least + step)
        let code = first(slot) + (step >= low ? 1 : 0)
        if code != exact(light) {
          Issue.record("light \(light) in slot \(slot): \(code), not \(exact(light))")
          return
        }
        checked += 1
      }
    }
    #expect(checked > 300_000)
    #expect(inside > 200, "most codes' thresholds lie inside a slot")
  }
}
