import CFFmpeg

/// Where FFmpeg's own log lines go.
public enum FFmpegLog {
  /// Sends FFmpeg's error lines (a damaged packet, a missing index) to standard error as
  /// `PREFIX: FFmpeg (component): message`, so that every line a command prints starts with its own name
  /// (`framedial video: FFmpeg (mov,mp4,m4a,3gp,3g2,mj2): moov atom not found`); FFmpeg's notes and
  /// warnings are left out. Call it once, before any file is opened.
  public static func route(prefix: String) {
    av_log_set_level(AV_LOG_ERROR)
    fd_log_route(prefix)
  }
}
