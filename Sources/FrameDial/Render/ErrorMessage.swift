import Foundation

/// One plain line for any error: FrameDial's own errors as they are, Foundation's file errors as
/// "PATH: permission denied" rather than their `Error Domain=NSCocoaErrorDomain Code=513 …` dump.
public enum ErrorMessage {
  /// The message for `error`.
  public static func plain(_ error: any Error) -> String {
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
