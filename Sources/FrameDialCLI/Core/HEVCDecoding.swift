import HEIF
import Vips

/// The HEVC decoder HEIC inputs are decoded with: FFmpeg's, given to libheif as a decoder plugin that
/// outranks libde265 by `framedial-full` (`HEVCDecoding.useFFmpeg()`, in FrameDialFullCLI), so that
/// libvips's `heifload` and ``HEIF`` alike decode through it (libheif's plugin list is the process's).
/// The light `framedial` hands every HEIC to `framedial-full` (``FullCommand``).
public enum HEVCDecoding {
  /// Sets what a damaged HEIC picture does for the rest of the process, from `--fail-on`: `none`
  /// writes what the decoder could decode (``HEIF/HEVCDecoderPlugin/DamagedPictures/concealed``);
  /// every other level refuses the file.
  public static func failOn(_ level: LoadOptions.FailOn) {
    HEVCDecoderPlugin.damagedPictures = level == .none ? .concealed : .refused
  }
}
