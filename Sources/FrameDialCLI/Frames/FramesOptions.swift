import Controls
import Foundation
import FrameDial
import RowKernels
import Vips

/// What `framedial frames` was asked to do, checked: frame size and layout, control state, timeline.
struct FramesOptions {
  /// The largest frame side accepted by `--size`.
  static let maximumSide = 32_768

  /// Frame width in pixels (from the stream header with `--y4m`, once read).
  var width: Int
  /// Frame height in pixels (from the stream header with `--y4m`, once read).
  var height: Int
  /// The byte layout of every pixel, in and out, for packed RGB frames.
  var pixelFormat: PixelFormat
  /// Bits per sample of YUV 4:2:0 frames (8 or 10), or nil for packed RGB frames.
  var yuvDepth: Int?
  /// The colour matrix `--colour-matrix` asked for (YUV frames only).
  var matrix: YUVMatrix?
  /// The code range `--range` asked for (YUV frames only).
  var range: YUVRange?
  /// The transfer and primaries of the frames' codes (`--transfer`, `--primaries`): sRGB by default, as
  /// BT.709 video is rendered.
  var encoding: ColourEncoding
  /// Whether frames come and go as a YUV4MPEG2 stream (`--y4m`).
  var y4m: Bool
  /// The control state before any timeline event.
  var state: ControlState
  /// The timeline, and the frame rate that places frames on it (with `--y4m`, the header's rate
  /// when `--fps` is not given).
  var timeline: (events: Timeline, fps: Double?)?
  /// Whether to print timing to standard error.
  var stats: Bool
  /// libvips worker threads, when `--threads` is given.
  var threads: Int?

  /// The YUV frame layout: the matrix and range asked for, else BT.2020 non-constant luminance with
  /// BT.2020 primaries, BT.601 below 720 lines and BT.709 at or above otherwise; TV range. Nil for packed
  /// RGB frames.
  var yuvLayout: YUV420Layout? {
    let standard: YUVMatrix =
      encoding.primaries == .bt2020 ? .bt2020 : .standard(forHeight: height)
    return yuvDepth.map {
      YUV420Layout(
        width: width, height: height, depth: $0, matrix: matrix ?? standard, range: range ?? .tv)
    }
  }

  /// Bytes of one frame.
  var frameBytes: Int { yuvLayout?.frameBytes ?? width * height * pixelFormat.pixelBytes }

  /// The `--transfer` names and the transfers they stand for (BT.709 video is rendered with the sRGB
  /// transfer).
  static let transferNames: [(name: String, transfer: ColourEncoding.Transfer)] = [
    ("bt709", .sRGB), ("hlg", .hlg), ("pq", .pq),
  ]

  /// The `--primaries` names and the primaries they stand for.
  static let primariesNames: [(name: String, primaries: ColourEncoding.Primaries)] = [
    ("bt709", .bt709), ("bt2020", .bt2020),
  ]

  /// The `--pix-fmt` names: the packed formats, then the YUV 4:2:0 ones.
  static let formatNames = PixelFormat.allCases.map(\.rawValue) + ["yuv420p", "yuv420p10le"]

  /// `--size WxH` (`-s`): the frame size.
  static let size = ValueOption<(width: Int, height: Int)>(
    "size", short: "s", "WxH", "frame width and height in pixels, e.g. 1920x1080 (required)",
    read: size(parsing:option:))

  /// `--pix-fmt`: the packed pixel format, or 4:2:0 planes with their depth (then the packed format
  /// they are rendered on).
  static let pixelFormat = ValueOption<(format: PixelFormat, yuvDepth: Int?)>(
    "pix-fmt", "FORMAT", usage: formatNames.joined(separator: "|"),
    "rgb24 (default), rgba or bgra (8-bit); rgb48le or rgba64le (16-bit): packed; yuv420p or "
      + "yuv420p10le: planar 4:2:0 (ffmpeg's names)"
  ) { text, option throws(UsageError) in
    switch text.lowercased() {
    case "yuv420p": return (.rgb24, 8)
    case "yuv420p10le": return (.rgb48, 10)
    case let name:
      guard let format = PixelFormat(rawValue: name) else {
        throw UsageError(ChoiceMessage.oneOf.text(name, option: option, names: formatNames))
      }
      return (format, nil)
    }
  }

