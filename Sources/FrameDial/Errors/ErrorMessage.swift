import Foundation

/// One plain line for any error: FrameDial's own errors as they are, Foundation's file errors as
/// "PATH: permission denied" rather than their `Error Domain=NSCocoaErrorDomain Code=513 …` dump.
///
/// Every way a message leaves FrameDial (the command line's lines, `--json`'s `"error"`, the C API's
/// `error` strings and so Python's exceptions) goes through ``plain(_:)``, which ends each message at
/// its last visible character: libraries end their messages with newlines (libheif, libvips's
/// `vips_error_system`), which the command line would otherwise show as `\u{A}`.
public enum ErrorMessage {
  /// The message for `error`, without trailing whitespace or newlines.
  public static func plain(_ error: any Error) -> String {
    oneLine(describe(error))
  }

  /// `text` without the whitespace and newlines at its end. Newlines inside are kept: they may be part
  /// of a file name the message quotes (a library's text is made one line where it is read: libvips's
  /// in `ErrorJournal`, libheif's in `HEIFError`).
  public static func oneLine(_ text: String) -> String {
    guard let last = text.unicodeScalars.lastIndex(where: { !isBlank($0) }) else { return "" }
    return String(text.unicodeScalars[...last])
  }

  private static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isWhitespace
  }

  private static func describe(_ error: any Error) -> String {
    if let error = error as? CocoaError {
      let reason: String
      if let underlying = error.underlying as? POSIXError {
        reason = errorText(underlying.code.rawValue)
      } else {
        reason = cocoaReason(error.code)
      }
      guard let path = error.filePath ?? error.url?.path else { return reason }
      return "\(path): \(reason)"
    }
    if let error = error as? POSIXError { return errorText(error.code.rawValue) }
    return "\(error)"
  }

  private static func cocoaReason(_ code: CocoaError.Code) -> String {
    switch code {
    case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
    case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
    case .fileWriteOutOfSpace: return "no space left on device"
    case .fileWriteFileExists: return "the file exists"
    case .fileWriteVolumeReadOnly: return "read-only file system"
    case .fileReadCorruptFile: return "the file is damaged"
    case .fileReadInapplicableStringEncoding: return "the file is not valid text"
    default: return "the file operation failed (code \(code.rawValue))"
    }
  }
}
