import Controls
import FrameDial
import Vips

/// `framedial apply IN -o OUT`: one still through the controls, written atomically.
enum ApplyCommand: Command {
  static let name = "apply"
  static let summary =
    "Render one image with the control values and write it (EXIF kept with orientation 1, sRGB ICC, XMP)."
  static let usage =
    "apply IN -o OUT [--state FILE.json]… [--set KEY=VALUE]… [--quality Q] [--format F] [--fit DEVICE[:O] | --size N|WxH]"
  static let parser = ArgumentParser(
    options: [
      .value("output", short: "o", "OUT", "the file to write; its extension picks the format"),
      .value("quality", short: "q", "Q", "quality 1 … 100 for JPEG, WebP, HEIC, AVIF, TIFF"),
      .value(
        "format", "FORMAT", "jpeg, png, webp, tiff, heic or avif (default: from OUT's extension)"),
      .value("pixel-limit", "PIXELS", "refuse larger images (default 100000000)"),
      backgroundOption,
      .flag("unoptimized", "render through the unoptimized graph (for comparisons)"),
    ] + FitOptions.options + SizeOptions.options + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    let trap = SignalTrap.exitingAtOnce(command: name, console: console)
    defer { trap.cancel() }
    let (input, output) = try arguments.singleInputAndOutput(
      command: name, outputHint: "OUT")
    let options = try stillOptions(arguments)
    if let asked = options.format, let named = ImageFormat(path: output), named != asked {
      throw UsageError(
        "--format \(asked.rawValue) disagrees with the output's extension (\(output) is \(named.rawValue)); "
          + "name it .\(asked.fileExtension) or drop --format")
    }
    let state = try StateOptions.state(from: arguments)
    let result = try StillRenderer().renderFile(
      at: input, to: output, state: state, options: options)
    console.out(
      "\(input) → \(result.outputPath) (\(result.width)×\(result.height) \(result.format.rawValue))"
    )
    for warning in result.warnings { console.err("framedial \(name): warning: \(warning)") }
    return ExitCode.success
  }

  /// `--background COLOUR`, shared with batch.
  static let backgroundOption = ArgumentParser.Option.value(
    "background", "COLOUR",
    "what transparency is flattened onto for JPEG output: white (default), black, #RRGGBB, R,G,B")

  /// The still options the shared flags describe.
  static func stillOptions(_ arguments: ParsedArguments) throws(UsageError) -> StillOptions {
    var options = StillOptions()
    options.quality = try arguments.int("quality", in: 1...100)
    if let name = arguments.value("format") {
      guard
        let format = ImageFormat(rawValue: name.lowercased()) ?? ImageFormat(fileExtension: name)
      else {
        throw UsageError(
          "--format must be one of \(ImageFormat.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'"
        )
      }
      options.format = format
    }
    if let limit = try arguments.int("pixel-limit", in: 1...Int.max) {
      options.load.pixelLimit = limit
    }
    options.optimized = !arguments.flag("unoptimized")
    options.fit = try FitOptions.fit(from: arguments)
    options.size = try SizeOptions.size(from: arguments)
    if let colour = arguments.value("background") {
      options.background = try ColourArgument.parse(colour)
    }
    return options
  }
}
