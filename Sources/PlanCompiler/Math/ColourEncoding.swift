/// How a picture's R′G′B′ code values relate to light: the transfer that encodes light into codes and the
/// primaries (with white point) the three channels are measured in.
///
/// The controls act in the linear light of the picture's own primaries: exposure bias multiplies that
/// light, white-balance gains are computed for those primaries, saturation and the looks use their luma.
/// sRGB stills and SDR video are ``sRGB``; HDR video is ``bt2100HLG`` or ``bt2100PQ``; a Display P3 photo
/// kept in its own space is ``displayP3``.
public struct ColourEncoding: Hashable, Sendable, CustomStringConvertible {
  /// The transfer between code values and light.
  public enum Transfer: String, Hashable, Sendable, CaseIterable {
    /// IEC 61966-2-1 (sRGB, Display P3; also used for SDR video, see docs/cli/video.md).
    case sRGB = "srgb"
    /// BT.2100 hybrid log-gamma (ARIB STD-B67): the OETF of scene light.
    case hlg
    /// BT.2100 perceptual quantizer (SMPTE ST 2084): absolute display light, 203 cd/m² as 1.0.
    case pq
  }

  /// The primaries and white point of the channels.
  public enum Primaries: String, Hashable, Sendable, CaseIterable {
    /// BT.709 / sRGB, D65.
    case bt709
    /// Display P3 (DCI-P3 primaries, D65).
    case displayP3 = "display-p3"
    /// BT.2020 / BT.2100, D65.
    case bt2020
  }

  /// The transfer between code values and light.
  public var transfer: Transfer
  /// The primaries of the channels.
  public var primaries: Primaries

  /// An encoding of `transfer` over `primaries`.
  public init(transfer: Transfer, primaries: Primaries) {
    self.transfer = transfer
    self.primaries = primaries
  }

  /// sRGB: the sRGB transfer over BT.709 primaries, what stills and SDR video are rendered in.
  public static let sRGB = ColourEncoding(transfer: .sRGB, primaries: .bt709)
  /// Display P3: the sRGB transfer over P3 primaries (iPhone photos).
  public static let displayP3 = ColourEncoding(transfer: .sRGB, primaries: .displayP3)
  /// BT.2100 HLG: hybrid log-gamma over BT.2020 primaries (iPhone HDR video).
  public static let bt2100HLG = ColourEncoding(transfer: .hlg, primaries: .bt2020)
  /// BT.2100 PQ: the perceptual quantizer over BT.2020 primaries (HDR10).
  public static let bt2100PQ = ColourEncoding(transfer: .pq, primaries: .bt2020)

  /// "transfer/primaries", e.g. `hlg/bt2020`.
  public var description: String { "\(transfer.rawValue)/\(primaries.rawValue)" }
}
