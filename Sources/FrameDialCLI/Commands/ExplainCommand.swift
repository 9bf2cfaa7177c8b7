import Controls
import FrameDial

/// `framedial explain`: what the control values compile to, as text or Graphviz DOT.
enum ExplainCommand: Command {
  static let name = "explain"
  static let summary =
    "Print the plan the control values compile to (optimized, or the unoptimized recipe)."
  /// `--dot`.
  static let dot = FlagOption("dot", "print Graphviz DOT instead of text")
  /// `--unoptimized`.
  static let unoptimized = UnoptimizedOption.flag("print the recipe before optimization")
  static let synopsis = Usage(StateOptions.usage)
  static let parser = ArgumentParser(options: [dot, unoptimized] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
      throw UsageError("explain takes no file arguments, only control values")
    }
    let plan = Plan(compiling: try StateOptions.controlState(from: arguments))
    let unoptimized = arguments[Self.unoptimized]
    if arguments[Self.dot] {
      console.outText(unoptimized ? plan.recipe.toDOT() : plan.toDOT())
      return ExitCode.success
    }
    if unoptimized {
      console.out("recipe (unoptimized, every stage over every pixel):")
      console.outText(plan.recipe.description)
    } else {
      console.out("plan (optimized):")
      for (index, step) in plan.steps.enumerated() { console.out("  \(index + 1). \(step)") }
    }
    return ExitCode.success
  }
}
