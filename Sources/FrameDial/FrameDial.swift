/// FrameDial's version.
public enum FrameDialVersion {
  /// The version string printed by `framedial --version`.
  public static let string = "0.1.0"
}
