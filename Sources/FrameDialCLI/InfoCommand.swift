import Vips

/// `framedial info FILE…`: one line of header facts per file, read without decoding pixels.
enum InfoCommand: Command {
  static let name = "info"
  static let summary =
    "Print each image's size, bands, format, interpretation, orientation, ICC and loader."
  static let usage = "info FILE…"
  static let parser = ArgumentParser(options: [
    .value(
      "pixel-limit", "PIXELS", "refuse images larger than this many pixels (default 100000000)")
  ])

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard !arguments.positionals.isEmpty else { throw UsageError("no files given") }
    let limit = try arguments.int("pixel-limit", in: 1...Int.max) ?? LoadOptions.defaultPixelLimit
    var failed = 0
    for path in arguments.positionals {
      do {
        console.out("\(path): \(describe(try Image.probe(path, pixelLimit: limit)))")
      } catch {
        failed += 1
        console.err("error: \(error)")
      }
    }
    return failed == 0 ? ExitCode.success : ExitCode.failure
  }

  /// One line of header facts, e.g. `640×427, 3 bands, uchar, srgb, orientation 1, ICC no, jpegload`.
  static func describe(_ header: ImageHeader) -> String {
    var parts = [
      "\(header.width)×\(header.height)", "\(header.bands) band\(header.bands == 1 ? "" : "s")",
      header.format.rawValue, header.interpretation, "orientation \(header.orientation)",
      "ICC \(header.hasICCProfile ? "yes" : "no")",
    ]
    if header.hasAlpha { parts.insert("alpha", at: 2) }
    if header.pages > 1 { parts.append("\(header.pages) pages") }
    parts.append(header.loader ?? "unknown loader")
    return parts.joined(separator: ", ")
  }
}
