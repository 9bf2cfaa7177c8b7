import Foundation

/// The metadata of an ISO 21496-1 gain map (the data of a HEIF file's `tmap` item), version 0, as
/// ISO 21496-1 lays it out, big-endian: `version` (8 bits, 0), `minimum_version` and `writer_version`
/// (16 bits each), a byte whose top bit says the map has three channels and whose next says the
/// gains apply in the base image's colour space, the base and the alternate renditions' HDR
/// headroom (each a 32-bit numerator over a 32-bit denominator, in stops), then for each channel
/// (one or three) the gain map's least and greatest value (signed over unsigned, stops), its gamma,
/// and the offsets added to the base and the alternate renditions (signed over unsigned).
public struct ISOGainMapMetadata: Sendable, Equatable {
  /// One channel's parameters.
  public struct Channel: Sendable, Equatable {
    /// The gain at a map sample of 0, in stops (log2).
    public var minimum: Double
    /// The gain at a map sample of 1, in stops.
    public var maximum: Double
    /// The gamma the map's samples are encoded with.
    public var gamma: Double
    /// Added to the base rendition's linear light.
    public var baseOffset: Double
    /// Added to the alternate rendition's linear light.
    public var alternateOffset: Double
  }

  /// The headroom of the base rendition, in stops (0 for an SDR base).
  public var baseHeadroom: Double
  /// The headroom of the alternate rendition, in stops (that of the HDR rendition for an SDR base).
  public var alternateHeadroom: Double
  /// Whether the gains apply in the base image's colour space (else in the alternate's).
  public var usesBaseColourSpace: Bool
  /// One channel, or red, green and blue.
  public var channels: [Channel]

  /// The headroom of the photo's HDR rendition, in stops: the larger of the two renditions'.
  public var hdrHeadroomStops: Double { max(baseHeadroom, alternateHeadroom) }

  /// Parses the metadata `bytes`.
  ///
  /// - Throws: ``GainMapMetadataError`` naming what is wrong when the bytes are not version-0
  ///   metadata: another version, too few bytes, a zero denominator, a channel whose greatest gain is
  ///   below its least or whose gamma is 0, or bytes left over from a writer that claims version 0.
  public init(bytes: Data) throws(GainMapMetadataError) {
    var reader = BigEndianReader(Array(bytes))
    let version = try reader.byte()
    guard version == 0 else { throw GainMapMetadataError("version \(version) is not 0") }
    let minimumVersion = try reader.unsigned16()
    guard minimumVersion == 0 else {
      throw GainMapMetadataError("it needs a reader of version \(minimumVersion)")
    }
    let writerVersion = try reader.unsigned16()
    let flags = try reader.byte()
    usesBaseColourSpace = flags & 0x40 != 0
    baseHeadroom = try reader.fraction(signed: false, "the base headroom")
    alternateHeadroom = try reader.fraction(signed: false, "the alternate headroom")
    var channels: [Channel] = []
    for _ in 0..<(flags & 0x80 != 0 ? 3 : 1) {
      let channel = Channel(
        minimum: try reader.fraction(signed: true, "the least gain"),
        maximum: try reader.fraction(signed: true, "the greatest gain"),
        gamma: try reader.fraction(signed: false, "the gamma"),
        baseOffset: try reader.fraction(signed: true, "the base offset"),
        alternateOffset: try reader.fraction(signed: true, "the alternate offset"))
      guard channel.maximum >= channel.minimum else {
        throw GainMapMetadataError(
          "the greatest gain, \(channel.maximum), is below the least, \(channel.minimum)")
      }
      guard channel.gamma > 0 else { throw GainMapMetadataError("the gamma is 0") }
      channels.append(channel)
    }
    self.channels = channels
    // A later writer may append fields a version-0 reader passes over; version 0's own has none.
    guard writerVersion > 0 || reader.remaining == 0 else {
      throw GainMapMetadataError("\(reader.remaining) bytes follow the version-0 fields")
    }
  }
}

/// Gain map metadata FrameDial cannot read, and why.
public struct GainMapMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, e.g. `version 1 is not 0`.
  public var description: String
  init(_ description: String) { self.description = description }
}

/// Reads big-endian fields from bytes, refusing to read past their end.
private struct BigEndianReader {
  private let bytes: [UInt8]
  private var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Bytes not yet read.
  var remaining: Int { bytes.count - offset }

  mutating func byte() throws(GainMapMetadataError) -> UInt8 {
    UInt8(try unsigned(bytes: 1))
  }

  mutating func unsigned16() throws(GainMapMetadataError) -> UInt16 {
    UInt16(try unsigned(bytes: 2))
  }

  /// A 32-bit numerator (signed or not) over a 32-bit unsigned denominator; `what` names it.
  mutating func fraction(signed: Bool, _ what: String) throws(GainMapMetadataError) -> Double {
    let numerator = UInt32(try unsigned(bytes: 4))
    let denominator = UInt32(try unsigned(bytes: 4))
    guard denominator != 0 else { throw GainMapMetadataError("\(what) has a denominator of 0") }
    let top = signed ? Double(Int32(bitPattern: numerator)) : Double(numerator)
    return top / Double(denominator)
  }

  private mutating func unsigned(bytes count: Int) throws(GainMapMetadataError) -> UInt64 {
    guard remaining >= count else {
      throw GainMapMetadataError("it ends after \(bytes.count) bytes, inside a field")
    }
    defer { offset += count }
    return bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
  }
}
