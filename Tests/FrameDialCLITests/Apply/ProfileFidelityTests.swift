import Foundation
import TestSupport
import Testing
import Vips

/// Colour follows the file's own ICC profile: a CMYK picture is converted from its own profile (never
/// libvips's built-in CMYK one, unless it has none) in every path; a profile the output's writer
/// refuses (libpng's non-D50 illuminant) or that nothing can be converted into (an input-only table
/// profile, as a jpegli XYB JPEG's) is replaced by Display P3, with one warning line. Colours are
/// checked against lcms's own conversion (``ColourDifference``).
@Suite struct ProfileFidelityTests {
  static let ghostscriptProfiles = "/usr/share/color/icc/ghostscript/"

  /// `source` converted into ghostscript's CMYK profile (not libvips's built-in one) and written at
  /// `path`, which carries that profile.
  static func cmyk(from source: Image, at path: String) throws {
    try Operation.call(
      "icc_transform",
      [
        "in": .image(source), "input-profile": "srgb", "embedded": false, "intent": "perceptual",
        "output-profile": .string(ghostscriptProfiles + "default_cmyk.icc"),
      ]
    ).image().write(to: path)
  }

  /// `profile` with D65 (X 0.9505, Y 1, Z 1.0891) as its header's connection-space illuminant in
  /// place of D50, as Kodak's ProPhoto profile holds a value off D50: libpng refuses to write it.
  static func withIlluminantD65(_ profile: Data) -> Data {
    var bytes = [UInt8](profile)
    let d65 = [0.9505, 1.0, 1.0891].flatMap { value -> [UInt8] in
      let fixed = UInt32(bitPattern: Int32((value * 65536).rounded()))
      return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: fixed >> $0) }
    }
    bytes.replaceSubrange(68..<80, with: d65)
    return Data(bytes)
  }

  /// Ghostscript's Lab profile made an RGB input profile (class `scnr`, colour space `RGB `): device
  /// values go through its A2B0 table to the connection space, and it has no B2A1 table back, as a
  /// jpegli XYB JPEG's profile. lcms converts from it and refuses to convert into it.
  static func inputOnlyRGB() throws -> Data {
    var bytes = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: ghostscriptProfiles + "lab.icc")))
    bytes.replaceSubrange(12..<20, with: Array("scnrRGB ".utf8))
    return Data(bytes)
  }

  /// The one warning line `framedial apply` prints for a picture written in Display P3 instead of
  /// the profile `which` (its own, or a `--profile` file) that a `format` file cannot hold.
  static func refusalWarning(_ input: String, which: String = "its ICC profile", format: String)
    -> String
  {
    "framedial apply: warning: \(input): \(which) cannot be written in a \(format) file (libpng "
      + "refuses a profile whose connection-space illuminant is not exactly D50), so the picture "
      + "was converted to Display P3, whose profile is embedded\n"
  }

  static func inputOnlyWarning(_ input: String) -> String {
    "framedial apply: warning: \(input): nothing can be converted into its ICC profile (it has no "
      + "relative colorimetric table back from the connection space), so the picture was converted "
      + "to Display P3, whose profile is embedded\n"
  }

  /// Runs `apply input -o output extra…` and expects it to succeed; returns its standard error.
  @discardableResult
  static func apply(_ input: String, _ output: String, _ extra: [String] = []) throws -> String {
    let result = try CLIRunner.run(["apply", input, "-o", output, "-y"] + extra)
    #expect(result.status == 0, "\(extra): \(result.standardError)")
    return result.standardError
  }

  @Test func aCMYKPictureIsConvertedFromItsOwnProfileInEveryPath() throws {
    let folder = try CLIRunner.scratchFolder("cmyk-profile")
    defer { try? FileManager.default.removeItem(at: folder) }
    let inputs = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    let input = inputs.appendingPathComponent("cmyk.jpg").path
    try Self.cmyk(from: try Image(contentsOf: CLIRunner.sample("chelsea.png")), at: input)
    let loaded = try Image(contentsOf: input)
    #expect(loaded.interpretation == "cmyk" && loaded.hasICCProfile)
    let reference = try ColourDifference.lcmsSRGB(loaded)
    // libvips's colour-space conversion takes its built-in CMYK profile: far off this picture's.
    #expect(try ColourDifference.mean(reference, loaded.colourspace("srgb")) > 2)

    let runs: [(name: String, arguments: [String])] = [
      ("none.png", []), ("none.jpg", ["--quality", "100"]), ("none.tif", []),
      ("stage.png", ["--set", "ev=0.001"]), ("srgb.png", ["--profile", "srgb"]),
      ("p3.png", ["--profile", "p3"]),
      ("adobe.png", ["--profile", Self.ghostscriptProfiles + "a98.icc"]),
    ]
    for run in runs {
      let output = folder.appendingPathComponent(run.name).path
      try Self.apply(input, output, run.arguments)
      let difference = try ColourDifference.mean(reference, ColourDifference.lcmsSRGB(output))
      #expect(difference < ColourDifference.bound, "\(run.name): mean ΔE2000 \(difference)")
    }

    let viaC = folder.appendingPathComponent("c.png").path
    #expect(try TIFFPreviewPageTests.applyThroughTheCAPI(input, viaC) == 0)
    #expect(
      try ColourDifference.mean(reference, ColourDifference.lcmsSRGB(viaC))
        < ColourDifference.bound)

    let batchOutput = folder.appendingPathComponent("out")
    let batch = try CLIRunner.run(["batch", inputs.path, "-o", batchOutput.path, "--format", "png"])
    #expect(batch.status == 0, "\(batch.standardError)")
    let batched = try ColourDifference.lcmsSRGB(batchOutput.appendingPathComponent("cmyk.png").path)
    #expect(try ColourDifference.mean(reference, batched) < ColourDifference.bound)

    // The preview's viewfinder shows a flat CMYK patch in its own profile's colour.
    let patch = folder.appendingPathComponent("patch.jpg").path
    try Self.cmyk(from: try Image.solid(width: 400, height: 300, color: [40, 150, 200]), at: patch)
    let preview = folder.appendingPathComponent("preview.png").path
    let previewRun = try CLIRunner.run(["preview", patch, "-o", preview])
    #expect(previewRun.status == 0, "\(previewRun.standardError)")
    let viewfinder = try #require(TIFFPreviewPageTests.viewfinder(in: previewRun.standardOutput))
    let shown = try Image(contentsOf: preview).extractArea(
      left: viewfinder.x + viewfinder.width / 4, top: viewfinder.y + viewfinder.height / 4,
      width: 8, height: 8)
    let expected = try ColourDifference.lcmsSRGB(patch).extractArea(
      left: 100, top: 100, width: 8, height: 8)
    #expect(try ColourDifference.mean(expected, ColourDifference.lcmsSRGB(shown)) < 1)
  }

  /// An untagged CMYK picture goes through libvips's built-in CMYK profile into sRGB, whose profile
  /// the output carries in every format (a TIFF or HEIC carried the CMYK profile on RGB pixels).
  @Test(arguments: ["png", "tif", "heic"])
  func anUntaggedCMYKPictureTakesTheBuiltInProfileAndIsWrittenAsSRGB(ext: String) throws {
    let folder = try CLIRunner.scratchFolder("cmyk-untagged")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tagged = folder.appendingPathComponent("tagged.jpg").path
    try Self.cmyk(from: try Image(contentsOf: CLIRunner.sample("chelsea.png")), at: tagged)
    let input = folder.appendingPathComponent("untagged.jpg").path
    try Image(contentsOf: tagged).removingFields([Image.iccProfileField]).write(to: input)
    let output = folder.appendingPathComponent("out.\(ext)").path
    try Self.apply(input, output)
    let written = try Image(contentsOf: output)
    #expect(try written.blob(Image.iccProfileField) == Vips.builtinICCProfile("srgb"))
    let difference = try ColourDifference.mean(input, output)
    #expect(difference < (ext == "heic" ? 3 : ColourDifference.bound), "mean ΔE2000 \(difference)")
  }

  @Test func aProfileThePNGWriterRefusesIsConvertedToDisplayP3WithAWarning() throws {
    let folder = try CLIRunner.scratchFolder("profile-refused")
    defer { try? FileManager.default.removeItem(at: folder) }
    let adobe = try Data(contentsOf: URL(fileURLWithPath: Self.ghostscriptProfiles + "a98.icc"))
    let profile = Self.withIlluminantD65(adobe)
    #expect(!Image.saverKeepsProfile(profile, format: .png, bands: 3))
    #expect(Image.saverKeepsProfile(adobe, format: .png, bands: 3))
    let input = folder.appendingPathComponent("adobe.tif").path
    try Image(contentsOf: CLIRunner.sample("chelsea.png"))
      .editingMetadata { $0.setBlob(Image.iccProfileField, profile) }.write(to: input)
    let p3 = try Vips.builtinICCProfile("p3")

    for controls in [[], ["--set", "ev=0.3"]] {
      let output = folder.appendingPathComponent("out.png").path
      let warnings = try Self.apply(input, output, controls)
      #expect(warnings == Self.refusalWarning(input, format: "png"), "\(controls)")
      #expect(try Image(contentsOf: output).blob(Image.iccProfileField) == p3, "\(controls)")
      if controls.isEmpty {
        let difference = try ColourDifference.mean(input, output)
        #expect(difference < ColourDifference.bound, "mean ΔE2000 \(difference)")
      }
    }
    // Every other writer keeps the profile as it is.
    for ext in ["jpg", "tif", "webp", "heic"] {
      let output = folder.appendingPathComponent("out.\(ext)").path
      let warnings = try Self.apply(input, output)
      #expect(warnings.isEmpty, "\(ext): \(warnings)")
      #expect(try Image(contentsOf: output).blob(Image.iccProfileField) == profile, "\(ext)")
    }
    // The same profile asked for with --profile.
    let file = folder.appendingPathComponent("d65.icc")
    try profile.write(to: file)
    let output = folder.appendingPathComponent("asked.png").path
    let warnings = try Self.apply(CLIRunner.sample("rocket.jpg"), output, ["--profile", file.path])
    #expect(
      warnings
        == Self.refusalWarning(
          CLIRunner.sample("rocket.jpg"), which: "the profile \(file.path)", format: "png"))
    #expect(try Image(contentsOf: output).blob(Image.iccProfileField) == p3)
  }

  @Test func anInputOnlyProfileIsRenderedInDisplayP3WithAWarning() throws {
    let folder = try CLIRunner.scratchFolder("profile-input-only")
    defer { try? FileManager.default.removeItem(at: folder) }
    let profile = try Self.inputOnlyRGB()
    // Device values read as CIELAB by the table: lightness 40 … 78, a and b near 0.
    var pixels: [UInt8] = []
    for index in 0..<(64 * 48) {
      let lightness = UInt8(100 + index % 100)
      let a = UInt8(120 + index / 64 % 16)
      let b = UInt8(124 + index % 7)
      pixels += [lightness, a, b]
    }
    let input = folder.appendingPathComponent("table.tif").path
    try Image.fromPixels(pixels, width: 64, height: 48, bands: 3)
      .editingMetadata { $0.setBlob(Image.iccProfileField, profile) }.write(to: input)
    let p3 = try Vips.builtinICCProfile("p3")
    for arguments in [[], ["--set", "ev=0.3"], ["--profile", "keep", "--set", "ev=0.3"]] {
      let output = folder.appendingPathComponent("out.png").path
      let warnings = try Self.apply(input, output, arguments)
      #expect(warnings == Self.inputOnlyWarning(input), "\(arguments)")
      #expect(try Image(contentsOf: output).blob(Image.iccProfileField) == p3, "\(arguments)")
      if arguments.isEmpty {
        let difference = try ColourDifference.mean(input, output)
        #expect(difference < ColourDifference.bound, "mean ΔE2000 \(difference)")
      }
    }
    // Asked for as --profile, it is refused before anything is read.
    let file = folder.appendingPathComponent("table.icc")
    try profile.write(to: file)
    let refused = try CLIRunner.run(
      [
        "apply", CLIRunner.sample("rocket.jpg"), "-o", folder.appendingPathComponent("x.png").path,
        "--profile", file.path,
      ])
    #expect(refused.status != 0)
    #expect(
      refused.standardError.contains("\(file.path): pictures cannot be converted into this profile")
    )
  }
}

