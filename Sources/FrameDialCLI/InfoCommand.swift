import Foundation
import Vips

/// `framedial info FILE…`: one line of header facts per file, read without decoding pixels.
enum InfoCommand: Command {
  static let name = "info"
  static let summary =
    "Print each image's size, bands, format, interpretation, orientation, ICC and loader."
  static let usage = "info FILE…"
  static let parser = ArgumentParser(options: [
    .value(
      "pixel-limit", "PIXELS", "refuse images larger than this many pixels (default 100000000)"),
    .flag("json", "one JSON object per file on standard output"),
  ])

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard !arguments.positionals.isEmpty else { throw UsageError("no files given") }
    let limit = try arguments.int("pixel-limit", in: 1...Int.max) ?? LoadOptions.defaultPixelLimit
    let json = arguments.flag("json")
    var failed = 0
    for path in arguments.positionals {
      do {
        let header = try Image.probe(path, pixelLimit: limit)
        if json {
          console.outJSON(try JSONText.line(jsonObject(path: path, header)))
        } else {
          console.out("\(path): \(describe(header))")
        }
      } catch {
        failed += 1
        console.err("framedial info: \(error)")
        if json {
          console.outJSON(try JSONText.line(["path": path, "error": "\(error)"]))
        }
      }
    }
    return failed == 0 ? ExitCode.success : ExitCode.failure
  }

  /// The header facts as one JSON object, under the same names as the text line.
  static func jsonObject(path: String, _ header: ImageHeader) -> [String: Any] {
    [
      "path": path, "width": header.width, "height": header.height, "bands": header.bands,
      "format": header.format.rawValue, "interpretation": header.interpretation,
      "orientation": header.orientation, "alpha": header.hasAlpha, "icc": header.hasICCProfile,
      "pages": header.pages, "loader": header.loader ?? NSNull(),
    ]
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
