import FrameDialCLI
import Video

extension HEVCDecoding {
  /// Registers FFmpeg's HEVC decoder (``Video/HEVCStillDecoder``) with libheif, one thread a picture (a
  /// batch decodes several files at once, and libheif decodes a grid's tiles side by side), and keeps
  /// its log lines for the decode they belong to: a damaged picture fails its file with the decoder's
  /// reason in the one line the command prints, and no line of FFmpeg's reaches the terminal. Should
  /// libheif refuse the plugin, libde265 stays in use: it decodes the same pictures, only more slowly.
  public static func useFFmpeg() {
    try? HEVCStillDecoder().register()
  }
}
