/// A libvips loader's failure said as FrameDial says it: the loader's own reason, without libvips's
/// operation names, or, when libvips gave none, what the format's library warned about as it failed.
enum LoaderMessage {
  /// The reason in `message`, the error of the loader `loader` (`libvips operation gifload_source
  /// failed: gifload_source: Unexpected end of GIF source data` → `Unexpected end of GIF source
  /// data`). When nothing is left, `warnings` (what the thread's loader warned about meanwhile:
  /// libpng's "not enough data") are the reason, and failing those, the loader's name says which
  /// decoder refused the file.
  static func reason(_ message: String, loader: String, warnings: [String]) -> String {
    let operation = "libvips operation \(loader) failed"
    let reason = message == operation ? "" : VipsError(message).reason
    if !reason.isEmpty { return reason }
    if !warnings.isEmpty { return warnings.joined(separator: "; ") }
    return "libvips's \(displayName(loader)) refuses it"
  }
}
