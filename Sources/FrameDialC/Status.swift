import Foundation
import FrameDial

#if canImport(Glibc)
  import Glibc
#endif

/// The status every C function returns (`framedial_status` in `framedial.h`).
enum Status: Int32 {
  /// The call did what it was asked.
  case ok = 0
  /// A null pointer, an unknown or freed handle, a bad size, stride or pixel format, a short buffer.
  case invalidArgument = 1
  /// The control state JSON is not a JSON object of known keys with allowed values.
  case invalidState = 2
  /// The still options JSON is wrong.
  case invalidOptions = 3
  /// Rendering failed: a file that cannot be read, decoded or written, a libvips failure.
  case renderFailed = 4
  /// The frame renderer is rendering on another thread.
  case busy = 5
}

/// A failure that a C function reports as its status and message.
struct CallError: Error {
  /// The status returned.
  var status: Status
  /// The message handed to the caller.
  var message: String

  init(_ status: Status, _ message: String) {
    self.status = status
    self.message = message
  }
}

/// Runs `body` and turns its outcome into a status, writing the message of a failure into `error` (a
/// string the caller frees with `framedial_string_free`) and NULL on success. No Swift error leaves.
func reporting(
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ body: () throws -> Void
) -> Int32 {
  error?.pointee = nil
  do {
    try body()
    return Status.ok.rawValue
  } catch let failure as CallError {
    error?.pointee = CString.message(failure.message)
    return failure.status.rawValue
  } catch let failure {
    // Anything else comes from rendering: FrameDial's and libvips's errors, file errors.
    error?.pointee = CString.message(ErrorMessage.plain(failure))
    return Status.renderFailed.rawValue
  }
}

/// ``reporting(_:_:)`` for a C function that hands its result out through `out`, an out-pointer named
/// `name` in the message when it is NULL: `*out` is NULL unless `body` succeeds, then what it returned.
func reporting<Value>(
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  into out: UnsafeMutablePointer<Value?>?, named name: String, _ body: () throws -> Value?
) -> Int32 {
  out?.pointee = nil
  return reporting(error) {
    guard let out else {
      throw CallError(.invalidArgument, "the \(name) out-pointer is a null pointer")
    }
    out.pointee = try body()
  }
}

/// Strings handed across the C boundary.
enum CString {
  /// A `malloc`ed copy of `text`, NUL-terminated, for the caller to free with `framedial_string_free`
  /// (NULL only when memory runs out).
  static func copy(_ text: String) -> UnsafeMutablePointer<CChar>? {
    strdup(text)
  }

  /// A copy of the message `text` for the caller, with any NUL shown as `\0`, so the C string holds
  /// the whole message.
  static func message(_ text: String) -> UnsafeMutablePointer<CChar>? {
    copy(text.contains("\0") ? text.replacingOccurrences(of: "\0", with: "\\0") : text)
  }

  /// The text of a caller's NUL-terminated UTF-8 string `pointer`, named `what` in errors.
  static func read(_ pointer: UnsafePointer<CChar>?, _ what: String) throws -> String {
    guard let pointer else { throw CallError(.invalidArgument, "\(what) is a null pointer") }
    guard let text = String(validatingCString: pointer) else {
      throw CallError(.invalidArgument, "\(what) is not valid UTF-8")
    }
    return text
  }
}
