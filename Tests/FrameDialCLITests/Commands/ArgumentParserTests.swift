import Testing

@testable import FrameDialCLI

@Suite struct ArgumentParserTests {
  static let output = ValueOption<String>("output", short: "o", "DIR", "output folder")
  static let set = ValueOption<String>("set", "KEY=VALUE", "a control value", repeatable: true)
  static let quality = ValueOption.wholeNumber("quality", short: "q", "Q", "quality", in: 1...100)
  static let json = FlagOption("json", short: "j", "JSON lines")
  static let dryRun = FlagOption("dry-run", short: "n", "write nothing")
  let parser = ArgumentParser(options: [output, set, quality, json, dryRun])

  @Test func longOptionsWithSpaceOrEquals() throws {
    let parsed = try parser.parse(["--output", "out", "--quality=85", "in1", "in2"])
    #expect(try parsed[Self.output] == "out")
    #expect(try parsed[Self.quality] == 85)
    #expect(parsed.positionals == ["in1", "in2"])
  }

  @Test func shortOptionsAndBundledFlags() throws {
    let parsed = try parser.parse(["-jn", "-o", "out", "-q90", "x"])
    #expect(parsed[Self.json] && parsed[Self.dryRun])
    #expect(try parsed[Self.output] == "out")
    #expect(try parsed[Self.quality] == 90)
    #expect(parsed.positionals == ["x"])
  }

  @Test func repeatableOptionsAccumulateInOrder() throws {
    let parsed = try parser.parse(["--set", "ev=1", "--set=zoom=2"])
    #expect(try parsed.all(Self.set) == ["ev=1", "zoom=2"])
    #expect(try parsed[Self.set] == "zoom=2")
  }

  @Test func doubleDashEndsOptions() throws {
    let parsed = try parser.parse(["--json", "--", "--output", "-"])
    #expect(parsed[Self.json])
    #expect(parsed.positionals == ["--output", "-"])
    #expect(try parsed[Self.output] == nil)
    #expect(!parsed.given(Self.output) && parsed.given(Self.json) && !parsed.given(Self.dryRun))
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

  @Test func integersAreRangeCheckedWhenRead() throws {
    let parsed = try parser.parse(["--quality", "101"])
    #expect(parsed.text(Self.quality) == "101")
    #expect(throws: UsageError("--quality must be a whole number 1 … 100, not '101'")) {
      try parsed[Self.quality]
    }
    #expect(throws: UsageError("--quality must be a whole number 1 … 100, not 'high'")) {
      try parser.parse(["-q", "high"])[Self.quality]
    }
    #expect(try parser.parse(["-q", "7"])[Self.quality] == 7)
  }

  /// A name not in an option's list gets the nearest one when one is close, and no guess otherwise.
  @Test func aMistypedChoiceGetsTheNearestName() {
    let efforts = ["fast", "balanced", "small"]
    #expect(
      ChoiceMessage.oneOf.text("fsat", option: "--effort", names: efforts)
        == "--effort must be one of fast, balanced, small, not 'fsat'; did you mean 'fast'?")
    #expect(
      ChoiceMessage.either.text("hecv", option: "--codec", names: ["h264", "hevc"])
        == "--codec must be h264 or hevc, not 'hecv'; did you mean 'hevc'?")
    #expect(
      ChoiceMessage.list.text("PQ", option: "--transfer", names: ["bt709", "hlg", "pq"])
        == "--transfer must be bt709, hlg, pq, not 'PQ'; did you mean 'pq'?")
    #expect(
      ChoiceMessage.oneOf.text("slowest", option: "--effort", names: efforts)
        == "--effort must be one of fast, balanced, small, not 'slowest'")
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
