import CFFmpeg

/// The dynamic range a video's transfer tag says it has.
public enum DynamicRange: String, Sendable, Equatable {
  /// Standard dynamic range (BT.709, BT.601, sRGB … or untagged).
  case sdr
  /// BT.2100 hybrid log-gamma (ARIB STD-B67).
  case hlg
  /// BT.2100 perceptual quantizer (SMPTE ST 2084, HDR10).
  case pq

  /// True for HLG and PQ.
  public var isHDR: Bool { self != .sdr }
}

/// What `framedial video` makes of HDR input (SDR input is written SDR either way).
public enum HDROutput: String, Sendable, CaseIterable {
  /// HLG stays HLG and PQ stays PQ: HEVC Main 10, tagged in the stream and the container.
  case keep
  /// Tone-mapped to SDR: BT.709, 8-bit, tagged bt709/bt709/bt709.
  case sdr
}

/// The mastering display of HDR video (SMPTE ST 2086): its primaries and white point as CIE 1931 xy,
/// and its luminance range in cd/m².
public struct MasteringDisplay: Sendable, Equatable {
  /// Red, green and blue primaries as (x, y).
  public var red, green, blue: [Double]
  /// The white point as (x, y).
  public var whitePoint: [Double]
  /// The least luminance, cd/m².
  public var minLuminance: Double
  /// The most luminance, cd/m².
  public var maxLuminance: Double
}

/// The content light level of HDR video (CTA-861.3): the brightest pixel and the brightest frame
/// average, cd/m².
public struct ContentLightLevel: Sendable, Equatable {
  /// MaxCLL: the most light of any pixel.
  public var maxContentLight: Int
  /// MaxFALL: the most average light of any frame.
  public var maxFrameAverageLight: Int
}

/// The Dolby Vision configuration record of a stream (`dvcC`/`dvvC`): which profile, and which plain
/// signal its base layer is (compatibility id 4: HLG, as iPhones record in profile 8.4; 1: HDR10).
public struct DolbyVisionConfiguration: Sendable, Equatable {
  /// The profile (5, 7, 8 …).
  public var profile: Int
  /// The level.
  public var level: Int
  /// The base layer's signal compatibility id.
  public var compatibilityID: Int
  /// True when the stream carries the RPU (the dynamic metadata).
  public var hasRPU: Bool
}

/// The HDR metadata of a video stream: from the container's stream side data, or failing that from the
/// first decoded frame's (HEVC SEI messages).
public struct HDRMetadata: Sendable, Equatable {
  /// The mastering display, when given.
  public var masteringDisplay: MasteringDisplay?
  /// The content light level, when given.
  public var contentLightLevel: ContentLightLevel?
  /// The Dolby Vision configuration, when the stream has one.
  public var dolbyVision: DolbyVisionConfiguration?

  /// No metadata.
  public init() {}

  /// The metadata of `stream`'s side data.
  init(stream: UnsafeMutablePointer<AVStream>) {
    var size = 0
    if let data = av_stream_get_side_data(stream, AV_PKT_DATA_MASTERING_DISPLAY_METADATA, &size),
      size >= MemoryLayout<AVMasteringDisplayMetadata>.size
    {
      masteringDisplay = data.withMemoryRebound(to: AVMasteringDisplayMetadata.self, capacity: 1) {
        Self.display($0.pointee)
      }
    }
    if let data = av_stream_get_side_data(stream, AV_PKT_DATA_CONTENT_LIGHT_LEVEL, &size),
      size >= MemoryLayout<AVContentLightMetadata>.size
    {
      contentLightLevel = data.withMemoryRebound(to: AVContentLightMetadata.self, capacity: 1) {
        ContentLightLevel(
          maxContentLight: Int($0.pointee.MaxCLL), maxFrameAverageLight: Int($0.pointee.MaxFALL))
      }
    }
    if let data = av_stream_get_side_data(stream, AV_PKT_DATA_DOVI_CONF, &size),
      size >= MemoryLayout<AVDOVIDecoderConfigurationRecord>.size
    {
      dolbyVision = data.withMemoryRebound(
        to: AVDOVIDecoderConfigurationRecord.self, capacity: 1
      ) {
        DolbyVisionConfiguration(
          profile: Int($0.pointee.dv_profile), level: Int($0.pointee.dv_level),
          compatibilityID: Int($0.pointee.dv_bl_signal_compatibility_id),
          hasRPU: $0.pointee.rpu_present_flag != 0)
      }
    }
  }

