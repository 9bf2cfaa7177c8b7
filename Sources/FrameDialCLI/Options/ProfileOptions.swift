import FrameDial

/// `--profile`, `--strip` and `--strip-location`, shared by `apply` and `batch`: the colour space written
/// and the metadata carried over.
enum ProfileOptions {
  /// The options, to add to a command's parser.
  static let options: [ArgumentParser.Option] = [
    .value(
      "profile", "keep|srgb|p3|FILE.icc",
      "colour space written: keep (default) leaves Display P3, Adobe RGB… in their own space with the "
        + "controls in its linear light; srgb or p3 converts; FILE.icc converts to that RGB profile"
    ),
    .flag("strip", "drop EXIF, XMP and IPTC (the ICC profile stays)"),
    .flag(
      "strip-location",
      "drop only where the photo was taken: EXIF GPS, XMP GPS/city/state/country/location, "
        + "IPTC city/state/country/location"),
  ]

  /// The profile the options name (``OutputProfile/keep`` without `--profile`).
  ///
  /// - Throws: `UsageError` for a value that is neither a name nor a readable RGB ICC profile.
  static func profile(from arguments: ParsedArguments) throws(UsageError) -> OutputProfile {
    guard let text = arguments.value("profile") else { return .keep }
    do {
      return try OutputProfile(argument: text)
    } catch {
      throw UsageError("--profile: \(error.message)")
    }
  }

  /// The metadata the options keep.
  ///
  /// - Throws: `UsageError` for `--strip` with `--strip-location` (the first already drops the second's).
  static func metadata(from arguments: ParsedArguments) throws(UsageError) -> MetadataChoice {
    switch (arguments.flag("strip"), arguments.flag("strip-location")) {
    case (true, true):
      throw UsageError("--strip already drops the location: give --strip or --strip-location")
    case (true, false): return .strip
    case (false, true): return .stripLocation
    case (false, false): return .keep
    }
  }
}
