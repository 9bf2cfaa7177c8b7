/// Places labels along a scale in lanes (columns beside a vertical scale, rows under a horizontal one):
/// each label goes into the first lane where it keeps `gap` from the label placed before it.
enum LabelLanes {
  /// The lane of each span (in order along the scale, each given by its extent along the scale), or nil
  /// for one that fits in none of the `lanes` lanes.
  static func assign(spans: [ClosedRange<Int>], gap: Int, lanes: Int = 2) -> [Int?] {
    var ends = [Int](repeating: Int.min / 2, count: lanes)
    return spans.map { span in
      guard let lane = ends.indices.first(where: { span.lowerBound >= ends[$0] + gap }) else {
        return nil
      }
      ends[lane] = span.upperBound
      return lane
    }
  }
}
