import Controls
import Foundation
import FrameDial
import Vips

/// `framedial batch IN… -o OUT_DIR`: a folder tree of photos through the controls, mirrored into OUT_DIR.
enum BatchCommand: SignalTrappingCommand {
  static let name = "batch"
  static let summary =
    "Render every image under the input folders into OUT_DIR, mirroring the tree; bad files are reported and skipped."
  static let usage =
    "batch IN_DIR|FILE… -o OUT_DIR [--preset NAME] [--state FILE]… [--set KEY=VALUE]… [options]"
  static let parser = ArgumentParser(
    options: [
      .value(
        "output", short: "o", "OUT_DIR", "the folder that receives the outputs (created if missing)"
      ),
      .value(
        "format", "FORMAT",
        "jpeg, png, webp, tiff, heic or avif (default: each input's own; GIF → PNG)"),
      ApplyCommand.qualityOption,
      EffortOption.option,
      .value(
        "name", "TEMPLATE",
        "output names from {stem} {ext} {name} {format} (default {stem}.{ext}; {ext} keeps the input's spelling)"
      ),
      .value(
        "jobs", short: "j", "N",
        "images processed at once (default: the number of cores); each gets cores / N libvips "
          + "threads, or VIPS_CONCURRENCY when that is set"),
      .value(
        "shard", "I/N", "process only part I of N (1 ≤ I ≤ N), split deterministically by path"),
      PixelLimitOption.option,
      FailOnOption.option,
      ApplyCommand.backgroundOption,
      .flag("no-recursive", "do not walk sub-folders"),
      .flag("follow-symlinks", "walk into symbolically linked folders"),
      .flag("include-hidden", "include files and folders whose names start with a dot"),
      .flag(
        "overwrite", short: "y",
        "replace outputs that exist (default: skip those made with the same settings, so a rerun "
          + "resumes, and redo those made with other settings)"),
      .flag(
        "allow-output-inside",
        "accept an output folder inside (it is not walked) or equal to an input folder (the outputs "
          + "its records describe are never inputs)"),
      .flag("dry-run", short: "n", "list what would be written; write nothing"),
      .flag("keep-time", "give each output its input's modification time"),
      .value(
        "pairs", "both|raw|jpeg",
        "a camera raw beside an image of the same name (IMG_1.DNG, IMG_1.JPG): both (default; the "
          + "raw's output is IMG_1-raw.jpg), the raw only, or the image only"),
      .flag("json", "one JSON object per file and a summary, on standard output"),
      .flag(
        "verbose", short: "v", "also list the files passed over as not images (videos, sidecars)"),
    ] + FitOptions.options + SizeOptions.options + ProfileOptions.options
      + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard !arguments.positionals.isEmpty else {
      throw UsageError("no input folders or files given")
    }
    guard let output = arguments.value("output") else {
      throw UsageError("no output folder given (-o OUT_DIR)")
    }
    let state = try StateOptions.state(from: arguments)
    var options = try ApplyCommand.stillOptions(arguments)
    HEVCDecoding.failOn(options.load.failOn)
    options.load.sequential = true
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let jobs = try arguments.int("jobs", in: 1...256) ?? cores
    var layout: BatchLayout
    do {
      layout = BatchLayout(
        inputs: arguments.positionals.filter { ArgumentBytes.problem($0) == nil },
        outputFolder: output,
        naming: try OutputNaming(template: arguments.value("name") ?? "{stem}.{ext}"))
      // An input named by bytes that are not UTF-8 is one failed file; the others run.
      layout.refusedInputs = arguments.positionals.compactMap { path in
        ArgumentBytes.problem(path).map { (path, $0) }
      }
      layout.shard = try arguments.value("shard").map { try Shard(parsing: $0) }
      if let pairs = arguments.value("pairs") {
        guard let rule = RawPairs(rawValue: pairs.lowercased()) else {
          throw UsageError("--pairs must be both, raw or jpeg, not '\(pairs)'")
        }
        layout.pairs = rule
      }
    } catch let error as RenderError {
      throw UsageError(error.message)
    }
    layout.format = options.format
    layout.walker.recursive = !arguments.flag("no-recursive")
    layout.walker.followSymlinkedFolders = arguments.flag("follow-symlinks")
    layout.walker.includeHidden = arguments.flag("include-hidden")
    layout.allowOutputInsideInput = arguments.flag("allow-output-inside")
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
    if !arguments.flag("dry-run") { try layout.prepareOutputFolder() }
    // One image per worker is faster than many threads per image: share libvips's threads out, unless
    // VIPS_CONCURRENCY asks for a number of threads per image.
    let requested = ProcessInfo.processInfo.environment["VIPS_CONCURRENCY"].flatMap { Int($0) }
    try Vips.setThreads(requested.flatMap { $0 > 0 ? $0 : nil } ?? max(1, cores / jobs))
    let dryRun = arguments.flag("dry-run")
    let reporter = BatchReporter(
      style: arguments.flag("json") ? .json : .plain, total: items.count, console: console,
      showsProgress: console.errorIsTerminal && !arguments.flag("json") && !dryRun,
      listsIgnored: arguments.flag("verbose"), notesSlowFormats: options.format == nil)
    // What made the outputs already there (see OutputRecords); a dry run only reads the records.
    let records = OutputRecords(outputFolder: output)
    if !dryRun { records.compact() }
    let runner = BatchRunner(
      state: state, options: options, jobs: jobs, overwrite: arguments.flag("overwrite"),
      dryRun: dryRun,
      keepTime: arguments.flag("keep-time"), records: records)
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
