import Controls
import FrameDial

/// `framedial explain`: what the control values compile to, as text or Graphviz DOT.
enum ExplainCommand: Command {
  static let name = "explain"
  static let summary =
    "Print the plan the control values compile to (optimized, or the unoptimized recipe)."
  static let usage = "explain [--state FILE.json]… [--set KEY=VALUE]… [--dot] [--unoptimized]"
  static let parser = ArgumentParser(
    options: [
      .flag("dot", "print Graphviz DOT instead of text"),
      .flag("unoptimized", "print the recipe before optimization"),
    ] + StateOptions.options)

  static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
      throw UsageError("explain takes no file arguments, only control values")
    }
    let plan = Plan(compiling: try StateOptions.state(from: arguments))
    let unoptimized = arguments.flag("unoptimized")
    if arguments.flag("dot") {
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
