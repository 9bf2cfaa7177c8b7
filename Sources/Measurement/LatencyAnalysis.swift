/// Slider-to-frame latency from a log of control changes and a log of rendered frames.
///
/// Definitions (printed with the results):
/// - The latency of a change with generation `g` set at time `t` is the completion time of the first
///   frame that used generation `g` or a newer one, minus `t`. A change superseded before any frame used it
///   is therefore measured to the first frame that shows a value at least as new.
/// - A frame is stale for a change when it completed after the change was set but used an older
///   generation: it read the controls before the change. With one render thread that is the frame in
///   flight when the change arrived, if any.
public struct LatencyAnalysis: Sendable, Equatable {
  /// One control change: its generation and when it was set (seconds on any common clock).
  public struct Change: Sendable, Equatable {
    /// The generation the change produced.
    public var generation: UInt64
    /// When it was set.
    public var setAt: Double
    /// Creates a change record.
    public init(generation: UInt64, setAt: Double) {
      self.generation = generation
      self.setAt = setAt
    }
  }

  /// One rendered frame: the generation it used and when it started and completed.
  public struct Frame: Sendable, Equatable {
    /// The generation the frame rendered.
    public var generation: UInt64
    /// When rendering began (before reading the controls).
    public var startedAt: Double
    /// When the frame was complete.
    public var finishedAt: Double
    /// Creates a frame record.
    public init(generation: UInt64, startedAt: Double, finishedAt: Double) {
      self.generation = generation
      self.startedAt = startedAt
      self.finishedAt = finishedAt
    }
  }

  /// The latency of each change that some frame showed, in seconds, in change order.
  public var latencies: [Double] = []
  /// Changes no frame showed before the log ended.
  public var unresolved = 0
  /// Changes that no frame used exactly (a newer value arrived first).
  public var superseded = 0
  /// For each change, the number of frames that were stale for it.
  public var staleFramesPerChange: [Int] = []
  /// Frames that were stale for at least one change.
  public var staleFrames = 0

  /// Analyses `changes` against `frames` (each in the order they happened).
  public init(changes: [Change], frames: [Frame]) {
    var staleFrameIndices = Set<Int>()
    for change in changes {
      if let shown = frames.first(where: {
        $0.generation >= change.generation && $0.finishedAt >= change.setAt
      }) {
        latencies.append(shown.finishedAt - change.setAt)
      } else {
        unresolved += 1
      }
      if !frames.contains(where: { $0.generation == change.generation }) { superseded += 1 }
      var stale = 0
      for (index, frame) in frames.enumerated()
      where frame.generation < change.generation && frame.finishedAt > change.setAt {
        stale += 1
        staleFrameIndices.insert(index)
      }
      staleFramesPerChange.append(stale)
    }
    staleFrames = staleFrameIndices.count
  }

  /// The definitions above as printable text.
  public static let definitions = """
    latency = completion of the first frame that used the change's generation or a newer one − the time \
    the change was set (LiveControlState snapshot updatedAt); a frame is stale for a change when it \
    completed after the change was set but used an older generation (it read the controls before the \
    change)
    """
}
