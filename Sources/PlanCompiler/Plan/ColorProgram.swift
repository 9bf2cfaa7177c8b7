/// What the renderer does to colours: nothing, one table per channel, or table → matrix → table.
public enum ColorProgram: Sendable {
  /// No colour stage: pixels pass through untouched, bit for bit.
  case identity
  /// No channel mixing: every stage folded into one lookup table per channel.
  case perChannel(PerChannelTables)
  /// Channel mixing: decode-and-gain tables, one 3×3 matrix, then linear-to-code tables.
  case mixing(MixingTables)
}
