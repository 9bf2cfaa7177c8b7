import CFFmpeg

/// Where FFmpeg's own log lines go.
public enum FFmpegLog {
  /// Sends FFmpeg's error lines to standard error as `PREFIX: FFmpeg (component): message`, so that
  /// every line a command prints starts with its own name (`framedial video: FFmpeg (libx264): …`);
  /// FFmpeg's notes and warnings are left out. What the demuxer and decoder of a file being read say
  /// is not printed but gathered into FrameDial's own message about the file (``gather()``). Call it
  /// once, before any file is opened.
  public static func route(prefix: String) {
    av_log_set_level(AV_LOG_ERROR)
    fd_log_route(prefix)
  }

  /// Installs the callback with ``DecoderLines/taker``, so that what the decoder and demuxer of a
  /// file being decoded say is gathered into FrameDial's message about it (see ``DamageWatch``), not
  /// printed. (The shim's callback state is static: it is set from this file only, whose copy of
  /// the shim the callback installed here reads.)
  static func gather() {
    av_log_set_level(AV_LOG_ERROR)
    fd_log_take(DecoderLines.taker)
  }
}
