import HEIF
import Video

/// The HEVC decoder HEIC inputs are decoded with: FFmpeg's (``Video/HEVCStillDecoder``), given to
/// libheif as a decoder plugin that outranks libde265, so that libvips's `heifload` and ``HEIF`` alike
/// decode through it (libheif's plugin list is the process's).
public enum HEVCDecoding {
  /// Registers FFmpeg's HEVC decoder with libheif, one thread a picture (a batch decodes several files
  /// at once, and libheif decodes a grid's tiles side by side). Should libheif refuse it, libde265 stays
  /// in use: it decodes the same pictures, only more slowly.
  public static func useFFmpeg() {
    try? HEVCDecoderPlugin.register(HEVCStillDecoder(), name: HEVCStillDecoder.name)
  }
}
