import Foundation
import TestSupport
import Testing
import Vips

/// `--size N|WxH` and `--enlarge` on `apply` and `batch`.
@Suite struct SizeCommandTests {
  /// A smooth colour picture (red rises to the right, green downwards) of `width × height`.
  static func gradient(width: Int, height: Int) throws -> Image {
    let xy = try Operation.call("xyz", ["width": .int(width), "height": .int(height)]).image()
    let x = try xy.extractBands(0)
    let y = try xy.extractBands(1)
    return try Image.joinBands([
      x.linear([200 / Double(width)], [30]), y.linear([200 / Double(height)], [30]),
      x.linear([100 / Double(width)], [90]),
    ]).cast(to: .uchar)
  }

  /// The size of the image at `path`.
  func size(_ path: String) throws -> [Int] {
    let header = try Image.probe(path)
    return [header.width, header.height]
  }

  /// Mean absolute difference of two images of the same size, per band value.
  func meanDifference(_ first: Image, _ second: Image) throws -> Double {
    let difference = try Operation.call(
      "subtract", ["left": .image(first), "right": .image(second)]
    ).image()
    return try Operation.call("abs", ["in": .image(difference)]).image().average()
  }

  @Test func landscapePortraitAndBoxesGetExactSizes() throws {
    let folder = try CLIRunner.scratchFolder("size")
    defer { try? FileManager.default.removeItem(at: folder) }
    let landscape = folder.appendingPathComponent("landscape.jpg").path
    let portrait = folder.appendingPathComponent("portrait.png").path
    try Self.gradient(width: 1200, height: 800).write(to: landscape)
    try Self.gradient(width: 800, height: 1200).write(to: portrait)
    for (input, arguments, expected) in [
      (landscape, ["--size", "300"], [300, 200]), (portrait, ["--size", "300"], [200, 300]),
      (landscape, ["--size", "400x100"], [150, 100]),
      (portrait, ["--size", "600x2000"], [600, 900]),
      (landscape, ["--size", "5000"], [1200, 800]),
      (landscape, ["--size", "5000x1000", "--enlarge"], [1500, 1000]),
    ] {
      let output = folder.appendingPathComponent("out.jpg").path
      let result = try CLIRunner.run(
        ["apply", input, "-o", output, "-y", "--set", "ev=0.5"] + arguments)
      #expect(result.status == 0, "\(arguments): \(result.standardError)")
      #expect(try size(output) == expected, "\(input) \(arguments)")
      #expect(
        result.standardOutput.contains("(\(expected[0])×\(expected[1]) jpeg)"),
        "\(result.standardOutput)")
    }
  }

  @Test func sixteenBitPicturesStaySixteenBit() throws {
    let folder = try CLIRunner.scratchFolder("size-16")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("deep.png").path
    let deep = try Self.gradient(width: 900, height: 600).cast(to: .ushort).linear([257], [0])
      .cast(to: .ushort)
    try Operation.call("copy", ["in": .image(deep), "interpretation": "rgb16"]).image()
      .write(to: input)
    let output = folder.appendingPathComponent("out.png").path
    let result = try CLIRunner.run([
      "apply", input, "-o", output, "--size", "300", "--set", "ev=0.3",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    let written = try Image(contentsOf: output)
    #expect(written.width == 300 && written.height == 200)
    #expect(written.format == .ushort)
  }

  @Test func anExifRotatedJPEGIsSizedUpright() throws {
    let folder = try CLIRunner.scratchFolder("size-rotated")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Stored 1600 × 1200 with orientation 6 (turn 90° clockwise): upright it is 1200 × 1600.
    let input = folder.appendingPathComponent("turned.jpg").path
    try Self.gradient(width: 1600, height: 1200).settingOrientation(6).write(to: input)
    let output = folder.appendingPathComponent("out.jpg").path
    // 1200 × 1600 into 300 × 300 is a 5.3× reduction, so the JPEG is decoded at half size.
    let result = try CLIRunner.run(["apply", input, "-o", output, "--size", "300"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try size(output) == [225, 300])
    let written = try Image(contentsOf: output)
    #expect(written.orientation == 1)
    // Upright, the green ramp (down the stored picture) runs right to left along the top row.
    let left = try written.extractArea(left: 5, top: 150, width: 1, height: 1).pixelBytes()
    let right = try written.extractArea(left: 219, top: 150, width: 1, height: 1).pixelBytes()
    #expect(Int(left[1]) > Int(right[1]) + 100, "left \(left), right \(right)")
  }

  @Test func theZoomWindowIsWhatIsSized() throws {
    let folder = try CLIRunner.scratchFolder("size-zoom")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.png").path
    try Self.gradient(width: 1600, height: 1200).write(to: input)
    let full = folder.appendingPathComponent("full.png").path
    let sized = folder.appendingPathComponent("sized.png").path
    let state = ["--set", "zoom=2", "--set", "zoom-center=0.25,0.25"]
    #expect(try CLIRunner.run(["apply", input, "-o", full] + state).status == 0)
    let result = try CLIRunner.run(["apply", input, "-o", sized, "--size", "400"] + state)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try size(sized) == [400, 300])
    // The sized output is the zoomed output made smaller: the top-left quarter, not the whole picture.
    let expected = try Image(contentsOf: full).thumbnailed(width: 400, height: 300)
    #expect(try meanDifference(Image(contentsOf: sized), expected) < 1.5)
  }

  @Test func colourOfASizedOutputMatchesTheFullOutputResized() throws {
    let folder = try CLIRunner.scratchFolder("size-colour")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.jpg").path
    try Self.gradient(width: 2400, height: 1600).write(to: input)
    let state = [
      "--set", "ev=0.7", "--set", "wb=auto", "--set", "saturation=1.4", "--set", "contrast=1.3",
    ]
    let full = folder.appendingPathComponent("full.png").path
    let sized = folder.appendingPathComponent("sized.png").path
    #expect(try CLIRunner.run(["apply", input, "-o", full] + state).status == 0)
    // 2400 × 1600 to 300 × 200 is 8×: the JPEG is decoded at quarter size.
    let result = try CLIRunner.run(["apply", input, "-o", sized, "--size", "300"] + state)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try size(sized) == [300, 200])
    let expected = try Image(contentsOf: full).thumbnailed(width: 300, height: 200)
    let plain = try Image(contentsOf: input).thumbnailed(width: 300, height: 200)
    let difference = try meanDifference(Image(contentsOf: sized), expected)
    #expect(difference < 1.5)
    // The controls did change the picture, by far more than that.
    #expect(try meanDifference(expected, plain) > 10 * max(difference, 1))
  }

  @Test func aHugeJPEGIsDecodedSmallEnoughForThePixelLimit() throws {
    let folder = try CLIRunner.scratchFolder("size-huge")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("huge.jpg").path
    try Self.gradient(width: 4000, height: 3000).write(to: input)
    let output = folder.appendingPathComponent("out.jpg").path
    // 12 megapixels is over a 1-megapixel limit; decoded at 1/8 (500 × 375) it is under it.
    let full = try CLIRunner.run(["apply", input, "-o", output, "--pixel-limit", "1000000"])
    #expect(full.status == 1)
    #expect(full.standardError.contains("over the pixel limit"), "\(full.standardError)")
    let small = try CLIRunner.run([
      "apply", input, "-o", output, "--pixel-limit", "1000000", "--size", "200",
    ])
    #expect(small.status == 0, "\(small.standardError)")
    #expect(try size(output) == [200, 150])
  }

  @Test func batchSizesEveryImage() throws {
    let folder = try CLIRunner.scratchFolder("size-batch")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try Self.gradient(width: 1200, height: 800).write(
      to: input.appendingPathComponent("wide.jpg").path)
    try Self.gradient(width: 600, height: 900).write(
      to: input.appendingPathComponent("tall.webp").path)
    try Self.gradient(width: 100, height: 50).write(
      to: input.appendingPathComponent("small.png").path)
    let output = folder.appendingPathComponent("out")
    let result = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--size", "300", "--jobs", "2", "--set", "ev=0.3",
    ])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(try size(output.appendingPathComponent("wide.jpg").path) == [300, 200])
    #expect(try size(output.appendingPathComponent("tall.webp").path) == [200, 300])
    #expect(try size(output.appendingPathComponent("small.png").path) == [100, 50])
  }

  @Test(arguments: [
    (["--size", "0"], "--size: size '0' is not N or WxH"),
    (["--size", "10x"], "--size: size '10x' is not N or WxH"),
    (["--size", "axb"], "--size: size 'axb' is not N or WxH"),
    (["--enlarge"], "--enlarge needs --size"),
    (["--size", "300", "--fit", "iphone-16-pro"], "--size and --fit both set the output's size"),
  ])
  func badSizesAreUsageErrors(arguments: [String], message: String) throws {
    for command in ["apply", "batch"] {
      let result = try CLIRunner.run(
        [command, CLIRunner.sample("rocket.jpg"), "-o", "/nonexistent/out.jpg"] + arguments)
      #expect(result.status == 2, "\(command) \(arguments)")
      #expect(result.standardError.contains(message), "\(result.standardError)")
    }
  }
}
