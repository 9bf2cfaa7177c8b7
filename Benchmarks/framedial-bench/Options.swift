import Foundation
import FrameDialCLI

/// The benchmark's command-line options, read with FrameDial's own argument parser.
struct BenchmarkOptions: Sendable {
  /// The sections a run can include.
  enum Section: String, Sendable, CaseIterable {
    case frames, hdr, compile, latency, batch, raw, python, video, browser
    case heicDecode = "heic-decode"
    case startup
    case hdrPhoto = "hdr-photo"
  }

  /// A short run (under a minute): fewer frames, events and images.
  var quick = false
  /// Print one JSON document instead of Markdown.
  var json = false
  /// Timed frames per optimized case, after warm-up.
  var frames = 200
  /// Timed frames per unoptimized case, after warm-up.
  var unoptimizedFrames = 15
  /// Warm-up frames per case (not timed).
  var warmupFrames = 20
  /// Warm-up frames per unoptimized case (not timed).
  var unoptimizedWarmupFrames = 1
  /// Timed plan compilations (recompiles and cache hits each).
  var compilations = 2000
  /// Slider events replayed at 120 per second.
  var sliderEvents = 600
  /// Generated 12-megapixel JPEGs in the batch folder.
  var batchImages = 12
  /// The sample photo enlarged into frames and batch images.
  var imagePath: String
  /// The sections to run.
  var sections = Set(Section.allCases)
  /// The benchmark document (docs/benchmarks.md) to write the measured sections into, if any.
  var write: String?

  /// `--quick`.
  static let quickFlag = FlagOption(
    "quick",
    "a short run: 30 frames a case, 2 unoptimized, 120 slider events, 4 images, 2 raws, a 3 s clip, "
      + "120 key presses in the browser")
  /// `--json`.
  static let jsonFlag = FlagOption("json", "print one JSON document instead of Markdown tables")
  /// `--frames`.
  static let framesOption = ValueOption.wholeNumber(
    "frames", "N", "timed frames per optimized case after warm-up (default 200)", in: 1...100_000)
  /// `--image`.
  static let imageOption = ValueOption<String>(
    "image", "PATH", "the sample photo to enlarge (default SampleImages/rocket.jpg)")
  /// `--only`: the sections to run.
  static let onlyOption = ValueOption<Set<Section>>(
    "only", "LIST",
    "run only these sections: \(Section.allCases.map(\.rawValue).joined(separator: ", ")) "
      + "(comma-separated)"
  ) { list, option throws(UsageError) in
    var chosen = Set<Section>()
    for word in list.split(separator: ",") {
      guard let section = Section(rawValue: word.trimmingCharacters(in: .whitespaces)) else {
        throw UsageError("\(option): unknown section '\(word)'")
      }
      chosen.insert(section)
    }
    return chosen
  }
  /// `--write`.
  static let writeOption = ValueOption<String>(
    "write", "FILE",
    "also write the sections measured into FILE (docs/benchmarks.md), replacing those sections' "
      + "earlier runs and keeping the others")

  static let parser = ArgumentParser(options: [
    quickFlag, jsonFlag, framesOption, imageOption, onlyOption, writeOption,
  ])

  static let usage =
    "usage: " + Usage([]).line(command: "framedial-bench", options: parser.options)

  /// The options `arguments` (without the program name) give.
  init(_ arguments: [String]) throws(UsageError) {
    let parsed = try Self.parser.parse(arguments)
    if parsed.helpRequested { throw UsageError.help }
    guard parsed.positionals.isEmpty else {
      throw UsageError("unexpected argument '\(parsed.positionals[0])'")
    }
    imagePath = try parsed[Self.imageOption] ?? Self.defaultImagePath
    json = parsed[Self.jsonFlag]
    write = try parsed[Self.writeOption]
    if parsed[Self.quickFlag] {
      quick = true
      frames = 30
      unoptimizedFrames = 2
      unoptimizedWarmupFrames = 0
      warmupFrames = 5
      compilations = 500
      sliderEvents = 120
      batchImages = 4
    }
    if let count = try parsed[Self.framesOption] { frames = count }
    if let chosen = try parsed[Self.onlyOption] { sections = chosen }
  }

  /// The repository's sample photo, found from this source file's location.
  static var defaultImagePath: String {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("SampleImages/rocket.jpg").path
  }
}

extension UsageError {
  /// Stands for `--help`: print the help and exit successfully.
  static let help = UsageError("help")
}
