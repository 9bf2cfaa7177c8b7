import Controls
import Foundation
import Raw
import TestSupport
import Testing
import Vips

@testable import FrameDial

/// DNGs written by the tests are developed on LibRaw into linear light: levels, as-shot white balance,
/// exposure bias, orientation and LibRaw's own development (`dcraw_emu`) checked on the pixels.
@Suite struct RawDevelopmentTests {
  /// A 16-bit output's samples.
  static func samples(_ path: String) throws -> (width: Int, height: Int, bands: Int, [UInt16]) {
    let image = try Image(contentsOf: path)
    #expect(image.format == .ushort, "\(path) is not 16-bit")
    let bytes = try image.pixelBytes()
    let values = bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
    return (image.width, image.height, image.bands, values)
  }

  /// The mean of each band over the pixels in `box` (x, y, width, height).
  static func mean(
    _ picture: (width: Int, height: Int, bands: Int, [UInt16]), box: (Int, Int, Int, Int)
  ) -> [Double] {
    let (width, _, bands, values) = picture
    var sums = [Double](repeating: 0, count: bands)
    for y in box.1..<(box.1 + box.3) {
      for x in box.0..<(box.0 + box.2) {
        for band in 0..<bands { sums[band] += Double(values[(y * width + x) * bands + band]) }
      }
    }
    return sums.map { $0 / Double(box.2 * box.3) / 65535 }
  }

  static func linear(_ encoded: Double) -> Double {
    encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
  }

  static func encoded(_ linear: Double) -> Double {
    linear <= 0.003_130_8 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
  }

