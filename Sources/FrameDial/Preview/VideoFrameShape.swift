/// How a player shows the decoded frames of a video stream: their coded size, the display rotation the
/// stream's display matrix asks for, and the shape of their pixels (the sample aspect ratio).
public struct VideoFrameShape: Sendable, Equatable {
  /// Coded width in pixels.
  public var codedWidth: Int
  /// Coded height in pixels.
  public var codedHeight: Int
  /// The display rotation in degrees counter-clockwise (FFmpeg's sign; rounded to quarter turns), nil
  /// without a display matrix.
  public var rotation: Double?
  /// The pixels' width over their height: 1 for square pixels.
  public var sampleAspect: Double

  /// A shape of frames `codedWidth × codedHeight` turned by `rotation` with pixels `sampleAspect` wide.
  public init(codedWidth: Int, codedHeight: Int, rotation: Double?, sampleAspect: Double) {
    self.codedWidth = codedWidth
    self.codedHeight = codedHeight
    self.rotation = rotation
    self.sampleAspect = sampleAspect
  }

  /// The EXIF orientation that turns the coded pixels upright (1: none; 6 or 8: a quarter turn).
  var orientation: Int { FrameStill.exifOrientation(rotation: rotation ?? 0) }

  /// True when the picture is turned a quarter turn, so its width is the coded height.
  var turnsQuarter: Bool { orientation == 6 || orientation == 8 }

  /// The coded width in square pixels (the width scaled by the sample aspect, the height kept, as
  /// `framedial video --frame-at` writes a still).
  var squareWidth: Int {
    guard sampleAspect.isFinite, sampleAspect > 0, abs(sampleAspect - 1) > 1e-3 else {
      return codedWidth
    }
    return max(1, Int((Double(codedWidth) * sampleAspect).rounded()))
  }

  /// The size a player shows a frame at: square pixels, upright.
  public var displaySize: (width: Int, height: Int) {
    turnsQuarter ? (codedHeight, squareWidth) : (squareWidth, codedHeight)
  }
}
