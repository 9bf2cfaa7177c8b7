/// What the renderer does to colours: nothing, one table per channel, or table → matrix → table.
public enum ColourProgram: Sendable {
  /// No colour stage: pixels pass through untouched, bit for bit.
  case identity
  /// No channel mixing: every stage folded into one lookup table per channel.
  case perChannel(PerChannelTables)
  /// Channel mixing: decode-and-gain tables, one 3×3 matrix, then linear-to-code tables.
  case mixing(MixingTables)
}

/// The former spelling of ``ColourProgram``.
@available(*, deprecated, renamed: "ColourProgram")
public typealias ColorProgram = ColourProgram
