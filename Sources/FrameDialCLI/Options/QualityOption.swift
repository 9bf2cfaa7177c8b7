import FrameDial

/// `--quality Q` (`-q`), shared by `apply` and `batch`: its help states the defaults.
enum QualityOption {
  /// The option, a whole number in ``StillOptionKey/qualities``.
  static let option: ValueOption<Int> = {
    let (name, range) = (StillOptionKey.quality.commandLineName, StillOptionKey.qualities)
    return .wholeNumber(
      name, short: "q", "Q",
      "quality \(range.lowerBound) … \(range.upperBound) for JPEG, WebP, HEIC, AVIF, TIFF "
        + "(\(QualityChoice.defaultsSummary); with --\(name), JPEG chroma is 4:2:0 below 90, "
        + "4:4:4 from 90)",
      in: range)
  }()
}
