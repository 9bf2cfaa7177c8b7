import FrameDial
import Video
import Vips

/// libvips started once for the whole process, the first time a function needs it, with HEIC pictures
/// decoded by FFmpeg's HEVC decoder, as `framedial` decodes them: a picture the decoder finds damaged
/// fails its file with the decoder's reason, at every `failOn` level (the choice is libheif's, which is
/// the process's, so the C API does not let one call conceal damage while another refuses it). Should
/// libheif refuse the decoder, libde265 decodes instead.
enum Library {
  private static let started: Result<Void, CallError> = Result { () throws(CallError) in
    do {
      try Vips.start()
    } catch {
      throw CallError(.renderFailed, "libvips could not start: \(ErrorMessage.plain(error))")
    }
    try? HEVCStillDecoder().register()
  }

  /// Starts libvips on first use (thread-safe: Swift runs a global's initialiser once).
  static func start() throws {
    try started.get()
  }
}

/// FrameDial's version, kept for the life of the process.
nonisolated(unsafe) private let frameDialVersion = CString.copy(FrameDialVersion.string)
/// libvips's version, kept for the life of the process.
nonisolated(unsafe) private let libvipsVersion = CString.copy(Vips.libraryVersion)

/// `framedial_version`: FrameDial's and libvips's versions as static strings (never freed).
@_cdecl("framedial_version")
public func cVersion(
  _ framedial: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
  _ libvips: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    guard framedial != nil || libvips != nil else {
      throw CallError(.invalidArgument, "both version out-pointers are null pointers")
    }
    framedial?.pointee = UnsafePointer(frameDialVersion)
    libvips?.pointee = UnsafePointer(libvipsVersion)
  }
}
