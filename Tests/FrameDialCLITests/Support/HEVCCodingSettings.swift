import Foundation
import TestSupport

/// The coding settings of a HEIC's picture, read from the parameter sets of its `hvcC` box: what tells
/// x265's presets apart in the file (libheif 1.15 writes no x265 information SEI naming them). Through
/// libheif, x265 codes 64 × 64 trees at every preset; `ultrafast` splits them down to 16 × 16 units,
/// without sign hiding or SAO, `slow` (libvips's `heifsave`) down to 8 × 8, with both.
struct HEVCCodingSettings: Equatable, CustomStringConvertible {
  /// The coding tree unit's side (x265's `ctu`).
  var treeSize: Int
  /// The smallest coding unit's side (x265's `min-cu-size`).
  var smallestUnit: Int
  /// Sign data hiding (x265's `signhide`), from the picture parameter set.
  var signHiding: Bool
  /// Sample adaptive offset (x265's `sao`), from the sequence parameter set.
  var sampleAdaptiveOffset: Bool

  var description: String {
    "ctu \(treeSize), min-cu \(smallestUnit), signhide \(signHiding), sao \(sampleAdaptiveOffset)"
  }

  init(treeSize: Int, smallestUnit: Int, signHiding: Bool, sampleAdaptiveOffset: Bool) {
    self.treeSize = treeSize
    self.smallestUnit = smallestUnit
    self.signHiding = signHiding
    self.sampleAdaptiveOffset = sampleAdaptiveOffset
  }

  /// The settings of the HEIC at `url` (its first `hvcC` box).
  init(heic url: URL) throws {
    let record = [UInt8](try GridHEIC.payload("hvcC", in: Data(contentsOf: url)))
    // The 22-byte configuration, then arrays of NAL units: type, count, and each unit's length.
    let corrupt = CocoaError(.fileReadCorruptFile)
    guard record.count > 22 else { throw corrupt }
    var units: [Int: [UInt8]] = [:]
    var offset = 23
    for _ in 0..<Int(record[22]) {
      guard offset + 3 <= record.count else { throw corrupt }
      let type = Int(record[offset] & 0x3f)
      let count = Int(record[offset + 1]) << 8 | Int(record[offset + 2])
      offset += 3
      for _ in 0..<count {
        guard offset + 2 <= record.count else { throw corrupt }
        let length = Int(record[offset]) << 8 | Int(record[offset + 1])
        guard offset + 2 + length <= record.count else { throw corrupt }
        if units[type] == nil { units[type] = Array(record[offset + 2..<offset + 2 + length]) }
        offset += 2 + length
      }
    }
    guard let sps = units[33], let pps = units[34] else { throw corrupt }
    var sequence = BitReader(sps)
    // H.265 7.3.2.2: VPS id, one sub-layer (x265's), temporal nesting, the profile, tier and level.
    sequence.skip(4 + 3 + 1 + 96)
    sequence.skipUnsigned(1)  // SPS id
    if sequence.unsigned() == 3 { sequence.skip(1) }  // chroma format, separate planes
    sequence.skipUnsigned(2)  // width, height
    if sequence.bit() { sequence.skipUnsigned(4) }  // conformance window
    sequence.skipUnsigned(3)  // bit depths, picture order count bits
    sequence.skip(1)  // sub-layer ordering info present
    sequence.skipUnsigned(3)  // the one sub-layer's buffering
    let smallest = sequence.unsigned() + 3
    let tree = smallest + sequence.unsigned()
    sequence.skipUnsigned(4)  // transform sizes and depths
    if sequence.bit() { sequence.skip(1) }  // scaling lists (x265's: off, no data)
    sequence.skip(1)  // asymmetric motion partitions
    let sao = sequence.bit()
    // H.265 7.3.2.3: PPS and SPS ids, dependent slices, output flag, extra slice header bits.
    var picture = BitReader(pps)
    picture.skipUnsigned(2)
    picture.skip(1 + 1 + 3)
    self.init(
      treeSize: 1 << tree, smallestUnit: 1 << smallest, signHiding: picture.bit(),
      sampleAdaptiveOffset: sao)
  }

  /// Reads a NAL unit's bits after its 2-byte header, emulation prevention bytes removed.
  private struct BitReader {
    var bytes: [UInt8] = []
    var position = 0

    init(_ unit: [UInt8]) {
      var zeros = 0
      for byte in unit.dropFirst(2) {
        if zeros >= 2 && byte == 3 {
          zeros = 0
          continue
        }
        zeros = byte == 0 ? zeros + 1 : 0
        bytes.append(byte)
      }
    }

    mutating func bit() -> Bool {
      guard position / 8 < bytes.count else { return false }
      defer { position += 1 }
      return bytes[position / 8] >> (7 - position % 8) & 1 == 1
    }

    mutating func skip(_ count: Int) { position += count }

    mutating func skipUnsigned(_ count: Int) {
      for _ in 0..<count { _ = unsigned() }
    }

    /// An unsigned exponential-Golomb number (`ue(v)`).
    mutating func unsigned() -> Int {
      var zeros = 0
      while !bit() && zeros < 32 { zeros += 1 }
      var value = 0
      for _ in 0..<zeros { value = value << 1 | (bit() ? 1 : 0) }
      return (1 << zeros) - 1 + value
    }
  }
}
