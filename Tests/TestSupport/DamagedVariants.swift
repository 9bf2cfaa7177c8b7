import Foundation

/// Damaged copies of a file's bytes, the same on every run: seeded bit flips inside a byte range (the
/// picture data), the file cut at several points, and zeroed blocks. Each format's damage tests make
/// their variants here, ask their format's strict reference decoder which ones are damaged, and check
/// FrameDial's verdict on those with ``DamageVerdict``.
package struct DamagedVariants {
  /// One damaged copy.
  package struct Variant {
    /// A file name for the copy: `stem-kind-N.ext`.
    package var name: String
    /// The damaged bytes.
    package var bytes: Data
    /// What was done, for messages ("3 bytes flipped at 41230").
    package var damage: String

    package init(name: String, bytes: Data, damage: String) {
      self.name = name
      self.bytes = bytes
      self.damage = damage
    }
  }

  /// A seeded generator (a 64-bit linear congruential step, the high bits used).
  package struct Seeded: RandomNumberGenerator {
    package var state: UInt64

    package init(state: UInt64) { self.state = state }

    package mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state
    }
  }

  /// The intact file.
  package var bytes: Data
  /// The byte range that holds the picture data (where flips and zeroed blocks land).
  package var picture: Range<Int>
  /// The stem and extension of the variants' names.
  package var stem: String
  package var ext: String

  package init(bytes: Data, picture: Range<Int>, stem: String, ext: String) {
    self.bytes = bytes
    self.picture = picture
    self.stem = stem
    self.ext = ext
  }

  /// `count` copies, each with 1 … `maximumBytes` bytes XORed with a non-zero value at a seeded offset
  /// inside ``picture``.
  package func flipped(count: Int, maximumBytes: Int = 4, seed: UInt64) -> [Variant] {
    var random = Seeded(state: seed)
    return (0..<count).map { index in
      var copy = [UInt8](bytes)
      let length = Int.random(in: 1...maximumBytes, using: &random)
      let offset = Int.random(
        in: picture.lowerBound...max(picture.lowerBound, picture.upperBound - length),
        using: &random)
      for position in offset..<min(offset + length, copy.count) {
        copy[position] ^= UInt8.random(in: 1...255, using: &random)
      }
      return Variant(
        name: "\(stem)-flip-\(index).\(ext)", bytes: Data(copy),
        damage: "\(length) bytes flipped at \(offset)")
    }
  }

  /// Copies cut at each of `fractions` of the way through ``picture`` (0 cuts where the picture data
  /// starts, 1 where it ends).
  package func cut(at fractions: [Double]) -> [Variant] {
    fractions.enumerated().map { index, fraction in
      let length = picture.lowerBound + Int(Double(picture.count) * fraction)
      return Variant(
        name: "\(stem)-cut-\(index).\(ext)", bytes: bytes.prefix(length),
        damage: "cut at byte \(length) of \(bytes.count)")
    }
  }

  /// `count` copies, each with a block of `blockSize` bytes set to zero at a seeded offset inside
  /// ``picture``.
  package func zeroed(count: Int, blockSize: Int, seed: UInt64) -> [Variant] {
    var random = Seeded(state: seed)
    return (0..<count).map { index in
      var copy = [UInt8](bytes)
      let length = min(blockSize, picture.count)
      let offset = Int.random(
        in: picture.lowerBound...(picture.upperBound - length), using: &random)
      for position in offset..<(offset + length) { copy[position] = 0 }
      return Variant(
        name: "\(stem)-zero-\(index).\(ext)", bytes: Data(copy),
        damage: "\(length) bytes zeroed at \(offset)")
    }
  }
}

/// What the command line does with a damaged file: `apply` at 1 and 8 libvips threads exits 1 with one
/// line naming the file and leaves nothing under the output name, and `batch` reports the file `failed`
/// and writes nothing for it.
package enum DamageVerdict {
  /// Runs `framedial arguments…` with `VIPS_CONCURRENCY=threads`.
  package static func run(threads: Int, _ arguments: [String]) throws -> CLIRunner.Result {
    try CLIRunner.run(
      ["VIPS_CONCURRENCY=\(threads)", CLIRunner.binary.path] + arguments,
      executable: URL(fileURLWithPath: "/usr/bin/env"))
  }

  /// The problems found with `apply` on the damaged file at `path` (writing `.ext` into `scratch`) at 1
  /// and 8 threads, with `extra` arguments; empty when every run refused it as it should (and, when
  /// `saying` is given, with a line that contains it).
  package static func applyProblems(
    _ path: String, ext: String, scratch: URL, extra: [String] = [], saying: String? = nil
  ) throws -> [String] {
    var problems: [String] = []
    let name = URL(fileURLWithPath: path).lastPathComponent
    for threads in [1, 8] {
      let output = scratch.appendingPathComponent("out-\(threads)-\(name).\(ext)")
      let result = try run(threads: threads, ["apply", path, "-o", output.path] + extra)
      let lines = result.standardError.split(separator: "\n", omittingEmptySubsequences: true)
      if result.status != 1 {
        problems.append("\(name) at \(threads) threads: exit \(result.status)")
      }
      if lines.count != 1 || !(lines.first?.contains(path) ?? false) {
        problems.append(
          "\(name) at \(threads) threads: not one line naming the file: \(result.standardError)")
      }
      if let saying, !result.standardError.contains(saying) {
        problems.append(
          "\(name) at \(threads) threads: the line does not say \"\(saying)\": \(result.standardError)"
        )
      }
      if FileManager.default.fileExists(atPath: output.path) {
        problems.append("\(name) at \(threads) threads: an output was left")
        try? FileManager.default.removeItem(at: output)
      }
    }
    return problems
  }

  /// Each file's status in a `batch` of the folder `input` into a new folder under `scratch` (with
  /// `extra` arguments), and the names of the images the batch wrote (not its hidden records).
  package static func batch(_ input: URL, scratch: URL, extra: [String] = []) throws
    -> (statuses: [String: String], written: [String])
  {
    let output = scratch.appendingPathComponent("batch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    let result = try CLIRunner.run(["batch", input.path, "-o", output.path, "--json"] + extra)
    let written = ((try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? [])
      .filter { !$0.hasPrefix(".") }
    return (statuses(result.standardOutput), written)
  }

  /// Each file's status ("done", "failed", …) by file name, from the events `batch --json` printed.
  package static func statuses(_ events: String) -> [String: String] {
    var statuses: [String: String] = [:]
    for line in events.split(separator: "\n") {
      guard
        let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        event["event"] as? String == "file", let path = event["path"] as? String
      else { continue }
      statuses[URL(fileURLWithPath: path).lastPathComponent] = event["status"] as? String
    }
    return statuses
  }
}
