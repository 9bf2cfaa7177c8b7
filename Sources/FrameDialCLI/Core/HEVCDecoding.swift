import HEIF
import Video
import Vips

/// The HEVC decoder HEIC inputs are decoded with: FFmpeg's (``Video/HEVCStillDecoder``), given to
/// libheif as a decoder plugin that outranks libde265, so that libvips's `heifload` and ``HEIF`` alike
/// decode through it (libheif's plugin list is the process's).
public enum HEVCDecoding {
  /// Registers FFmpeg's HEVC decoder with libheif, one thread a picture (a batch decodes several files
  /// at once, and libheif decodes a grid's tiles side by side), and keeps its log lines for the decode
  /// they belong to: a damaged picture fails its file with the decoder's reason in the one line the
  /// command prints, and no line of FFmpeg's reaches the terminal. Should libheif refuse the plugin,
  /// libde265 stays in use: it decodes the same pictures, only more slowly.
  public static func useFFmpeg() {
    try? HEVCStillDecoder().register()
  }

  /// Sets what a damaged HEIC picture does for the rest of the process, from `--fail-on`: `none`
  /// writes what the decoder could decode (``HEIF/HEVCDecoderPlugin/DamagedPictures/concealed``);
  /// every other level refuses the file.
  public static func failOn(_ level: LoadOptions.FailOn) {
    HEVCDecoderPlugin.damagedPictures = level == .none ? .concealed : .refused
  }
}
