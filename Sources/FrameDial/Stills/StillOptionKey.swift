import Vips

/// The options of writing one still, declared once for the command line of `framedial apply` and
/// `batch` (`--pixel-limit`) and the C API's options JSON of `framedial_apply` (`"pixelLimit"`), which
/// Python's keyword arguments of `framedial.apply` (`pixel_limit`) are passed on as. Each case is one
/// option: its spellings come from its name, and the values it takes (the names of a list, a range of
/// whole numbers) are listed here for both.
package enum StillOptionKey: String, CaseIterable, Sendable {
  case quality, format, fit, fitMode, size, enlarge, pixelLimit, background, profile, strip
  case stripLocation, effort, failOn, hdrPhoto
  /// Whether an existing output is replaced: a choice about the output file (the command line's
  /// `--overwrite`), not part of ``StillOptions``.
  case overwrite

  /// The options ``StillOptions`` holds, in the order messages list them: every key but ``overwrite``.
  package static let rendering = allCases.filter { $0 != .overwrite }

  /// The C API's JSON key: `pixelLimit`.
  package var jsonKey: String { rawValue }

  /// The command line's option name: `pixel-limit`.
  package var commandLineName: String { words.joined(separator: "-") }

  /// The lower-case words of the name: `pixelLimit` is `pixel`, `limit`.
  private var words: [String] {
    var words: [String] = []
    for letter in rawValue {
      if letter.isUppercase || words.isEmpty { words.append("") }
      words[words.count - 1].append(contentsOf: letter.lowercased())
    }
    return words
  }

  /// The names the option's value is one of, in the order messages list them (`format`, `fitMode`,
  /// `effort`, `failOn`, `hdrPhoto`: each read in any letter case); empty for the other options.
  package var choices: [String] {
    switch self {
    case .format: ImageFormat.allCases.map(\.rawValue)
    case .fitMode: ScreenFit.Mode.allCases.map(\.rawValue)
    case .effort: EncodingEffort.allCases.map(\.rawValue)
    case .failOn: LoadOptions.FailOn.allCases.map(\.rawValue)
    case .hdrPhoto: HDRPhotoChoice.allCases.map(\.rawValue)
    default: []
    }
  }

  /// The qualities `quality` takes.
  package static let qualities = 1...100
  /// The pixel limits `pixelLimit` takes.
  package static let pixelLimits = 1...Int.max

  /// The format `name` names: a format's name (``ImageFormat``) or a file extension (`jpg`, `tif`), in
  /// any letter case; nil for anything else.
  package static func format(named name: String) -> ImageFormat? {
    ImageFormat(rawValue: name.lowercased()) ?? ImageFormat(fileExtension: name)
  }
}
