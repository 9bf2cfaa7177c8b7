/// `--unoptimized`: the control values' unoptimized recipe instead of the optimized plan, for
/// comparisons (`apply` renders through it, `explain` prints it).
enum UnoptimizedOption {
  /// The flag of a command that says with `help` what it does unoptimized.
  static func flag(_ help: String) -> FlagOption {
    FlagOption("unoptimized", help)
  }
}