/// The same on the real files: a SWOP CMYK JPEG, a FOGRA39 CMYK TIFF and the same JPEG without its
/// profile; Kodak's ProPhoto profile in a PNG; a jpegli XYB JPEG.
@Suite(.enabled(if: RealFiles.available)) struct RealProfileFidelityTests {
  @Test(arguments: [
    "colour/Channel_digital_image_CMYK_color.jpg", "colour/fogra-0-100-100-0.tif",
    "colour/Channel_digital_image_CMYK_color_no_profile.jpg",
  ])
  func aRealCMYKFileComesOutInItsOwnProfilesColours(name: String) throws {
    let folder = try CLIRunner.scratchFolder("real-cmyk")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = RealFiles.path(name)
    let loaded = try Image(contentsOf: input)
    let reference = try ColourDifference.lcmsSRGB(loaded)
    if loaded.hasICCProfile {
      #expect(try ColourDifference.mean(reference, loaded.colourspace("srgb")) > 1.5)
    }
    for arguments in [[], ["--set", "ev=0.001"], ["--profile", "srgb"]] {
      let output = folder.appendingPathComponent("out.png").path
      try ProfileFidelityTests.apply(input, output, arguments)
      let difference = try ColourDifference.mean(reference, ColourDifference.lcmsSRGB(output))
      #expect(difference < ColourDifference.bound, "\(arguments): mean ΔE2000 \(difference)")
    }
  }

  @Test func theProPhotoPNGIsWrittenInDisplayP3WithAWarningAndKeptInAJPEG() throws {
    let folder = try CLIRunner.scratchFolder("real-prophoto")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = RealFiles.path("colour/prophoto.png")
    let png = folder.appendingPathComponent("out.png").path
    let warnings = try ProfileFidelityTests.apply(input, png)
    #expect(warnings == ProfileFidelityTests.refusalWarning(input, format: "png"))
    #expect(try Image(contentsOf: png).blob(Image.iccProfileField) == Vips.builtinICCProfile("p3"))
    #expect(try ColourDifference.mean(input, png) < ColourDifference.bound)
    let jpeg = folder.appendingPathComponent("out.jpg").path
    #expect(try ProfileFidelityTests.apply(input, jpeg).isEmpty)
    #expect(
      try Image(contentsOf: jpeg).blob(Image.iccProfileField)
        == Image(contentsOf: input).blob(Image.iccProfileField))
  }

  @Test func theXYBJPEGIsRenderedInDisplayP3WithAWarning() throws {
    let folder = try CLIRunner.scratchFolder("real-xyb")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = RealFiles.path("colour/sample-xyb.jpg")
    for arguments in [[], ["--set", "ev=0.3"], ["--profile", "keep", "--set", "ev=0.3"]] {
      let output = folder.appendingPathComponent("out.png").path
      let warnings = try ProfileFidelityTests.apply(input, output, arguments)
      #expect(warnings == ProfileFidelityTests.inputOnlyWarning(input), "\(arguments)")
      #expect(
        try Image(contentsOf: output).blob(Image.iccProfileField) == Vips.builtinICCProfile("p3"))
      if arguments.isEmpty {
        #expect(try ColourDifference.mean(input, output) < ColourDifference.bound)
      }
    }
  }
}
