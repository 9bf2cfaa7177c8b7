/// What a batch does with one file, decided before anything is written (``BatchRunner/step(for:)``).
public enum BatchStep: Sendable, Equatable {
  /// Nothing to write: the file is finished already (ignored, refused, skipped, planned).
  case finished(BatchEvent)
  /// The file is to be rendered and written (``BatchRunner/write(_:)``).
  case write(BatchWrite)
}

/// A file a batch renders and writes, and why.
public struct BatchWrite: Sendable, Equatable {
  /// The file and its output.
  public var item: BatchItem
  /// True when the output exists and was made with other settings (the event says `redone`).
  public var redoes: Bool
  /// Why an existing output is written again (``BatchEvent/Reason/otherSettings``), or nil.
  public var reason: BatchEvent.Reason?

  /// A write of `item`.
  public init(item: BatchItem, redoes: Bool = false, reason: BatchEvent.Reason? = nil) {
    self.item = item
    self.redoes = redoes
    self.reason = reason
  }
}
