import CJPEGHeader
import Foundation

/// A JPEG's compressed data read with libjpeg through to its end marker, without producing a picture
/// (`CJPEGHeader`'s `JPEGDataCheck.h`): every warning libjpeg gives about the data is heard, also the
/// damage it notices only after the last row ("4 extraneous bytes before marker 0xd9"). Costs about
/// half of a full decode.
public enum JPEGData {
  /// libjpeg's first warning about the JPEG held in `bytes` (or its error, when it cannot read the
  /// data at all); nil when every scan and the end marker read cleanly.
  public static func firstWarning(_ bytes: Data) -> String? {
    var message = [CChar](repeating: 0, count: 256)
    let verdict = bytes.withUnsafeBytes { raw in
      fd_jpeg_check_data(raw.baseAddress, raw.count, &message, message.count)
    }
    return verdict == Int32(FD_JPEG_DATA_CLEAN) ? nil : JPEGError.text(message)
  }
}
