import Controls
import Foundation
import FrameDial
import Vips

/// `framedial batch IN… -o OUT_DIR`: a folder tree of photos through the controls, mirrored into OUT_DIR.
enum BatchCommand: SignalTrappingCommand {
  static let name = "batch"
  static let reportsEachInput = true
  static let summary =
    "Render every image under the input folders into OUT_DIR, mirroring the tree; bad files are reported and skipped."
  /// `-o OUT_DIR`.
  static let output = OutputOption.option(
    "OUT_DIR", "the folder that receives the outputs (created if missing)")
  /// `--format`.
  static let format = FormatOption.option(otherwise: "each input's own; GIF → PNG")
  /// `--name`: the output names.
  static let naming = ValueOption<String>(
    "name", "TEMPLATE",
    "output names from {stem} {ext} {name} {format} (default {stem}.{ext}; {ext} keeps the input's spelling)"
  )
  /// `--jobs`: images at once.
  static let jobs = ValueOption.wholeNumber(
    "jobs", short: "j", "N",
    "images processed at once (default: the number of cores); each gets cores / N libvips "
      + "threads, or VIPS_CONCURRENCY when that is set",
    in: 1...256)
  /// `--shard`: one part of the inputs.
  static let shard = ValueOption<String>(
    "shard", "I/N", "process only part I of N (1 ≤ I ≤ N), split deterministically by path")
  /// `--no-recursive`.
  static let noRecursive = FlagOption("no-recursive", "do not walk sub-folders")
  /// `--follow-symlinks`.
  static let followSymlinks = FlagOption(
    "follow-symlinks", "walk into symbolically linked folders")
  /// `--include-hidden`.
  static let includeHidden = FlagOption(
    "include-hidden", "include files and folders whose names start with a dot")
  /// `--overwrite`, which for a batch also redoes outputs made with the same settings.
  static let overwrite = OverwriteOption.option.help(
    "replace outputs that exist (default: skip those made with the same settings, so a rerun "
      + "resumes, and redo those made with other settings)")
  /// `--allow-output-inside`.
  static let allowOutputInside = FlagOption(
    "allow-output-inside",
    "accept an output folder inside (it is not walked) or equal to an input folder (the outputs "
      + "its records describe are never inputs)")
  /// `--dry-run`.
  static let dryRun = FlagOption(
    "dry-run", short: "n", "list what would be written; write nothing")
  /// `--keep-time`.
  static let keepTime = FlagOption(
    "keep-time", "give each output its input's modification time")
  /// `--pairs`: a raw beside an image of the same name.
  static let pairs = ValueOption<RawPairs>.choice(
    "pairs",
    "a camera raw beside an image of the same name (IMG_1.DNG, IMG_1.JPG): both (default; the "
      + "raw's output is IMG_1-raw.jpg), the raw only, or the image only",
    message: .either)
  /// `--json`.
  static let json = JSONOption.flag("one JSON object per file and a summary, on standard output")
  /// `--verbose`.
  static let verbose = FlagOption(
    "verbose", short: "v", "also list the files passed over as not images (videos, sidecars)")
  static let synopsis = Usage(
    [.words("IN_DIR|FILE…"), .option(output, short: true)] + StateOptions.usage + [
      .optional(format), .optional(QualityOption.option), .optional(EffortOption.option),
      SizeOptions.usage,
    ] + ProfileOptions.usage)
  static let parser = ArgumentParser(
    options: [
      output, format, QualityOption.option, EffortOption.option, naming, jobs, shard,
      PixelLimitOption.option, FailOnOption.option, BackgroundOption.option, HDRPhotoOption.option,
      noRecursive,
      followSymlinks, includeHidden, overwrite, allowOutputInside, dryRun, keepTime, pairs, json,
      verbose,
    ] + FitOptions.options + SizeOptions.options + ProfileOptions.options
      + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("no input folders or files given")
    }
    guard let output = try arguments[Self.output] else {
      throw UsageError("no output folder given (-o OUT_DIR)")
    }
    let state = try StateOptions.controlState(from: arguments)
    var options = try ApplyCommand.stillOptions(arguments)
    HEVCDecoding.failOn(options.load.failOn)
    options.load.sequential = true
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let jobs = try arguments[Self.jobs] ?? cores
    var layout: BatchLayout
    do {
      layout = BatchLayout(
        inputs: arguments.positionals.filter { ArgumentBytes.problem($0) == nil },
        outputFolder: output,
        naming: try OutputNaming(template: try arguments[Self.naming] ?? "{stem}.{ext}"))
      // An input named by bytes that are not UTF-8 is one failed file; the others run.
      layout.refusedInputs = arguments.positionals.compactMap { path in
        ArgumentBytes.problem(path).map { (path, $0) }
      }
      layout.shard = try arguments[Self.shard].map { try Shard(parsing: $0) }
      if let rule = try arguments[Self.pairs] { layout.pairs = rule }
    } catch let error as RenderError {
      throw UsageError(error.message)
    }
    layout.format = options.format
    layout.walker.recursive = !arguments[Self.noRecursive]
    layout.walker.followSymlinkedFolders = arguments[Self.followSymlinks]
    layout.walker.includeHidden = arguments[Self.includeHidden]
    layout.allowOutputInsideInput = arguments[Self.allowOutputInside]
    // Set before planning, so the walk of a huge folder can be interrupted too.
    let trap = SignalTrap(
      .finishRunningWork,
      onSignal: { _ in
        console.errText(
          "\ninterrupted: finishing the images in progress, starting no more (again: stop at once)")
      },
      onExit: { number in
        console.err(
          "stopped by \(SignalTrap.name(of: number)): the images in progress were abandoned and "
            + "their partial files removed")
      })
    defer { trap.cancel() }
    let items: [BatchItem]
    do {
      items = try layout.items(shouldStop: { trap.signal != nil })
    } catch {
      guard let code = trap.exitCode else { throw error }
      console.err("framedial batch: interrupted while looking for images; nothing was written")
      return code
    }
    // An output folder that cannot take files is one error now, not one per image.
    if !arguments[Self.dryRun] { try layout.prepareOutputFolder() }
    // One image per worker is faster than many threads per image: share libvips's threads out, unless
    // VIPS_CONCURRENCY asks for a number of threads per image.
    let requested = ProcessInfo.processInfo.environment["VIPS_CONCURRENCY"].flatMap { Int($0) }
    try Vips.setThreads(requested.flatMap { $0 > 0 ? $0 : nil } ?? max(1, cores / jobs))
    let dryRun = arguments[Self.dryRun]
    let reporter = BatchReporter(
      style: arguments[Self.json] ? .json : .plain, total: items.count, console: console,
      showsProgress: console.errorIsTerminal && !arguments[Self.json] && !dryRun,
      listsIgnored: arguments[Self.verbose], notesSlowFormats: options.format == nil)
    // What made the outputs already there (see OutputRecords); a dry run only reads the records.
    let records = OutputRecords(outputFolder: output)
    if !dryRun { records.compact() }
    let runner = BatchRunner(
      state: state, options: options, jobs: jobs, overwrite: arguments[Self.overwrite],
      dryRun: dryRun,
      keepTime: arguments[Self.keepTime], records: records)
    // A closed standard output (`--json | head -1`) stops the batch like a first Ctrl-C.
    let summary = runner.run(
      items, shouldStop: { trap.signal != nil || console.outputClosed }, report: reporter.report)
    reporter.finish(summary)
    if let code = trap.exitCode { return code }
    if console.outputClosed {
      console.err(
        "framedial batch: standard output was closed: finished the images in progress, "
          + "started no more (\(summary.notStarted) not started)")
      return ExitCode.outputClosed
    }
    return summary.failed > 0 ? ExitCode.failure : ExitCode.success
  }
}
