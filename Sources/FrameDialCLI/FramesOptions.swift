import Controls
import Foundation
import FrameDial
import Vips

/// What `framedial frames` was asked to do, checked: frame size and layout, control state, timeline.
struct FramesOptions {
  /// The largest frame side accepted by `--size`.
  static let maximumSide = 32_768

  /// Frame width in pixels.
  var width: Int
  /// Frame height in pixels.
  var height: Int
  /// The byte layout of every pixel, in and out.
  var pixelFormat: PixelFormat
  /// The control state before any timeline event.
  var state: ControlState
  /// The timeline and the frame rate that places frames on it, when `--timeline` is given.
  var timeline: (events: Timeline, fps: Double)?
  /// Whether to print timing to standard error.
  var stats: Bool
  /// libvips worker threads, when `--threads` is given.
  var threads: Int?

  /// Bytes of one packed frame.
  var frameBytes: Int { width * height * pixelFormat.pixelBytes }

  /// Reads and checks the options of `arguments`.
  ///
  /// - Throws: `UsageError` naming the option and the value that is wrong.
  init(_ arguments: ParsedArguments) throws(UsageError) {
    guard arguments.positionals.isEmpty else {
      throw UsageError("frames reads standard input and takes no file arguments")
    }
    guard let size = arguments.value("size") else {
      throw UsageError("no frame size given (--size WIDTHxHEIGHT, such as 1920x1080)")
    }
    (width, height) = try Self.size(parsing: size)
    let formatName = arguments.value("pix-fmt") ?? PixelFormat.rgb24.rawValue
    guard let pixelFormat = PixelFormat(rawValue: formatName.lowercased()) else {
      throw UsageError(
        "--pix-fmt must be one of \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(formatName)'"
      )
    }
    self.pixelFormat = pixelFormat
    state = try StateOptions.state(from: arguments)
    let fps = try arguments.value("fps").map(Self.rate(parsing:))
    if let path = arguments.value("timeline") {
      guard let fps else {
        throw UsageError("--timeline needs --fps R to place frame k at time k / R")
      }
      timeline = (try Self.timeline(at: path), fps)
    }
    stats = arguments.flag("stats")
    threads = try arguments.int("threads", in: 1...1024)
  }

  /// Parses `WIDTHxHEIGHT` (`1920x1080`); both sides 1 … ``maximumSide``, at most
  /// `LoadOptions.defaultPixelLimit` pixels.
  static func size(parsing text: String) throws(UsageError) -> (width: Int, height: Int) {
    let sides = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    let range = 1...maximumSide
    guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
      range.contains(width), range.contains(height)
    else {
      throw UsageError(
        "--size must be WIDTHxHEIGHT with whole numbers 1 … \(maximumSide), such as 1920x1080, not '\(text)'"
      )
    }
    guard width * height <= LoadOptions.defaultPixelLimit else {
      throw UsageError(
        "--size \(text) is \(width * height) pixels; frames may have at most \(LoadOptions.defaultPixelLimit)"
      )
    }
    return (width, height)
  }

  /// Parses a frame rate: a number (`25`, `29.97`) or a fraction as ffmpeg prints it (`30000/1001`).
  static func rate(parsing text: String) throws(UsageError) -> Double {
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
        "--fps must be a frame rate above 0 such as 25, 29.97 or 30000/1001, not '\(text)'")
    }
    return rate
  }

  /// Reads the timeline at `path` (`--timeline`, shared with `video`).
  static func timeline(at path: String) throws(UsageError) -> Timeline {
    do {
      return try Timeline(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw UsageError("--timeline \(path): \(error)")
    }
  }
}
