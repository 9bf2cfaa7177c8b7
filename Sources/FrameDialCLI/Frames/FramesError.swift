/// Why the `frames` command stopped early. Frames are numbered from 1 in every message.
enum FramesError: Error, CustomStringConvertible, Equatable {
  /// The input ended inside frame `frame`: `received` of `expected` bytes arrived.
  case incompleteFrame(frame: Int, received: Int, expected: Int)
  /// Reading frame `frame` from standard input failed.
  case readFailed(frame: Int, reason: String)
  /// Writing frame `frame` to standard output failed.
  case writeFailed(frame: Int, reason: String)
  /// The reader closed standard output after `framesWritten` whole frames.
  case readerClosed(framesWritten: Int)
  /// The YUV4MPEG2 stream header is missing, malformed or not supported: what is wrong.
  case badY4M(String)
  /// Frame `frame` of a YUV4MPEG2 stream does not start with a `FRAME` line: what came instead.
  case badFrameHeader(frame: Int, found: String)

  /// A sentence naming the frame and what went wrong.
  var description: String {
    switch self {
    case .incompleteFrame(let frame, let received, let expected):
      "frame \(frame) is incomplete: \(received) of \(expected) bytes "
        + "(the input ended after \(frame - 1) whole frame\(frame == 2 ? "" : "s"), all written)."
    case .readFailed(let frame, let reason):
      "reading frame \(frame) from standard input failed: \(reason)."
    case .writeFailed(let frame, let reason):
      "writing frame \(frame) to standard output failed: \(reason)."
    case .readerClosed(let framesWritten):
      "the reader closed standard output after \(framesWritten) whole "
        + "frame\(framesWritten == 1 ? "" : "s"); stopping."
    case .badY4M(let problem):
      "YUV4MPEG2 header on standard input: \(problem)."
    case .badFrameHeader(let frame, let found):
      "frame \(frame) of the YUV4MPEG2 stream does not start with a FRAME line (found '\(found)')."
    }
  }
}
