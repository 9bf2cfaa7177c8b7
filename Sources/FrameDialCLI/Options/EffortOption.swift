import FrameDial

/// `--effort fast|balanced|small`: how hard the HEIC encoder works, for every command that can write a
/// HEIC (`apply`, `batch`, `preview`, `sweep`, `video --frame-at`).
package enum EffortOption {
  /// The option, to add to a command's parser; a name that is not an effort is refused naming the
  /// efforts.
  package static let option = ValueOption<EncodingEffort>.choice(
    StillOptionKey.effort.commandLineName, value: "EFFORT", usage: "E",
    "HEIC encoding time against file size, each compared with small at the same luma SSIM: fast "
      + "(default: x265 ultrafast with adaptive quantisation; about 5 CPU-s for 12 MP; 20–24 % "
      + "more bytes), balanced (also 8×8 coding units, sign hiding and SAO: about 3× fast's time, "
      + "2–5 % more bytes) or small (x265 slow, as libvips's heifsave: about 8× fast's time)",
    message: .oneOf)
}
