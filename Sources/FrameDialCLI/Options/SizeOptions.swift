import FrameDial

/// `--size N|WxH` and `--enlarge`, shared by `apply` and `batch`.
enum SizeOptions {
  /// `--size`: the box the output fits inside.
  static let size = ValueOption<String>(
    StillOptionKey.size.commandLineName, "N|WxH",
    "fit the output inside N×N or W×H pixels, aspect kept, after the zoom; never enlarges "
      + "(files are decoded smaller where the format allows)")

  /// `--enlarge`: smaller pictures scaled up to the box too.
  static let enlarge = FlagOption(
    StillOptionKey.enlarge.commandLineName,
    "with \(size), also scale pictures smaller than the box up to it")

  /// The options, to add to a command's parser.
  static let options: [any CommandOption] = [size, enlarge]

  /// The output's size, as usage lines show it: a device screen or a box, not both.
  static let usage = UsageTerm.atMostOneOf(
    [.option(FitOptions.fit), .optional(FitOptions.mode)], [.option(size), .optional(enlarge)])

  /// The size the options describe, or nil without `--size`.
  ///
  /// - Throws: `UsageError` for a size that is not N or WxH in whole pixels, `--enlarge` without
  ///   `--size`, or `--size` together with `--fit` (both would set the output's size).
  static func sizeFit(from arguments: ParsedArguments) throws(UsageError) -> SizeFit? {
    guard let text = try arguments[size] else {
      if arguments[enlarge] { throw UsageError("\(enlarge) needs \(size) N or \(size) WxH") }
      return nil
    }
    if arguments.given(FitOptions.fit) {
      throw UsageError(
        "\(size) and \(FitOptions.fit) both set the output's size; give one (\(FitOptions.fit) for "
          + "a device screen, \(size) for a box in pixels)")
    }
    do {
      return try SizeFit(parsing: text, enlarge: arguments[enlarge])
    } catch {
      throw UsageError("\(size): \(error.message)")
    }
  }
}
