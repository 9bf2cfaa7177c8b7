import CLibRaw

/// The cameras LibRaw lists (`libraw_cameraList`), to tell a damaged raw from a camera's LibRaw does not
/// know when LibRaw cannot open a file.
enum RawCameraList {
  /// The list's entries, such as "Canon EOS 350D / Digital Rebel XT / Kiss Digital N".
  static let entries: [String] = {
    guard var entry = libraw_cameraList() else { return [] }
    var entries: [String] = []
    while let name = entry.pointee {
      entries.append(String(cString: name))
      entry += 1
    }
    return entries
  }()

  /// The entry naming the camera whose raw says `make` and `model` ("NIKON CORPORATION", "NIKON
  /// D70"), or nil. The list names a camera as its maker's first word and the model, with other
  /// names for it after slashes; a file's maker is matched by that first word, and its model, the
  /// maker's name left out, by one of the names, whole words and case aside, with the words the
  /// makers add to the model left out ("DIGITAL", "FinePix").
  static func entry(make: String, model: String) -> String? {
    let maker = words(make).first ?? ""
    guard !maker.isEmpty else { return nil }
    var modelWords = words(model)
    if modelWords.first == maker { modelWords.removeFirst() }
    let wanted = cleaned(modelWords)
    guard !wanted.isEmpty else { return nil }
    return entries.first { entry in
      let names = entry.split(separator: "/").map { words(String($0)) }
      guard var first = names.first, first.first == maker else { return false }
      first.removeFirst()
      return ([first] + names.dropFirst()).contains { cleaned($0) == wanted }
    }
  }

  /// The words of a name, lower-cased, a parenthesised aside left out.
  private static func words(_ text: String) -> [String] {
    let plain = text.split(separator: "(").first.map(String.init) ?? ""
    return plain.lowercased().split(whereSeparator: { $0 == " " || $0 == "\0" }).map(String.init)
  }

  /// A model's words without the ones makers add to it in their files.
  private static func cleaned(_ words: [String]) -> [String] {
    words.filter { $0 != "digital" && $0 != "finepix" }
  }
}
