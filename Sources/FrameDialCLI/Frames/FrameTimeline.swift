import Controls
import FrameDial

/// A timeline walked frame by frame: frame `k` is at time `k / fps` (or at the time a video frame
/// carries), evaluated by a ``TimelinePlayhead``: each event at or before that time applied once, in order,
/// and keyframed slides at that time.
package struct FrameTimeline {
  private var playhead: TimelinePlayhead
  private let fps: Double
  private var state: ControlState

  /// Starts at `state`, before any event of `timeline`.
  package init(_ timeline: Timeline, fps: Double, state: ControlState) {
    playhead = TimelinePlayhead(timeline, base: state)
    self.fps = fps
    self.state = state
  }

  /// The state for frame `frame` (counted from 0) if it changed since the previous call, else `nil`.
  ///
  /// - Throws: `RenderError` naming the event's time and the value that is not allowed.
  mutating func stateChange(atFrame frame: Int) throws -> ControlState? {
    try stateChange(atTime: Timeline.frameTime(frame, fps: fps))
  }

  /// The state for the frame presented at `time` seconds (times never decreasing from call to call)
  /// if it changed since the previous call, else `nil`. For video files, whose frames carry their
  /// own times.
  ///
  /// - Throws: `RenderError` naming the event's time and the value that is not allowed.
  package mutating func stateChange(atTime time: Double) throws -> ControlState? {
    let before = state
    do {
      state = try playhead.state(at: time)
    } catch {
      throw RenderError(Self.sentence(error))
    }
    return state == before ? nil : state
  }

  /// The error as the lower-case clause `RenderError` messages are written in.
  private static func sentence(_ error: TimelineError) -> String {
    guard case .inapplicable(let time, let problem) = error else { return error.description }
    return "the timeline event at \(time) s cannot be applied: \(problem)"
  }
}
