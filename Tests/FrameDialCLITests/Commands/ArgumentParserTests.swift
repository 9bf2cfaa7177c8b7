import Testing

@testable import FrameDialCLI

@Suite struct ArgumentParserTests {
  let parser = ArgumentParser(options: [
    .value("output", short: "o", "DIR", "output folder"),
    .value("set", "KEY=VALUE", "a control value", repeatable: true),
    .value("quality", short: "q", "Q", "quality"),
    .flag("json", short: "j", "JSON lines"),
    .flag("dry-run", short: "n", "write nothing"),
  ])

  @Test func longOptionsWithSpaceOrEquals() throws {
    let parsed = try parser.parse(["--output", "out", "--quality=85", "in1", "in2"])
    #expect(parsed.value("output") == "out")
    #expect(parsed.value("quality") == "85")
    #expect(parsed.positionals == ["in1", "in2"])
  }

  @Test func shortOptionsAndBundledFlags() throws {
    let parsed = try parser.parse(["-jn", "-o", "out", "-q90", "x"])
    #expect(parsed.flag("json") && parsed.flag("dry-run"))
    #expect(parsed.value("output") == "out")
    #expect(parsed.value("quality") == "90")
    #expect(parsed.positionals == ["x"])
  }

  @Test func repeatableOptionsAccumulateInOrder() throws {
    let parsed = try parser.parse(["--set", "ev=1", "--set=zoom=2"])
    #expect(parsed.values["set"] == ["ev=1", "zoom=2"])
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try parser.parse(["--json", "--", "--output", "-"])
    #expect(parsed.flag("json"))
    #expect(parsed.positionals == ["--output", "-"])
    #expect(parsed.value("output") == nil)
  }

  @Test func helpIsAlwaysAccepted() throws {
    #expect(try parser.parse(["--help"]).helpRequested)
    #expect(try parser.parse(["-h"]).helpRequested)
    #expect(parser.optionsHelp.contains("-o, --output DIR"))
  }

  @Test func mistakesAreUsageErrors() {
    #expect(throws: UsageError("unknown option --colour")) { try parser.parse(["--colour"]) }
    #expect(throws: UsageError("unknown option -x")) { try parser.parse(["-x"]) }
    #expect(throws: UsageError("option --output needs a value")) { try parser.parse(["--output"]) }
    #expect(throws: UsageError("option --json takes no value")) { try parser.parse(["--json=yes"]) }
    #expect(throws: UsageError("option -q is given more than once")) {
      try parser.parse(["-q", "1", "-q", "2"])
    }
  }

  @Test func integersAreRangeChecked() throws {
    let parsed = try parser.parse(["--quality", "101"])
    #expect(throws: UsageError("--quality must be a whole number 1 … 100, not '101'")) {
      try parsed.int("quality", in: 1...100)
    }
    #expect(try parser.parse(["-q", "7"]).int("quality", in: 1...100) == 7)
  }

  @Test func oneFileCommandsNameWhatIsMissing() throws {
    let parsed = try parser.parse(["in.jpg", "-o", "out.png"])
    let pair = try parsed.singleInputAndOutput(command: "apply", outputHint: "OUT")
    #expect(pair.input == "in.jpg" && pair.output == "out.png")
    #expect(throws: UsageError("no input file given")) {
      try parser.parse(["-o", "x"]).singleInputAndOutput(command: "apply", outputHint: "OUT")
    }
    #expect(throws: UsageError("sweep takes one input file")) {
      try parser.parse(["a", "b", "-o", "x"]).singleInputAndOutput(
        command: "sweep", outputHint: "OUT.png")
    }
    #expect(throws: UsageError("no output given (-o OUT.png)")) {
      try parser.parse(["a"]).singleInputAndOutput(command: "sweep", outputHint: "OUT.png")
    }
  }
}