  /// Writes `scene` as `name` in a scratch folder and develops it with `arguments`.
  static func develop(
    _ scene: DNGScene, name: String = "IMG_0001.DNG", output: String = "out.tif",
    _ arguments: [String] = []
  ) throws -> (folder: URL, input: URL, output: URL, result: CLIRunner.Result) {
    let folder = try CLIRunner.scratchFolder("raw-develop")
    let input = folder.appendingPathComponent(name)
    try scene.data().write(to: input)
    let out = folder.appendingPathComponent(output)
    let result = try CLIRunner.run(["apply", input.path, "-o", out.path] + arguments)
    return (folder, input, out, result)
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 0, 1, 1, 2), 4095, 256), ([2, 1, 1, 0], 16383, 1024),
    ([1, 0, 2, 1], 4095, 0),
  ])
  func aFlatGreyComesOutGreyAtTheLevelItsExposureSays(
    pattern: [UInt8], white: Int, black: Int
  ) throws {
    var scene = DNGScene.grey(0.18)
    scene.pattern = pattern
    scene.whiteLevel = white
    scene.blackLevel = black
    let run = try Self.develop(scene)
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let picture = try Self.samples(run.output.path)
    #expect(picture.width == 64 && picture.height == 48 && picture.bands == 3)
    let grey = Self.mean(picture, box: (8, 8, 48, 32))
    for band in grey {
      // The as-shot neutral (0.5, 1, 0.7) is undone; 0.18 of the white level is sRGB code 0.4614.
      #expect(abs(Self.linear(band) - 0.18) < 0.002, "\(grey)")
    }
  }

  @Test func aLinearDNGIsDevelopedWithoutDemosaicing() throws {
    var scene = DNGScene.patches()
    scene.pattern = nil
    let run = try Self.develop(scene)
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let picture = try Self.samples(run.output.path)
    let grey = Self.mean(picture, box: (26, 20, 10, 8))
    for band in grey { #expect(abs(Self.linear(band) - 0.18) < 0.002, "\(grey)") }
    // A coloured corner keeps its colour: the scene's (0.05, 0.1, 0.5) at the top left.
    let corner = Self.mean(picture, box: (0, 0, 2, 2)).map(Self.linear)
    #expect(abs(corner[0] - 0.05) < 0.01 && abs(corner[1] - 0.1) < 0.01, "\(corner)")
    #expect(abs(corner[2] - 0.5) < 0.01, "\(corner)")
  }

  @Test func plusOneEVDoublesLinearLightBelowClipping() throws {
    let scene = DNGScene.patches(level: 0.2)
    let plain = try Self.develop(scene)
    defer { try? FileManager.default.removeItem(at: plain.folder) }
    let brighter = try CLIRunner.run([
      "apply", plain.input.path, "-o", plain.folder.appendingPathComponent("ev.tif").path,
      "--set", "ev=1",
    ])
    #expect(plain.result.status == 0 && brighter.status == 0, "\(brighter.standardError)")
    let before = Self.mean(try Self.samples(plain.output.path), box: (26, 20, 10, 8))
    let after = Self.mean(
      try Self.samples(plain.folder.appendingPathComponent("ev.tif").path), box: (26, 20, 10, 8))
    for (a, b) in zip(before, after) {
      #expect(abs(Self.linear(b) / Self.linear(a) - 2) < 0.01, "\(before) → \(after)")
      #expect(abs(Self.linear(b) - 0.4) < 0.004)
    }
  }

  @Test func asShotWhiteBalanceNeutralisesTheNeutralPatchThroughACameraMatrix() throws {
    var scene = DNGScene.patches()
    // A camera whose channels mix (XYZ → camera), with a strong as-shot cast.
    scene.colourMatrix = [0.9, -0.25, -0.05, -0.45, 1.3, 0.15, -0.05, 0.15, 0.7]
    scene.asShotNeutral = SIMD3(0.42, 1, 0.63)
    let run = try Self.develop(scene)
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let grey = Self.mean(try Self.samples(run.output.path), box: (26, 20, 10, 8))
    #expect(abs(grey[0] - grey[1]) < 0.003 && abs(grey[2] - grey[1]) < 0.003, "\(grey)")
    #expect(abs(Self.linear(grey[1]) - 0.18) < 0.003, "\(grey)")
  }

  @Test func aJPEGFromARawIsQuantisedAfterTheExposureNotBefore() throws {
    // A shadow ramp from 0.001 to 0.011 of the white level: 8-bit sRGB codes 3 … 27 before the
    // exposure, so brightening 8-bit input by 4 EV would leave about 36 levels across the ramp, where 16 bits
    // give about 80.
    var scene = DNGScene()
    scene.width = 256
    (scene.whiteLevel, scene.blackLevel) = (16383, 1024)  // 14-bit: 150 codes across the ramp
    scene.scene = { x, _ in SIMD3(repeating: 0.001 + 0.01 * Double(x) / 256) }
    let run = try Self.develop(scene, output: "out.jpg", ["--set", "ev=4", "--quality", "100"])
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let image = try Image(contentsOf: run.output.path)
    let row = try image.extractArea(left: 0, top: 24, width: 256, height: 1).pixelBytes()
    let greens = Set(stride(from: 1, to: row.count, by: 3).map { row[$0] })
    #expect(greens.count > 60, "\(greens.count) levels")
    // 0.011 × 16 = 0.176 of the white level: sRGB code 117 at the bright end.
    #expect(abs(Int(row[255 * 3 + 1]) - 117) <= 3, "\(row[255 * 3 + 1])")
  }

  @Test func aDevelopedRawIsNeverReDecodedByLibvipsWhenAnotherFilesErrorIsSeen() throws {
    // A batch re-decodes an input on one libvips thread when any libvips error was raised while it
    // rendered (another job's broken file included): a raw has no strip to lose and is not re-read.
    let folder = try CLIRunner.scratchFolder("raw-verdict")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("IMG_0001.DNG")
    try DNGScene().data().write(to: input)
    #expect(DecodeVerdict.damage(of: input.path, load: LoadOptions()) == nil)
  }

  @Test func thePixelLimitAppliesToTheSizeARawDevelopsTo() throws {
    let run = try Self.develop(DNGScene(), ["--pixel-limit", "3000"])
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 1)
    #expect(
      run.result.standardError.contains("develops to 3072 pixels, over the pixel limit of 3000"),
      "\(run.result.standardError)")
    let half = try CLIRunner.run([
      "apply", run.input.path, "-o", run.folder.appendingPathComponent("half.jpg").path,
      "--pixel-limit", "3000", "--size", "32",
    ])
    #expect(half.status == 0, "\(half.standardError)")
  }

  /// LibRaw's own developer with FrameDial's settings: 16-bit linear, as-shot white balance, sRGB
  /// primaries, AHD, no brightening, highlights clipped.
  static func dcrawEmu(_ input: URL, halfSize: Bool = false) throws -> URL {
    let arguments =
      ["-4", "-g", "1", "1", "-W", "-w", "-o", "1", "-q", "3", "-H", "0"]
      + (halfSize ? ["-h"] : []) + ["-T", input.path]
    let result = try CLIRunner.run(
      arguments, executable: URL(fileURLWithPath: "/usr/bin/dcraw_emu"))
    #expect(result.status == 0, "dcraw_emu: \(result.standardError)")
    return URL(fileURLWithPath: input.path + ".tiff")
  }

  /// PSNR in dB of two 16-bit pictures (the same LibRaw calls give about 108 dB: the sRGB encoding's
  /// rounding) of the same size, `reference` linear (encoded with the sRGB
  /// transfer first), `picture` sRGB-encoded.
  static func psnr(_ picture: URL, againstLinear reference: URL) throws -> Double {
    let ours = try samples(picture.path)
    let theirs = try samples(reference.path)
    #expect(ours.width == theirs.width && ours.height == theirs.height)
    #expect(ours.3.count == theirs.3.count)
    var squared = 0.0
    for (a, b) in zip(ours.3, theirs.3) {
      let difference = Double(a) / 65535 - encoded(Double(b) / 65535)
      squared += difference * difference
    }
    let mse = squared / Double(max(1, ours.3.count))
    return mse == 0 ? 200 : 10 * log10(1 / mse)
  }

  @Test func theResultMatchesLibRawsOwnDevelopmentTurnedUpright() throws {
    var scene = DNGScene.patches()
    scene.colourMatrix = [0.9, -0.25, -0.05, -0.45, 1.3, 0.15, -0.05, 0.15, 0.7]
    scene.pattern = [1, 2, 0, 1]
    scene.whiteLevel = 16383
    scene.blackLevel = 512
    scene.orientation = 6
    let run = try Self.develop(scene)
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let picture = try Self.samples(run.output.path)
    #expect(picture.width == 48 && picture.height == 64, "turned a quarter for orientation 6")
    let psnr = try Self.psnr(run.output, againstLinear: try Self.dcrawEmu(run.input))
    #expect(psnr >= 80, "PSNR \(psnr) dB")
  }

  /// An upright raw is packed in place in LibRaw's working picture and a mirrored one copied by
  /// LibRaw (orientation 2 mirrors it left to right, 4 top to bottom); either way every sample is
  /// LibRaw's own developed sample through the sRGB transfer, exactly.
  @Test(arguments: [1, 2, 4])
  func everySampleIsLibRawsOwnDevelopmentThroughTheSRGBTransfer(orientation: Int) throws {
    var scene = DNGScene.patches()
    scene.colourMatrix = [0.9, -0.25, -0.05, -0.45, 1.3, 0.15, -0.05, 0.15, 0.7]
    scene.whiteLevel = 16383
    scene.blackLevel = 512
    scene.orientation = orientation
    let run = try Self.develop(scene)
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let ours = try Self.samples(run.output.path)
    let theirs = try Self.samples(try Self.dcrawEmu(run.input).path)
    #expect(ours.width == 64 && ours.height == 48 && ours.bands == 3)
    #expect(
      ours.width == theirs.width && ours.height == theirs.height && ours.bands == theirs.bands)
    let expected = theirs.3.map { SRGBTransfer16.encode[Int($0)] }
    let differing = zip(ours.3, expected).filter { $0 != $1 }.count
    #expect(differing == 0, "\(differing) of \(expected.count) samples differ")
    // Not a flat picture: the patches differ from each other.
    #expect(Set(expected).count > 10)
  }

  /// A camera whose channels mix (XYZ → camera), 14-bit, with a black level: LibRaw's conversion out
  /// of its colours moves every pixel.
  static func mixingCamera() -> DNGScene {
    var scene = DNGScene.patches()
    scene.colourMatrix = [0.9, -0.25, -0.05, -0.45, 1.3, 0.15, -0.05, 0.15, 0.7]
    scene.asShotNeutral = SIMD3(0.42, 1, 0.63)
    scene.whiteLevel = 16383
    scene.blackLevel = 512
    return scene
  }

  /// A JPEG from a raw with nothing but colour to do is developed and rendered in one pass over
  /// LibRaw's working picture, LibRaw's conversion out of the camera's colours done there: its pixels
  /// are exactly those of the 16-bit way (taken here with `--size` at the raw's own size), for the
  /// identity, per-channel tables (exposure alone) and the channel mix (the batch benchmark's state).
  @Test(arguments: [
    [], ["--set", "ev=0.7"],
    [
      "--set", "ev=0.5", "--set", "wb=tungsten", "--set", "contrast=1.2", "--set", "saturation=1.3",
    ],
  ])
  func aJPEGDevelopedInOnePassHasTheCodesOfTheSixteenBitWay(state: [String]) throws {
    let quality = ["--quality", "100"]
    let run = try Self.develop(Self.mixingCamera(), output: "one.jpg", state + quality)
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let sixteen = run.folder.appendingPathComponent("sixteen.jpg")
    let reference = try CLIRunner.run(
      ["apply", run.input.path, "-o", sixteen.path, "--size", "64x48"] + state + quality)
    #expect(reference.status == 0, "\(reference.standardError)")
    let ours = try Image(contentsOf: run.output.path)
    let theirs = try Image(contentsOf: sixteen.path)
    #expect(ours.width == 64 && ours.height == 48 && theirs.width == 64 && theirs.height == 48)
    let (a, b) = (try ours.pixelBytes(), try theirs.pixelBytes())
    #expect(a == b, "\(zip(a, b).filter { $0 != $1 }.count) of \(a.count) samples differ")
    // Not a flat picture.
    #expect(Set(a).count > 40)
  }

  /// The one-pass JPEG of a raw from a camera whose channels mix matches LibRaw's own development
  /// (`dcraw_emu`, encoded with the sRGB transfer and quantised) block by block: each 8 × 8 block's
  /// mean within 1 code of 255 in every channel.
  @Test func aJPEGDevelopedInOnePassMatchesLibRawsOwnDevelopmentBlockByBlock() throws {
    let run = try Self.develop(Self.mixingCamera(), output: "one.jpg", ["--quality", "100"])
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let ours = try Image(contentsOf: run.output.path)
    let bytes = try ours.pixelBytes()
    let theirs = try Self.samples(try Self.dcrawEmu(run.input).path)
    #expect(ours.width == theirs.width && ours.height == theirs.height && ours.bands == 3)
    var worst = 0.0
    for top in stride(from: 0, to: 48, by: 8) {
      for left in stride(from: 0, to: 64, by: 8) {
        for channel in 0..<3 {
          var (mine, libraw) = (0.0, 0.0)
          for y in top..<(top + 8) {
            for x in left..<(left + 8) {
              let index = (y * 64 + x) * 3 + channel
              mine += Double(bytes[index])
              libraw += Self.encoded(Double(theirs.3[index]) / 65535) * 255
            }
          }
          worst = max(worst, abs(mine - libraw) / 64)
        }
      }
    }
    #expect(worst <= 1, "a block's mean is \(worst) codes from LibRaw's")
  }

  /// An 8-bit output at half the raw's size or less is developed at half size and coloured in one
  /// pass, then resized: against the 16-bit way (resized before the colour, written as a 16-bit PNG
  /// and quantised here), the two orders differ by more than 2 codes only at the scene's sharp patch
  /// edges (about 5 % of the samples here), by at most 16.
  @Test func aSizeAtHalfOrLessIsColouredInOnePassThenResized() throws {
    let state = [
      "--set", "ev=0.5", "--set", "wb=tungsten", "--set", "contrast=1.2", "--set", "saturation=1.3",
    ]
    let run = try Self.develop(
      Self.mixingCamera(), output: "one.jpg", state + ["--size", "30x30", "--quality", "100"])
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let sixteen = run.folder.appendingPathComponent("sixteen.png")
    let reference = try CLIRunner.run(
      ["apply", run.input.path, "-o", sixteen.path, "--size", "30x30"] + state)
    #expect(reference.status == 0, "\(reference.standardError)")
    let ours = try Image(contentsOf: run.output.path)
    let theirs = try Self.samples(sixteen.path)
    #expect(ours.width == 30 && ours.height == 23 && theirs.width == 30 && theirs.height == 23)
    let bytes = try ours.pixelBytes()
    let differences = zip(bytes, theirs.3).map { abs(Int($0) - (Int($1) + 128) / 257) }
    let mean = Double(differences.reduce(0, +)) / Double(differences.count)
    let apart = differences.filter { $0 > 2 }.count
    #expect(mean < 1, "mean difference \(mean)")
    #expect(apart * 100 < differences.count * 6, "\(apart) of \(differences.count) samples apart")
    #expect(differences.max() ?? 0 <= 20, "most \(differences.max() ?? 0)")
    #expect(Set(bytes).count > 40)

    // The command took the one pass: its JPEG is the one pass's picture within JPEG's own error (4
    // codes here), where the 16-bit way's differs by more at the patch edges (16).
    let raw = try #require(RawStill.identify(run.input.path))
    let program = PlanCache().plan(
      for: ControlState(
        exposureBias: 0.5, contrast: 1.2, saturation: 1.3, whiteBalance: .preset(.tungsten))
    ).colorProgram
    let onePass = try #require(
      try RawStill.rendered8(
        run.input.path, raw, colour: program.rawColour, options: LoadOptions(),
        size: SizeFit(width: 30, height: 30).rawOutputSize))
    let fromJPEG = zip(try onePass.pixelBytes(), bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(
      fromJPEG <= 6 && fromJPEG < differences.max() ?? 0, "\(fromJPEG) codes from the one pass")

    // The one pass is taken exactly at half size or less.
    let half = try RawStill.rendered8(
      run.input.path, raw, colour: program.rawColour, options: LoadOptions(),
      size: SizeFit(width: 32, height: 32).rawOutputSize)
    #expect(half?.width == 32 && half?.height == 24)
    #expect(
      try RawStill.rendered8(
        run.input.path, raw, colour: program.rawColour, options: LoadOptions(),
        size: SizeFit(width: 33, height: 33).rawOutputSize) == nil)
  }

  @Test func aSizeAtHalfOrLessDevelopsAtHalfSizeAsLibRawDoes() throws {
    let run = try Self.develop(DNGScene.patches(), output: "half.tif", ["--size", "32x24"])
    defer { try? FileManager.default.removeItem(at: run.folder) }
    #expect(run.result.status == 0, "\(run.result.standardError)")
    let psnr = try Self.psnr(
      run.output, againstLinear: try Self.dcrawEmu(run.input, halfSize: true))
    #expect(psnr >= 80, "PSNR \(psnr) dB")
  }
}