  /// `--y4m`: a YUV4MPEG2 stream in and out.
  static let y4m = FlagOption(
    "y4m",
    "read and write a YUV4MPEG2 stream (ffmpeg -f yuv4mpegpipe): size, 4:2:0 depth, range "
      + "and rate from its header")

  /// `--colour-matrix`: YUV frames' matrix.
  static let matrix = ValueOption<YUVMatrix>.choice(
    "colour-matrix",
    "YUV frames: the matrix (default: BT.2020 with \(primaries) bt2020, else BT.601 below 720 "
      + "lines, BT.709 at or above)",
    message: .either)

  /// `--range`: YUV frames' code range.
  static let range = ValueOption<YUVRange>.choice(
    "range", "YUV frames: the code range (default: tv, or the y4m header's)", message: .either)

  /// `--transfer`: the frames' transfer.
  static let transfer = ValueOption.choice(
    "transfer", names: transferNames.map(\.name),
    "the frames' transfer (default: bt709, rendered as sRGB); hlg and pq need 10 bits or more",
    message: .list,
    lookup: { name in transferNames.first { $0.name == name.lowercased() }?.transfer })

  /// `--primaries`: the frames' primaries.
  static let primaries = ValueOption.choice(
    "primaries", names: primariesNames.map(\.name),
    "the frames' primaries (default: bt709; HDR video is bt2020)", message: .either,
    lookup: { name in primariesNames.first { $0.name == name.lowercased() }?.primaries })

  /// `--timeline`: control events placed on the frames by `--fps`.
  static let timeline = TimelineOption.option(
    "control events (JSON Lines); frame k takes the events at or before k / fps")

  /// `--fps`: the frame rate that places frames on the timeline.
  static let fps = ValueOption<Double>(
    "fps", "R", "frame rate placing frames on the timeline: 25, 29.97 or 30000/1001",
    read: rate(parsing:option:))

  /// `--stats`.
  static let stats = FlagOption(
    "stats", "print frames, frames per second and p50/p99 render ms to standard error")

  /// `--threads`: libvips's threads.
  static let threads = ValueOption.wholeNumber(
    "threads", "N", "libvips worker threads per frame (default: one per core)", in: 1...1024)

