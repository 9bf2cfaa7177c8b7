import Foundation
import Synchronization

/// Recognises single, double and long presses from raw press phases, as AssistiveTouch's custom actions
/// do for its button: a press held for `longPressDuration` is a long press; two presses whose gap (from
/// the first one's end to the second one's start) is at most `doublePressInterval` are a double press;
/// any other complete press is a single press, known once `doublePressInterval` has passed without a
/// second. Each kind of press (primary, secondary) is recognised on its own. Time is given by the caller
/// in seconds (a timeline's clock, or the time events arrive), so recognition is deterministic.
public final class PressRecognizer: Sendable {
  /// What a press amounted to.
  public enum Gesture: String, Sendable, Hashable, CaseIterable {
    /// One press.
    case single
    /// Two presses in quick succession.
    case double
    /// A press held down.
    case long
  }

  /// A recognised press: its kind, what it was, and when it was known.
  public struct Recognized: Sendable, Hashable {
    /// Which source sent it.
    public var kind: CaptureEvent.Kind
    /// Single, double or long.
    public var gesture: Gesture
    /// When it was recognised, in seconds.
    public var time: Double

    /// Creates a recognised press.
    public init(kind: CaptureEvent.Kind, gesture: Gesture, time: Double) {
      self.kind = kind
      self.gesture = gesture
      self.time = time
    }
  }

  /// The longest gap between two presses that makes them a double press, in seconds.
  public let doublePressInterval: Double
  /// How long a press must be held to be a long press, in seconds.
  public let longPressDuration: Double

  /// The press in progress and the single press waiting for a possible second, for one kind.
  private struct Track: Sendable {
    var downAt: Double?
    var isSecondOfDouble = false
    var longReported = false
    var singleEndedAt: Double?
  }

  private let tracks = Mutex<[CaptureEvent.Kind: Track]>([:])

  /// Creates a recogniser; the defaults are a double press within 0.3 s and a long press from 0.5 s.
  ///
  /// - Throws: `ControlError.valueOutOfRange` when a duration is not finite and above 0.
  public init(doublePressInterval: Double = 0.3, longPressDuration: Double = 0.5)
    throws(ControlError)
  {
    for (name, value) in [
      ("double-press interval", doublePressInterval), ("long-press duration", longPressDuration),
    ] where !(value.isFinite && value > 0) {
      throw .valueOutOfRange(control: name, value: value, allowed: "a number of seconds above 0")
    }
    self.doublePressInterval = doublePressInterval
    self.longPressDuration = longPressDuration
  }

  /// Takes a raw press phase at `time` and returns the presses it completes (after those that time alone
  /// completes, see `advance(to:)`).
  public func receive(_ event: CaptureEvent, at time: Double) -> [Recognized] {
    var recognized = advance(to: time)
    tracks.withLock { tracks in
      var track = tracks[event.kind] ?? Track()
      switch event.phase {
      case .began:
        track.isSecondOfDouble = track.singleEndedAt != nil
        track.singleEndedAt = nil
        track.downAt = time
        track.longReported = false
      case .ended:
        guard let downAt = track.downAt else { break }
        track.downAt = nil
        // A press held long enough was reported as long by `advance(to:)` above.
        if track.longReported || time - downAt >= longPressDuration {
          break
        } else if track.isSecondOfDouble {
          recognized.append(Recognized(kind: event.kind, gesture: .double, time: time))
        } else {
          track.singleEndedAt = time
        }
        track.isSecondOfDouble = false
      case .cancelled:
        track = Track()
      }
      tracks[event.kind] = track
    }
    return recognized
  }

  /// The presses that the passing of time completes by `time`: a single press once no second press can
  /// follow, a long press once it has been held long enough.
  public func advance(to time: Double) -> [Recognized] {
    tracks.withLock { tracks in
      var recognized: [Recognized] = []
      for kind in CaptureEvent.Kind.allCases {
        guard var track = tracks[kind] else { continue }
        if let ended = track.singleEndedAt, time - ended > doublePressInterval {
          recognized.append(
            Recognized(kind: kind, gesture: .single, time: ended + doublePressInterval))
          track.singleEndedAt = nil
        }
        if let downAt = track.downAt, !track.longReported, time - downAt >= longPressDuration {
          recognized.append(
            Recognized(kind: kind, gesture: .long, time: downAt + longPressDuration))
          track.longReported = true
        }
        tracks[kind] = track
      }
      return recognized.sorted { $0.time < $1.time }
    }
  }
}
