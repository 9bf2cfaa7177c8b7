import Foundation
import TestSupport
import Testing

/// `--fail-on`'s levels on JPEGs whose damage libjpeg reports in each of its ways: a stream that ends
/// early (refused from `truncated` on), a bad Huffman code it conceals (refused at `warning`, the
/// default), and a damaged stream that decodes into a wrong picture and leaves bytes before the end
/// marker, which libjpeg notices only after the last row (refused at `warning`, whether libvips or
/// FrameDial's own scaled decoder read the picture).
@Suite struct FailOnLevelTests {
  /// rocket.jpg with `count` seeded bytes inserted into its entropy-coded data, for `seed` = 0, 1, …
  /// until libjpeg-turbo's `djpeg -strict` gives a message containing `warning` (at most 200 tries),
  /// written into `root` as `label.jpg`.
  static func jpeg(whose warning: String, label: String, root: URL) throws -> URL {
    let source = try StillDamageTests.jpeg()
    let bytes = [UInt8](source.bytes)
    for seed in UInt64(0)..<200 {
      var random = DamagedVariants.Seeded(state: seed &+ 0x1F5E_ED00)
      let count = Int.random(in: 2...40, using: &random)
      let offset = Int.random(
        in: (source.picture.upperBound - 3000)..<(source.picture.upperBound - 10), using: &random)
      let inserted = (0..<count).map { _ in UInt8.random(in: 0...254, using: &random) }
      let file = root.appendingPathComponent("\(label).jpg")
      try Data(bytes[..<offset] + inserted + bytes[offset...]).write(to: file)
      let result = try CLIRunner.run(
        ["djpeg", "-strict", "-outfile", "/dev/null", file.path],
        executable: URL(fileURLWithPath: "/usr/bin/env"))
      if result.status != 0, result.standardError.contains(warning) { return file }
      try FileManager.default.removeItem(at: file)
    }
    throw CLIError("no seeded insertion gave libjpeg's \"\(warning)\"")
  }

  struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// The exit status of `apply input -o root/out.jpg` with `extra` arguments, and whether it wrote.
  static func apply(_ input: URL, root: URL, _ extra: [String]) throws -> (Int32, Bool, String) {
    let output = root.appendingPathComponent("out.jpg")
    try? FileManager.default.removeItem(at: output)
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path] + extra)
    return (
      result.status, FileManager.default.fileExists(atPath: output.path), result.standardError
    )
  }

  @Test func eachLevelRefusesWhatItNamesAndLetsTheRestThrough() throws {
    let root = try CLIRunner.scratchFolder("fail-on")
    defer { try? FileManager.default.removeItem(at: root) }
    let extraneous = try Self.jpeg(
      whose: "extraneous bytes before marker", label: "extraneous", root: root)
    let huffman = try Self.jpeg(whose: "bad Huffman code", label: "huffman", root: root)
    let source = try StillDamageTests.jpeg()
    let cut = root.appendingPathComponent("cut.jpg")
    try source.bytes.prefix(source.picture.lowerBound + source.picture.count / 2).write(to: cut)
    // Refused (true) or written (false), at none, truncated, error, warning and with no option.
    let expected: [(URL, [Bool])] = [
      (cut, [false, true, true, true, true]),
      (huffman, [false, false, false, true, true]),
      (extraneous, [false, false, false, true, true]),
    ]
    for (file, refusals) in expected {
      for (level, refused) in zip(["none", "truncated", "error", "warning", nil], refusals) {
        let levelArguments = level.map { ["--fail-on", $0] } ?? []
        // Full size (libvips decodes), and --size 200 (FrameDial's scaled decoder decodes).
        for size in [[], ["--size", "200"]] {
          let (status, wrote, message) = try Self.apply(file, root: root, levelArguments + size)
          let name = "\(file.lastPathComponent) at \(level ?? "the default") \(size)"
          #expect(status == (refused ? 1 : 0), "\(name): \(message)")
          #expect(wrote == !refused, "\(name)")
          if refused {
            #expect(
              message.hasPrefix("framedial apply: \(file.path): cannot decode the image: "),
              "\(name): \(message)")
          }
        }
      }
    }
  }

  @Test func anUnknownLevelIsAUsageErrorNamingTheNearestLevel() throws {
    let result = try CLIRunner.run(
      ["apply", CLIRunner.sample("rocket.jpg"), "-o", "/tmp/unused.jpg", "--fail-on", "warnings"])
    #expect(result.status == 2)
    #expect(
      result.standardError.hasPrefix(
        "framedial apply: --fail-on: unknown level 'warnings'; did you mean 'warning'? levels: "
          + "none, truncated, error, warning"), "\(result.standardError)")
  }

  @Test func aBatchTakesTheLevelForEveryFile() throws {
    let root = try CLIRunner.scratchFolder("fail-on-batch")
    defer { try? FileManager.default.removeItem(at: root) }
    let input = root.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    _ = try Self.jpeg(whose: "bad Huffman code", label: "huffman", root: input)
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"),
      toPath: input.appendingPathComponent("intact.jpg").path)
    let strict = try DamageVerdict.batch(input, scratch: root)
    #expect(strict.statuses == ["huffman.jpg": "failed", "intact.jpg": "done"])
    let lenient = try DamageVerdict.batch(input, scratch: root, extra: ["--fail-on", "error"])
    #expect(lenient.statuses == ["huffman.jpg": "done", "intact.jpg": "done"])
    #expect(Set(lenient.written) == ["huffman.jpg", "intact.jpg"])
  }
}

extension FailOnLevelTests {
  /// coffee.heic with 64 bytes in the middle of its coded picture set to zero: bytes no NAL unit may
  /// hold, so FrameDial's decoder refuses the picture, and FFmpeg's conceals it when asked to.
  static func zeroedHEIC(in root: URL) throws -> URL {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: CLIRunner.sample("coffee.heic"))))
    guard let mdat = Data(bytes).range(of: Data("mdat".utf8)) else {
      throw CLIError("no mdat box in coffee.heic")
    }
    let size = bytes[(mdat.lowerBound - 4)..<mdat.lowerBound].reduce(0) { $0 << 8 | Int($1) }
    let middle = mdat.upperBound + (size - 8) / 2
    for index in middle..<(middle + 64) { bytes[index] = 0 }
    let file = root.appendingPathComponent("zeroed.heic")
    try Data(bytes).write(to: file)
    return file
  }

  @Test func aDamagedHEICIsRefusedUnlessNoneAsksForWhatCanBeDecoded() throws {
    let root = try CLIRunner.scratchFolder("fail-on-heic")
    defer { try? FileManager.default.removeItem(at: root) }
    let file = try Self.zeroedHEIC(in: root)
    for level in [nil, "warning", "error", "truncated"] {
      let (status, wrote, message) = try Self.apply(
        file, root: root, level.map { ["--fail-on", $0] } ?? [])
      #expect(status == 1 && !wrote, "\(level ?? "the default"): \(message)")
      #expect(
        message.hasPrefix("framedial apply: \(file.path): cannot decode the image: damaged HEIF: "),
        "\(message)")
    }
    let (status, wrote, message) = try Self.apply(file, root: root, ["--fail-on", "none"])
    #expect(status == 0 && wrote, "\(message)")
  }
}
