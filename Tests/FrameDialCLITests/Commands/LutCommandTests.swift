import Controls
import Foundation
import FrameDial
import TestSupport
import Testing
import Vips

/// `framedial lut`: `.cube` and Hald CLUT files that ffmpeg loads and applies within the error a perfect
/// LUT of the same size has.
@Suite struct LutCommandTests {
  /// The typical look of the issue: EV +0.5, tungsten, saturation 1.3, contrast 1.2.
  static let look = [
    "--set", "ev=0.5", "--set", "wb=tungsten", "--set", "saturation=1.3", "--set", "contrast=1.2",
  ]

  /// Every 8-bit grey level and every level of each primary, then `randomCount` colours from a fixed
  /// seed, as packed RGB rows 256 pixels wide.
  static func testColours(randomCount: Int) -> [SIMD3<UInt8>] {
    var colours: [SIMD3<UInt8>] = []
    for level in 0...255 {
      let v = UInt8(level)
      colours += [SIMD3(v, v, v), SIMD3(v, 0, 0), SIMD3(0, v, 0), SIMD3(0, 0, v)]
    }
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    for _ in 0..<randomCount {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      colours.append(SIMD3(UInt8(seed & 255), UInt8((seed >> 8) & 255), UInt8((seed >> 16) & 255)))
    }
    while colours.count % 256 != 0 { colours.append(SIMD3(0, 0, 0)) }
    return colours
  }

  /// The sorted absolute differences, in 8-bit code values, between ffmpeg's `filter` applied to the
  /// test colours and the colour math evaluated exactly for `state`.
  func errors(filter: String, extraInputs: [String] = [], state: ControlState, folder: URL) throws
    -> [Int]
  {
    let colours = Self.testColours(randomCount: 65_000)
    let input = folder.appendingPathComponent("colours.png")
    let bytes = colours.flatMap { [$0.x, $0.y, $0.z] }
    try Image.fromPixels(bytes, width: 256, height: colours.count / 256, bands: 3)
      .write(to: input.path)
    let output = folder.appendingPathComponent("applied.png")
    let arguments =
      ["-i", input.path] + extraInputs + [
        filter.hasPrefix("[") ? "-filter_complex" : "-vf", filter,
      ]
      + ["-pix_fmt", "rgb24", "-frames:v", "1"]
    try VideoClips.make(output, arguments)
    let applied = try Image(contentsOf: output.path).pixelBytes()
    #expect(applied.count == bytes.count)
    let recipe = Recipe(stages: Recipe(compiling: state).colorStages)
    var differences: [Int] = []
    for (index, colour) in colours.enumerated() {
      let exact = recipe.evaluate(SIMD3(Double(colour.x), Double(colour.y), Double(colour.z)) / 255)
      for channel in 0..<3 {
        let want = Int((exact[channel] * 255).rounded())
        differences.append(abs(Int(applied[index * 3 + channel]) - want))
      }
    }
    return differences.sorted()
  }

  /// The difference that `fraction` of the values are within.
  func percentile(_ sorted: [Int], _ fraction: Double) -> Int {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
  }

  @Test(arguments: [(65, 1, 4), (33, 3, 10)])
  func cubeAppliedByFFmpegMeetsThePerfectCubesErrorBound(
    size: Int, within99: Int, within999: Int
  ) throws {
    let folder = try CLIRunner.scratchFolder("lut")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cube = folder.appendingPathComponent("look.cube").path
    let result = try CLIRunner.run(["lut", "-o", cube, "--size", String(size)] + Self.look)
    #expect(result.status == 0, "\(result.standardError)")
    let text = try String(contentsOfFile: cube, encoding: .utf8)
    #expect(text.contains("LUT_3D_SIZE \(size)\n"))
    #expect(
      text.split(separator: "\n").filter { $0.first?.isNumber == true }.count == size * size * size)
    let state = try ControlState.identity.applying(
      assignments: ["ev=0.5", "wb=tungsten", "saturation=1.3", "contrast=1.2"])
    let sorted = try errors(
      filter: "lut3d=file=\(cube):interp=tetrahedral", state: state, folder: folder)
    let (p99, p999, worst) = (percentile(sorted, 0.99), percentile(sorted, 0.999), sorted.last ?? 0)
    print("cube \(size): 99 % within \(p99), 99.9 % within \(p999), max \(worst)")
    #expect(p99 <= within99 && p999 <= within999)
  }

  @Test func haldCLUTAppliedByFFmpegMatchesTheCube() throws {
    let folder = try CLIRunner.scratchFolder("lut")
    defer { try? FileManager.default.removeItem(at: folder) }
    let hald = folder.appendingPathComponent("look.png").path
    let result = try CLIRunner.run(["lut", "-o", hald, "--hald"] + Self.look)
    #expect(result.status == 0, "\(result.standardError)")
    let header = try Image.probe(hald)
    #expect(header.width == 512 && header.height == 512 && header.format == .ushort)
    let state = try ControlState.identity.applying(
      assignments: ["ev=0.5", "wb=tungsten", "saturation=1.3", "contrast=1.2"])
    let sorted = try errors(
      filter: "[0:v][1:v]haldclut", extraInputs: ["-i", hald], state: state, folder: folder)
    let (p99, p999) = (percentile(sorted, 0.99), percentile(sorted, 0.999))
    print("hald 8 (64 nodes): 99 % within \(p99), 99.9 % within \(p999), max \(sorted.last ?? 0)")
    #expect(p99 <= 1 && p999 <= 4)
  }

  @Test func identityNodesAreTheGridAndBadRequestsAreClearErrors() throws {
    let folder = try CLIRunner.scratchFolder("lut")
    defer { try? FileManager.default.removeItem(at: folder) }
    let cube = folder.appendingPathComponent("identity.cube").path
    let identity = try CLIRunner.run(["lut", "-o", cube, "--size", "3", "--set", "zoom=2"])
    #expect(identity.status == 0, "\(identity.standardError)")
    #expect(identity.standardError.contains("the zoom is left out of a LUT"))
    let rows = try String(contentsOfFile: cube, encoding: .utf8).split(separator: "\n")
      .filter { $0.first?.isNumber == true }
    // Red varies fastest: the second node is (0.5, 0, 0), the fourth (0, 0.5, 0).
    #expect(rows.count == 27)
    #expect(rows[1] == "0.500000 0.000000 0.000000" && rows[3] == "0.000000 0.500000 0.000000")
    #expect(rows[26] == "1.000000 1.000000 1.000000")
    for (arguments, message) in [
      (["-o", cube, "--set", "wb=auto"], "auto white balance measures each picture"),
      (["-o", folder.appendingPathComponent("look.txt").path], "name the output .cube"),
      (["-o", cube, "--hald"], "a Hald CLUT is an image"),
      (["-o", cube, "--size", "1"], "--size must be a whole number 2 … 256"),
      (["-o", folder.appendingPathComponent("h.png").path, "--hald", "--level", "40"], "--level"),
    ] {
      let bad = try CLIRunner.run(["lut"] + arguments)
      #expect(bad.status != 0 && bad.standardError.contains(message), "\(bad.standardError)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["identity.cube"])
  }
}
