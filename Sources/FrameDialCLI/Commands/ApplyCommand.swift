import Controls
import Foundation
import FrameDial
import Vips

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial apply IN -o OUT`: one still through the controls, written atomically.
enum ApplyCommand: ExitingAtOnceCommand {
  static let name = "apply"
  static let summary =
    "Render one image with the control values and write it (in its own colour space unless "
    + "\(ProfileOptions.profile); EXIF with orientation 1, XMP and IPTC kept unless "
    + "\(ProfileOptions.strip))."
  /// `-o OUT`: the file written, or standard output.
  static let output = OutputOption.option(
    "OUT",
    "the file to write (its folder is created if missing; its extension picks the format), "
      + "or - for standard output with \(format)")
  /// `--format`.
  static let format = FormatOption.option(otherwise: "from OUT's extension")
  /// `--unoptimized`.
  static let unoptimized = UnoptimizedOption.flag(
    "render through the unoptimized graph (for comparisons)")
  static let synopsis = Usage(
    [.words("IN|-"), .option(output, "OUT|-", short: true)] + StateOptions.usage + [
      .optional(QualityOption.option), .optional(EffortOption.option), .optional(format),
      SizeOptions.usage,
    ] + ProfileOptions.usage + [.optional(FailOnOption.option)])
  static let parser = ArgumentParser(
    options: [
      output, QualityOption.option, EffortOption.option, format, PixelLimitOption.option,
      FailOnOption.option, BackgroundOption.option, HDRPhotoOption.option, unoptimized,
      OverwriteOption.option,
    ] + FitOptions.options + SizeOptions.options + ProfileOptions.options
      + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let (input, output) = try arguments.singleInputAndOutput(
      command: name, outputHint: "OUT")
    let options = try stillOptions(arguments)
    HEVCDecoding.failOn(options.load.failOn)
    let toStandardOutput = output == StandardStreams.dash
    if toStandardOutput {
      guard options.format != nil else {
        throw UsageError(
          "-o - writes the image to standard output: give its format with \(Self.format) (jpeg, png, …)"
        )
      }
      guard isatty(STDOUT_FILENO) == 0 else {
        throw UsageError(
          "standard output is a terminal: redirect it (-o - > out.jpg) or pipe it to a program")
      }
    } else if let asked = options.format, let named = ImageFormat(path: output), named != asked {
      throw UsageError(
        "\(Self.format) \(asked.rawValue) disagrees with the output's extension (\(output) is "
          + "\(named.rawValue)); name it .\(asked.fileExtension) or drop \(Self.format)")
    }
    let state = try StateOptions.controlState(from: arguments)
    if !toStandardOutput {
      try OverwriteOption.check(
        output, input: input == StandardStreams.dash ? nil : input, arguments)
      try AtomicFile.prepareFolder(of: output)
    }
    let scratch = FileManager.default.temporaryDirectory.path
    var names: [String: String] = [:]
    do {
      return try reading(input, scratch: scratch) { source in
        if source != input { names[source] = "standard input" }
        guard toStandardOutput, let format = options.format else {
          let result = try StillRenderer().renderFile(
            at: source, to: output, state: state, options: options)
          report(result, input: input, output: output, names: names, to: console, onError: false)
          return ExitCode.success
        }
        return try AtomicFile.withScratchFile(
          named: "stdout.\(format.fileExtension)", in: scratch
        ) { staged in
          names[staged] = "standard output"
          let result = try StillRenderer().renderFile(
            at: source, to: staged, state: state, options: options)
          guard try StandardStreams.copyToOutput(from: staged) else {
            console.err(
              "framedial \(name): standard output was closed before the whole image was written")
            return ExitCode.outputClosed
          }
          report(
            result, input: input, output: "standard output", names: names, to: console,
            onError: true)
          return ExitCode.success
        }
      }
    } catch let failure where !names.isEmpty {
      // Temporary paths mean nothing to the caller: name the streams instead.
      var message = ErrorMessage.plain(failure)
      for (path, word) in names { message = message.replacingOccurrences(of: path, with: word) }
      throw RenderError(message)
    }
  }

  /// Calls `body` with `input`'s path, or with a temporary copy of standard input for `-`.
  private static func reading(
    _ input: String, scratch: String, _ body: (String) throws -> Int32
  ) throws -> Int32 {
    guard input == StandardStreams.dash else { return try body(input) }
    return try AtomicFile.withScratchFile(named: "stdin", in: scratch) { spooled in
      try StandardStreams.spoolInput(to: spooled)
      return try body(spooled)
    }
  }

  /// The line saying what was written, and the warnings; on standard error when standard output
  /// carries the image.
  private static func report(
    _ result: StillResult, input: String, output: String, names: [String: String],
    to console: Console, onError: Bool
  ) {
    let source = input == StandardStreams.dash ? "standard input" : input
    let line =
      "\(source) → \(output) (\(result.width)×\(result.height) \(result.format.rawValue))"
    if onError { console.err(line) } else { console.out(line) }
    for warning in result.warnings {
      var text = warning
      for (path, word) in names { text = text.replacingOccurrences(of: path, with: word) }
      console.err("framedial \(name): warning: \(text)")
    }
  }

  /// The still options the shared flags describe.
  static func stillOptions(_ arguments: ParsedArguments) throws(UsageError) -> StillOptions {
    var options = StillOptions()
    options.quality = try arguments[QualityOption.option]
    options.format = try arguments[Self.format]
    if let effort = try arguments[EffortOption.option] { options.effort = effort }
    if let hdrPhoto = try arguments[HDRPhotoOption.option] { options.hdrPhoto = hdrPhoto }
    options.load.pixelLimit = try PixelLimitOption.limit(from: arguments)
    options.load.failOn = try FailOnOption.level(from: arguments)
    options.optimized = !arguments[Self.unoptimized]
    options.fit = try FitOptions.screenFit(from: arguments)
    options.size = try SizeOptions.sizeFit(from: arguments)
    if let colour = try arguments[BackgroundOption.option] { options.background = colour }
    options.profile = try arguments[ProfileOptions.profile] ?? .keep
    options.metadata = try ProfileOptions.metadata(from: arguments)
    return options
  }
}
