import Controls
import Foundation

/// `--timeline FILE.jsonl`: control events in time, for `frames` and `video`; each says how its frames
/// meet the events.
package enum TimelineOption {
  /// The option of a command whose frames take the events as `help` says, read as the timeline the
  /// file holds.
  package static func option(_ help: String) -> ValueOption<Timeline> {
    ValueOption("timeline", "FILE.jsonl", help) { path, option throws(UsageError) in
      do {
        return try Timeline(contentsOf: URL(fileURLWithPath: path))
      } catch {
        throw UsageError("\(option) \(path): \(error)")
      }
    }
  }
}
