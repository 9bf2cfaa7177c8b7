import FrameDial

/// `--profile`, `--strip` and `--strip-location`, shared by `apply` and `batch`: the colour space written
/// and the metadata carried over.
enum ProfileOptions {
  /// `--profile`: the colour space written.
  static let profile = ValueOption<OutputProfile>(
    StillOptionKey.profile.commandLineName, "keep|srgb|p3|FILE.icc", usage: "P",
    "colour space written: keep (default) leaves Display P3, Adobe RGB… in their own space with the "
      + "controls in its linear light; srgb or p3 converts; FILE.icc converts to that RGB profile",
    read: profile(parsing:option:))

  /// `--strip`: no EXIF, XMP or IPTC.
  static let strip = FlagOption(
    StillOptionKey.strip.commandLineName, "drop EXIF, XMP and IPTC (the ICC profile stays)")

  /// `--strip-location`: no place the photo was taken.
  static let stripLocation = FlagOption(
    StillOptionKey.stripLocation.commandLineName,
    "drop only where the photo was taken: EXIF GPS, XMP GPS/city/state/country/location, "
      + "IPTC city/state/country/location")

  /// The options, to add to a command's parser.
  static let options: [any CommandOption] = [profile, strip, stripLocation]

  /// The options as usage lines show them: `--strip` and `--strip-location` are not given together.
  static let usage: [UsageTerm] = [
    .optional(profile), .atMostOneOf([.option(strip)], [.option(stripLocation)]),
  ]

  /// The profile `text`, given to `option`, names.
  ///
  /// - Throws: `UsageError` for a value that is neither a name nor a readable RGB ICC profile.
  static func profile(parsing text: String, option: String) throws(UsageError) -> OutputProfile {
    do {
      return try OutputProfile(argument: text)
    } catch {
      throw UsageError("\(option): \(error.message)")
    }
  }

  /// The metadata the options keep.
  ///
  /// - Throws: `UsageError` for `--strip` with `--strip-location` (the first already drops the second's).
  static func metadata(from arguments: ParsedArguments) throws(UsageError) -> MetadataChoice {
    switch (arguments[strip], arguments[stripLocation]) {
    case (true, true):
      throw UsageError("\(strip) already drops the location: give \(strip) or \(stripLocation)")
    case (true, false): return .strip
    case (false, true): return .stripLocation
    case (false, false): return .keep
    }
  }
}
