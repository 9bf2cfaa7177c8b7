extension Timeline {
  /// Several recordings grouped to play at once, as AssistiveTouch groups movements recorded separately:
  /// each recording keeps its own start (its events keep their times from that start), and all of them
  /// play together from time 0. Events at the same time play in the order of `recordings`.
  public init(grouping recordings: [Timeline]) throws(TimelineError) {
    try self.init(events: recordings.flatMap(\.events))
  }
}
