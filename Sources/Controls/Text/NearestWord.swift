/// "Did you mean …?": the known word closest to a mistyped one, by edit distance (insertions, deletions,
/// substitutions and swaps of neighbours), ignoring case, hyphens and spaces (`iphone16pro` →
/// `iphone-16-pro`, `aply` → `apply`, `tungstn` → `tungsten`).
public enum NearestWord {
  /// The candidate nearest to `word`, or nil when none is close: within a third of the candidate's
  /// length (at least 1, at most 3 edits), and never `word` itself.
  public static func suggestion(for word: String, among candidates: [String]) -> String? {
    suggestion(for: word, among: candidates, distance: editDistance)
  }

  /// ``suggestion(for:among:)`` measuring with `distance`, which is called only for candidates whose
  /// length is within the allowed number of edits of the word's (an edit distance is never smaller than
  /// the difference in length), so a long word costs one pass over it, never a table of its length.
  static func suggestion(
    for word: String, among candidates: [String],
    distance: ([Character], [Character]) -> Int
  ) -> String? {
    let typed = normalized(word)
    guard !typed.isEmpty else { return nil }
    var best: (candidate: String, distance: Int)?
    for candidate in candidates where candidate != word {
      let known = normalized(candidate)
      let allowed = min(3, max(1, known.count / 3))
      guard abs(typed.count - known.count) <= allowed else { continue }
      let measured = distance(typed, known)
      guard measured <= allowed else { continue }
      if best == nil || measured < best?.distance ?? .max { best = (candidate, measured) }
    }
    return best?.candidate
  }

  /// The sentence for a suggestion, ready to append to a message: ` Did you mean "apply"?`, or "".
  public static func didYouMean(_ word: String, among candidates: [String], quote: String = "\"")
    -> String
  {
    suggestion(for: word, among: candidates).map { " Did you mean \(quote)\($0)\(quote)?" } ?? ""
  }

  /// The message for a name no list knows, in the one style FrameDial's lookups share: `unknown device
  /// 'pixel'; did you mean 'iphone-16-pro'? the catalog (framedial devices) has: …`.
  /// `known` says what is allowed and `candidates` are the names a suggestion is chosen from.
  public static func unknown(
    _ what: String, _ name: String, among candidates: [String], known: String
  )
    -> String
  {
    "unknown \(what) '\(name)';"
      + (suggestion(for: name, among: candidates).map { " did you mean '\($0)'?" } ?? "")
      + " \(known)"
  }

  private static func normalized(_ word: String) -> [Character] {
    Array(word.lowercased().filter { $0 != "-" && $0 != " " && $0 != "_" })
  }

  /// Optimal-string-alignment distance between `a` and `b`.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, table[i - 2][j - 2] + 1)
        }
        table[i][j] = value
      }
    }
    return table[a.count][b.count]
  }
}
