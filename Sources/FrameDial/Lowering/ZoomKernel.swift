/// How a zoom window is enlarged back to the full size.
public enum ZoomKernel: String, Sendable, CaseIterable, Encodable {
  /// libvips's `affine` with its bicubic interpolator, pixel centres aligned: the stills default.
  /// (libvips 8.14 enlarges through `affine`, whose interpolators stop at bicubic: a "lanczos3" resize
  /// becomes bicubic when it enlarges, so FrameDial asks for bicubic by name.)
  case bicubic
  /// FrameDial's own bilinear kernel, 8-bit only: the frames default, several times faster.
  case bilinear
}
