import Controls
import FrameDial

/// A timeline walked frame by frame: frame `k` is at time `k / fps` (or at the time a video frame
/// carries), and each event at or before that time is applied to the state once, in order.
struct FrameTimeline {
  private var cursor: TimelineCursor
  private let fps: Double
  private var state: ControlState

  /// Starts at `state`, before any event of `timeline`.
  init(_ timeline: Timeline, fps: Double, state: ControlState) {
    cursor = TimelineCursor(timeline)
    self.fps = fps
    self.state = state
  }

  /// The state for frame `frame` (counted from 0) if events changed it since the previous call, else `nil`.
  ///
  /// - Throws: `RenderError` naming the event's time and the value that is not allowed.
  mutating func stateChange(atFrame frame: Int) throws -> ControlState? {
    try stateChange(atTime: Timeline.frameTime(frame, fps: fps))
  }

  /// The state for the frame presented at `time` seconds (times never decreasing from call to call)
  /// if events changed it since the previous call, else `nil`. For video files, whose frames carry their
  /// own times.
  ///
  /// - Throws: `RenderError` naming the event's time and the value that is not allowed.
  mutating func stateChange(atTime time: Double) throws -> ControlState? {
    let events = cursor.advance(through: time)
    guard !events.isEmpty else { return nil }
    let before = state
    for event in events {
      do {
        state = try state.applying(event.action)
      } catch {
        throw RenderError("the timeline event at \(event.time) s cannot be applied: \(error)")
      }
    }
    return state == before ? nil : state
  }
}
