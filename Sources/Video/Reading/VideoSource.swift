/// What an input video says about its video stream, as `framedial video` reads it.
public struct VideoSource: Sendable, Equatable {
  /// Coded width in pixels (before any display rotation).
  public var width: Int
  /// Coded height in pixels.
  public var height: Int
  /// The codec's name ("h264").
  public var codecName: String
  /// The decoded pixel format's name ("yuv420p").
  public var pixelFormatName: String
  /// Bits per sample of the decoded pixel format.
  public var bitDepth: Int
  /// The average frame rate, frames per second (0 when unknown).
  public var frameRate: Double
  /// The number of frames the container announces, or the duration times the frame rate; nil when
  /// neither is known.
  public var expectedFrames: Int?
  /// The file's duration in seconds, nil when the container does not say.
  public var duration: Double?
  /// The sample (pixel) aspect ratio, width over height: 1 for square pixels, 2 for pixels twice as wide
  /// as high.
  public var sampleAspect: Double
  /// The display rotation in degrees counter-clockwise, nil without a display matrix.
  public var rotation: Double?
  /// Matrix/range/primaries/transfer as tagged, FFmpeg's names ("bt709/tv/bt709/bt709").
  public var colourTags: String
  /// The matrix the pixels are converted with (the tag, or BT.601/BT.709 by height when untagged).
  public var conversionMatrix: String
  /// The dynamic range the transfer tag says (HLG and PQ are HDR).
  public var dynamicRange: DynamicRange = .sdr
  /// The transfer as tagged, FFmpeg's name ("arib-std-b67", "smpte2084", "bt709", "unknown").
  public var transferName = "unknown"
  /// The primaries as tagged, FFmpeg's name ("bt2020", "bt709", "unknown").
  public var primariesName = "unknown"
  /// HDR video's mastering display, content light level and Dolby Vision configuration, when given.
  public var hdrMetadata = HDRMetadata()
  /// FFmpeg's name for the container's demuxer ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "image2").
  public var containerName: String = ""
  /// Where the stream ends before its index says it should (a copy cut short), or nil.
  public var cutShort: CutShort?

  /// The width a player shows a frame at: the coded width stretched by the sample aspect ratio (as a
  /// still of the frame is written, its height kept; before any rotation, which keeps the pixel count).
  public var displayedWidth: Double {
    guard sampleAspect.isFinite, sampleAspect > 0 else { return Double(width) }
    return (Double(width) * sampleAspect).rounded()
  }

  /// True when FFmpeg reads the file as one still image (its `image2` demuxer without a `%d` sequence
  /// pattern in the path, or a single-image `…_pipe` demuxer such as `png_pipe`), not as a video.
  public func isStillImage(path: String) -> Bool {
    (containerName == "image2" && !path.contains("%")) || containerName.hasSuffix("_pipe")
  }
}

/// A video file as `framedial info` describes it: its video stream, every stream, and whether `video`
/// would process it.
public struct VideoFacts: Sendable, Equatable {
  /// What the video stream says.
  public var source: VideoSource
  /// Every stream of the file in order, as its kind and codec ("video h264", "audio aac").
  public var streams: [String]
  /// Why the stream would not be processed (more than 16 bits per sample), or nil.
  public var refusal: String?
}