  /// Fills what is missing from `frame`'s side data (a decoded HEVC frame's SEI messages).
  mutating func adopt(frameSideDataOf frame: UnsafePointer<AVFrame>) {
    let frame = UnsafeMutablePointer(mutating: frame)
    if masteringDisplay == nil,
      let data = av_frame_get_side_data(frame, AV_FRAME_DATA_MASTERING_DISPLAY_METADATA),
      data.pointee.size >= MemoryLayout<AVMasteringDisplayMetadata>.size
    {
      masteringDisplay = data.pointee.data.withMemoryRebound(
        to: AVMasteringDisplayMetadata.self, capacity: 1
      ) { Self.display($0.pointee) }
    }
    if contentLightLevel == nil,
      let data = av_frame_get_side_data(frame, AV_FRAME_DATA_CONTENT_LIGHT_LEVEL),
      data.pointee.size >= MemoryLayout<AVContentLightMetadata>.size
    {
      contentLightLevel = data.pointee.data.withMemoryRebound(
        to: AVContentLightMetadata.self, capacity: 1
      ) {
        ContentLightLevel(
          maxContentLight: Int($0.pointee.MaxCLL), maxFrameAverageLight: Int($0.pointee.MaxFALL))
      }
    }
  }

  /// The display of FFmpeg's record, leaving out halves it marks as absent (nil when both are).
  private static func display(_ record: AVMasteringDisplayMetadata) -> MasteringDisplay? {
    guard record.has_primaries != 0 || record.has_luminance != 0 else { return nil }
    func xy(_ pair: (AVRational, AVRational)) -> [Double] { [av_q2d(pair.0), av_q2d(pair.1)] }
    let primaries = record.display_primaries
    return MasteringDisplay(
      red: xy(primaries.0), green: xy(primaries.1), blue: xy(primaries.2),
      whitePoint: xy(record.white_point), minLuminance: av_q2d(record.min_luminance),
      maxLuminance: av_q2d(record.max_luminance))
  }

  /// x265's `master-display` value: `G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min)`, chromaticities in units of
  /// 0.00002 and luminance in units of 0.0001 cd/m² (SMPTE ST 2086's SEI units).
  var x265MasterDisplay: String? {
    guard let display = masteringDisplay else { return nil }
    func xy(_ pair: [Double]) -> String {
      pair.map { String(Int(($0 / 0.00002).rounded())) }.joined(separator: ",")
    }
    let luminance = [display.maxLuminance, display.minLuminance].map {
      String(Int(($0 * 10_000).rounded()))
    }
    return "G(\(xy(display.green)))B(\(xy(display.blue)))R(\(xy(display.red)))"
      + "WP(\(xy(display.whitePoint)))L(\(luminance.joined(separator: ",")))"
  }

  /// Adds the mastering display and content light level as `stream`'s side data, which the MP4, MOV
  /// and Matroska muxers write into the container (`mdcv`/`clli`, MasteringMetadata).
  func attach(to stream: UnsafeMutablePointer<AVStream>) throws(VideoError) {
    if let display = masteringDisplay {
      guard let record = av_mastering_display_metadata_alloc() else {
        throw VideoError("out of memory for HDR metadata")
      }
      defer { av_free(record) }
      func rational(_ value: Double, _ denominator: Int32) -> AVRational {
        AVRational(num: Int32((value * Double(denominator)).rounded()), den: denominator)
      }
      func pair(_ xy: [Double]) -> (AVRational, AVRational) {
        (rational(xy[0], 50_000), rational(xy[1], 50_000))
      }
      record.pointee.display_primaries = (
        pair(display.red), pair(display.green), pair(display.blue)
      )
      record.pointee.white_point = pair(display.whitePoint)
      record.pointee.min_luminance = rational(display.minLuminance, 10_000)
      record.pointee.max_luminance = rational(display.maxLuminance, 10_000)
      record.pointee.has_primaries = 1
      record.pointee.has_luminance = 1
      try Self.attach(
        UnsafeRawPointer(record), MemoryLayout<AVMasteringDisplayMetadata>.size,
        as: AV_PKT_DATA_MASTERING_DISPLAY_METADATA, to: stream)
    }
    if let level = contentLightLevel {
      var record = AVContentLightMetadata(
        MaxCLL: UInt32(clamping: level.maxContentLight),
        MaxFALL: UInt32(clamping: level.maxFrameAverageLight))
      try withUnsafeBytes(of: &record) { (bytes) throws(VideoError) in
        guard let base = bytes.baseAddress else { return }
        try Self.attach(base, bytes.count, as: AV_PKT_DATA_CONTENT_LIGHT_LEVEL, to: stream)
      }
    }
  }

  private static func attach(
    _ bytes: UnsafeRawPointer, _ count: Int, as type: AVPacketSideDataType,
    to stream: UnsafeMutablePointer<AVStream>
  ) throws(VideoError) {
    guard let copy = av_stream_new_side_data(stream, type, count) else {
      throw VideoError("out of memory for HDR metadata")
    }
    copy.update(from: bytes.assumingMemoryBound(to: UInt8.self), count: count)
  }
}
