import FrameDial

/// `--size N|WxH` and `--enlarge`, shared by `apply` and `batch`.
enum SizeOptions {
  /// The options, to add to a command's parser.
  static let options: [ArgumentParser.Option] = [
    .value(
      "size", "N|WxH",
      "fit the output inside N×N or W×H pixels, aspect kept, after the zoom; never enlarges "
        + "(files are decoded smaller where the format allows)"),
    .flag("enlarge", "with --size, also scale pictures smaller than the box up to it"),
  ]

  /// The size the options describe, or nil without `--size`.
  ///
  /// - Throws: `UsageError` for a size that is not N or WxH in whole pixels, `--enlarge` without
  ///   `--size`, or `--size` together with `--fit` (both would set the output's size).
  static func size(from arguments: ParsedArguments) throws(UsageError) -> SizeFit? {
    guard let text = arguments.value("size") else {
      if arguments.flag("enlarge") { throw UsageError("--enlarge needs --size N or --size WxH") }
      return nil
    }
    if arguments.value("fit") != nil {
      throw UsageError(
        "--size and --fit both set the output's size; give one (--fit for a device screen, "
          + "--size for a box in pixels)")
    }
    do {
      return try SizeFit(parsing: text, enlarge: arguments.flag("enlarge"))
    } catch {
      throw UsageError("--size: \(error.message)")
    }
  }
}