  /// Reads and checks the options of `arguments`.
  ///
  /// - Throws: `UsageError` naming the option and the value that is wrong.
  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError("frames reads standard input and takes no file arguments")
    }
    y4m = arguments[Self.y4m]
    if y4m {
      for option in [Self.size, Self.pixelFormat] as [any CommandOption]
      where arguments.given(option) {
        throw UsageError(
          "\(Self.y4m) reads frame size and format from the stream header; drop \(option)")
      }
      (width, height) = (0, 0)
      pixelFormat = .rgb24
      yuvDepth = 8
    } else {
      guard let size = try arguments[Self.size] else {
        throw UsageError("no frame size given (\(Self.size) WIDTHxHEIGHT, such as 1920x1080)")
      }
      (width, height) = size
      (pixelFormat, yuvDepth) = try arguments[Self.pixelFormat] ?? (.rgb24, nil)
    }
    matrix = try arguments[Self.matrix]
    range = try arguments[Self.range]
    if yuvDepth == nil, matrix != nil || range != nil {
      throw UsageError(
        "\(Self.matrix) and \(Self.range) apply to YUV frames (\(Self.pixelFormat) yuv420p or "
          + "yuv420p10le, or \(Self.y4m))")
    }
    encoding = try Self.encoding(from: arguments)
    if !y4m { try Self.checkDepth(of: encoding, bits: yuvDepth ?? pixelFormat.sampleBytes * 8) }
    state = try StateOptions.controlState(from: arguments)
    let fps = try arguments[Self.fps]
    if arguments.given(Self.timeline) {
      guard fps != nil || y4m else {
        throw UsageError(
          "\(Self.timeline) needs \(Self.fps) R to place frame k at time k / R")
      }
      if let events = try arguments[Self.timeline] { timeline = (events, fps) }
    }
    stats = arguments[Self.stats]
    threads = try arguments[Self.threads]
  }

  /// Takes size, depth, range and rate from a YUV4MPEG2 stream header; `--range` and `--fps`, when
  /// given, win over the header's.
  ///
  /// - Throws: ``FramesError/badY4M(_:)`` when a timeline needs a rate the header does not give.
  /// - Throws: ``FramesError/badY4M(_:)`` when an HLG or PQ `--transfer` meets an 8-bit stream.
  mutating func adopt(_ header: Y4MHeader) throws(FramesError) {
    do {
      try Self.checkDepth(of: encoding, bits: header.depth)
    } catch {
      throw .badY4M("it is \(header.depth)-bit, and \(error.message)")
    }
    (width, height, yuvDepth) = (header.width, header.height, header.depth)
    pixelFormat = header.depth > 8 ? .rgb48 : .rgb24
    range = range ?? header.range
    if let events = timeline?.events, timeline?.fps == nil {
      guard let fps = header.fps else {
        throw .badY4M(
          "it gives no frame rate (F) to place the timeline's frames; add \(Self.fps) R")
      }
      timeline = (events, fps)
    }
  }

  /// The encoding `--transfer` and `--primaries` name (each bt709 when not given).
  static func encoding(from arguments: ParsedArguments) throws(UsageError) -> ColourEncoding {
    var encoding = ColourEncoding.sRGB
    if let transfer = try arguments[Self.transfer] { encoding.transfer = transfer }
    if let primaries = try arguments[Self.primaries] { encoding.primaries = primaries }
    return encoding
  }

  /// Refuses HLG and PQ on frames of fewer than 10 bits, whose steps would band visibly.
  static func checkDepth(of encoding: ColourEncoding, bits: Int) throws(UsageError) {
    guard encoding.transfer != .sRGB, bits < 10 else { return }
    throw UsageError(
      "\(transfer) \(encoding.transfer.rawValue) needs frames of 10 bits or more "
        + "(\(pixelFormat) rgb48le, rgba64le or yuv420p10le, or a 10-bit \(y4m) stream)")
  }

  /// Parses `WIDTHxHEIGHT` (`1920x1080`) given to `option`; both sides 1 … ``maximumSide``, at most
  /// `LoadOptions.defaultPixelLimit` pixels.
  static func size(parsing text: String, option: String) throws(UsageError) -> (
    width: Int, height: Int
  ) {
    let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    let range = 1...maximumSide
    guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
      range.contains(width), range.contains(height)
    else {
      throw UsageError(
        "\(option) must be WIDTHxHEIGHT with whole numbers 1 … \(maximumSide), such as 1920x1080, not '\(text)'"
      )
    }
    guard width * height <= LoadOptions.defaultPixelLimit else {
      throw UsageError(
        "\(option) \(text) is \(width * height) pixels; frames may have at most \(LoadOptions.defaultPixelLimit)"
      )
    }
    return (width, height)
  }

  /// Parses a frame rate given to `option`: a number (`25`, `29.97`) or a fraction as ffmpeg prints it
  /// (`30000/1001`).
  static func rate(parsing text: String, option: String) throws(UsageError) -> Double {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    let numbers = parts.compactMap { Double($0) }
    let rate: Double? =
      switch (parts.count, numbers.count) {
      case (1, 1): numbers[0]
      case (2, 2) where numbers[1] > 0: numbers[0] / numbers[1]
      default: nil
      }
    guard let rate, rate.isFinite, rate > 0 else {
      throw UsageError(
        "\(option) must be a frame rate above 0 such as 25, 29.97 or 30000/1001, not '\(text)'")
    }
    return rate
  }
}
