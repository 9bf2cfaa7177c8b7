import Controls
import Foundation
import ImageMathContract
import Testing
import Vips

@testable import FrameDial

/// `--profile`: Display P3 and other RGB spaces kept with the controls in their linear light, or
/// converted to sRGB, Display P3 or a profile file; pixel values checked against the math.
@Suite struct OutputProfileTests {
  /// Linear sRGB from linear Display P3 (both D65).
  static let srgbFromP3: [SIMD3<Double>] = [
    [1.224_940, -0.224_940, 0], [-0.042_057, 1.042_057, 0], [-0.019_638, -0.078_636, 1.098_274],
  ]
  /// Linear Display P3 from linear sRGB.
  static let p3FromSRGB: [SIMD3<Double>] = [
    [0.822_462, 0.177_538, 0], [0.033_194, 0.966_806, 0], [0.017_083, 0.072_397, 0.910_520],
  ]
  /// Adobe RGB (1998)'s tone curve exponent (563/256, as its profile stores it).
  static let adobeGamma = 563.0 / 256

  /// Saturated P3 colours (its primaries, an orange and a green beyond sRGB) and greys, as P3 codes.
  static let colours: [[UInt8]] = [
    [150, 0, 0], [0, 140, 0], [0, 0, 170], [230, 120, 0], [40, 200, 60], [90, 90, 90],
    [180, 180, 180],
  ]

  static func multiply(_ matrix: [SIMD3<Double>], _ value: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(
      (matrix[0] * value).sum(), (matrix[1] * value).sum(), (matrix[2] * value).sum())
  }

  static func linear(_ pixel: [UInt8]) -> SIMD3<Double> {
    SIMD3(pixel.map { ContractFormulas.decode(Double($0) / 255) })
  }

  static func codes(_ light: SIMD3<Double>) -> [Int] {
    [light.x, light.y, light.z].map { ContractFormulas.code8(ContractFormulas.encode(max(0, $0))) }
  }

  /// A file of `colours` (one pixel each), tagged with `profile` (none when nil).
  static func picture(_ colours: [[UInt8]], profile: Data?, in folder: URL, name: String) throws
    -> String
  {
    let path = folder.appendingPathComponent(name).path
    var image = try Image.fromPixels(
      Array(colours.joined()), width: colours.count, height: 1, bands: 3)
    if let profile {
      image = try image.editingMetadata { $0.setBlob(Image.iccProfileField, profile) }
    }
    try image.write(to: path)
    return path
  }

  static func written(_ path: String) throws -> (pixels: [[Int]], profile: Data) {
    let image = try Image(contentsOf: path)
    let bytes = try image.pixelBytes().map(Int.init)
    return (
      stride(from: 0, to: bytes.count, by: 3).map { Array(bytes[$0..<($0 + 3)]) },
      try image.blob(Image.iccProfileField)
    )
  }

  static func worst(_ found: [[Int]], _ expected: [[Int]]) -> Int {
    zip(found, expected).flatMap { zip($0, $1).map { abs($0 - $1) } }.max() ?? 0
  }

  @Test func libvipsDisplayP3ProfileIsRecognisedByItsNumbers() throws {
    let p3 = try Vips.builtinICCProfile("p3")
    #expect(ICCProfile(p3)?.isDisplayP3 == true)
    #expect(ICCProfile(SRGBProfile.data)?.isDisplayP3 == false)
  }

  @Test func displayP3IsKeptWithExposureInLinearP3() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let p3 = try Vips.builtinICCProfile("p3")
    let input = try Self.picture(Self.colours, profile: p3, in: folder, name: "p3.png")
    let output = folder.appendingPathComponent("kept.png").path
    try StillRenderer().renderFile(at: input, to: output, state: ControlState(exposureBias: 1))
    let (pixels, profile) = try Self.written(output)
    #expect(profile == p3)
    // +1 EV doubles P3's linear light: the primaries stay primaries (no channel leaks in, as it would
    // after a trip through sRGB), so the colours beyond sRGB survive.
    let expected = Self.colours.map { Self.codes(2 * Self.linear($0)) }
    #expect(Self.worst(pixels, expected) <= 1, "\(pixels) vs \(expected)")
    #expect(pixels[0][1] == 0 && pixels[0][2] == 0)
  }

  /// Linear Display P3 from CIE XYZ (D65), as published for Display P3.
  static let p3FromXYZ: [SIMD3<Double>] = [
    [2.493_497, -0.931_384, -0.402_711], [-0.829_489, 1.762_664, 0.023_625],
    [0.035_846, -0.076_172, 0.956_885],
  ]

  @Test func whiteBalanceOnAKeptP3PhotoNeutralisesTheLightInP3Primaries() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let p3 = try Vips.builtinICCProfile("p3")
    let input = try Self.picture(Self.colours, profile: p3, in: folder, name: "p3.png")
    let output = folder.appendingPathComponent("tungsten.png").path
    try StillRenderer().renderFile(
      at: input, to: output, state: ControlState(whiteBalance: .kelvin(3000)))
    let (pixels, profile) = try Self.written(output)
    #expect(profile == p3)
    // The gains that make 3000 K light neutral, with that light expressed in linear P3.
    let xy = WhiteBalanceGains.chromaticity(kelvin: 3000)
    let light = Self.multiply(Self.p3FromXYZ, SIMD3(xy.x / xy.y, 1, (1 - xy.x - xy.y) / xy.y))
    let gains = SIMD3(light.y / light.x, 1, light.y / light.z)
    let expected = Self.colours.map { Self.codes(gains * Self.linear($0)) }
    #expect(Self.worst(pixels, expected) <= 1, "\(pixels) vs \(expected)")
    // The same light neutralised in sRGB primaries gives other codes: the P3 plan made these.
    let srgbGains = WhiteBalanceGains.gains(kelvin: 3000, tint: 0, primaries: .bt709)
    let inSRGBPrimaries = Self.colours.map { Self.codes(srgbGains * Self.linear($0)) }
    #expect(Self.worst(pixels, inSRGBPrimaries) >= 3, "\(pixels) vs \(inSRGBPrimaries)")
  }

  @Test(arguments: ImageFormat.allCases)
  func everyOutputFormatCarriesTheP3Profile(_ format: ImageFormat) throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let p3 = try Vips.builtinICCProfile("p3")
    let input = folder.appendingPathComponent("p3.png").path
    try RenderFixtures.patch([200, 40, 30], width: 16, height: 16)
      .editingMetadata { $0.setBlob(Image.iccProfileField, p3) }.write(to: input)
    let output = folder.appendingPathComponent("out.\(format.fileExtension)").path
    try StillRenderer().renderFile(at: input, to: output, state: ControlState(exposureBias: 0.5))
    #expect(try Image(contentsOf: output).blob(Image.iccProfileField) == p3, "\(format)")
  }

  @Test func profileSRGBConvertsP3AndClipsWhatSRGBCannotHold() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Self.picture(
      Self.colours, profile: try Vips.builtinICCProfile("p3"), in: folder, name: "p3.png")
    let output = folder.appendingPathComponent("srgb.png").path
    try StillRenderer().renderFile(
      at: input, to: output, state: ControlState(exposureBias: 1),
      options: StillOptions(profile: .srgb))
    let (pixels, profile) = try Self.written(output)
    #expect(StillInput.isSRGBProfile(profile))
    // Converted (8-bit sRGB, out-of-gamut channels clipped), then +1 EV in linear sRGB.
    let expected = Self.colours.map { colour -> [Int] in
      let converted = Self.codes(
        Self.multiply(Self.srgbFromP3, Self.linear(colour)).clamped(
          lowerBound: .zero, upperBound: .one))
      return Self.codes(2 * Self.linear(converted.map { UInt8($0) }))
    }
    #expect(Self.worst(pixels, expected) <= 2, "\(pixels) vs \(expected)")
    let kept = Self.colours.map { Self.codes(2 * Self.linear($0)) }
    #expect(Self.worst(pixels, kept) > 20)
  }

  @Test func profileP3ConvertsAnSRGBPictureAndEmbedsP3() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Self.picture(Self.colours, profile: nil, in: folder, name: "srgb.png")
    let output = folder.appendingPathComponent("p3.png").path
    try StillRenderer().renderFile(
      at: input, to: output, state: ControlState(), options: StillOptions(profile: .p3))
    let (pixels, profile) = try Self.written(output)
    #expect(ICCProfile(profile)?.isDisplayP3 == true)
    let expected = Self.colours.map { Self.codes(Self.multiply(Self.p3FromSRGB, Self.linear($0))) }
    #expect(Self.worst(pixels, expected) <= 2, "\(pixels) vs \(expected)")
    #expect(pixels[5] == [90, 90, 90])
  }

  /// rocket.jpg's Adobe RGB (1998) profile, written to a file.
  static func adobeRGB(in folder: URL) throws -> (path: String, data: Data) {
    let data = try Image(contentsOf: RenderFixtures.sample("rocket.jpg")).blob(
      Image.iccProfileField)
    let path = folder.appendingPathComponent("AdobeRGB.icc").path
    try data.write(to: URL(fileURLWithPath: path))
    return (path, data)
  }

  @Test func adobeRGBIsKeptInItsOwnSpaceWithExposureInLinearLight() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let adobe = try Self.adobeRGB(in: folder)
    let greys: [[UInt8]] = [[20, 20, 20], [60, 60, 60], [100, 100, 100], [150, 150, 150]]
    let input = try Self.picture(greys, profile: adobe.data, in: folder, name: "adobe.jpg")
    let output = folder.appendingPathComponent("kept.png").path
    try StillRenderer().renderFile(at: input, to: output, state: ControlState(exposureBias: 1))
    let (pixels, profile) = try Self.written(output)
    #expect(profile == adobe.data)
    let source = try Self.written(input).pixels
    // Twice the light of Adobe RGB's pure power curve: code × 2^(1/γ).
    let expected = source.map {
      $0.map { Int((Double($0) * pow(2, 1 / Self.adobeGamma)).rounded()) }
    }
    #expect(Self.worst(pixels, expected) <= 2, "\(pixels) vs \(expected)")
  }

  @Test func aProfileFileConvertsIntoItAndIsEmbedded() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let adobe = try Self.adobeRGB(in: folder)
    let colours: [[UInt8]] = [[200, 0, 0], [0, 0, 200], [60, 60, 60], [160, 160, 160]]
    let input = try Self.picture(colours, profile: nil, in: folder, name: "srgb.png")
    let output = folder.appendingPathComponent("adobe.png").path
    let profile = try OutputProfile(argument: adobe.path)
    try StillRenderer().renderFile(
      at: input, to: output, state: ControlState(), options: StillOptions(profile: profile))
    let (pixels, embedded) = try Self.written(output)
    #expect(embedded == adobe.data)
    // Linear Adobe RGB from linear sRGB keeps red's green and blue at zero; greys stay grey.
    let adobeFromSRGB: [SIMD3<Double>] = [[0.7152, 0.2848, 0], [0, 1, 0], [0, 0.0412, 0.9588]]
    let expected = colours.map { colour in
      let light = Self.multiply(adobeFromSRGB, Self.linear(colour))
      return [light.x, light.y, light.z].map {
        Int((255 * pow(max(0, $0), 1 / Self.adobeGamma)).rounded())
      }
    }
    #expect(Self.worst(pixels, expected) <= 2, "\(pixels) vs \(expected)")
  }

  @Test func anUntaggedGreyPictureIsConvertedIntoAProfileFileAsRGB() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let adobe = try Self.adobeRGB(in: folder)
    let levels: [UInt8] = [30, 90, 150, 210]
    let input = folder.appendingPathComponent("grey.png").path
    try Operation.call(
      "copy",
      [
        "in": .image(try Image.fromPixels(levels, width: 4, height: 1, bands: 1)),
        "interpretation": "b-w",
      ]
    ).image().write(to: input)
    let output = folder.appendingPathComponent("adobe.png").path
    try StillRenderer().renderFile(
      at: input, to: output, state: ControlState(),
      options: StillOptions(profile: try OutputProfile(argument: adobe.path)))
    let (pixels, embedded) = try Self.written(output)
    #expect(embedded == adobe.data)
    // Grey is taken as sRGB grey: the same light, in Adobe RGB's pure power curve.
    let expected = levels.map { level -> [Int] in
      let code = Int(
        (255 * pow(ContractFormulas.decode(Double(level) / 255), 1 / Self.adobeGamma)).rounded())
      return [code, code, code]
    }
    #expect(Self.worst(pixels, expected) <= 2, "\(pixels) vs \(expected)")
  }

  @Test func profileArgumentsAreCheckedWithClearErrors() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try OutputProfile(argument: "P3") == .p3)
    #expect(try OutputProfile(argument: "keep") == .keep)
    #expect(
      throws: RenderError(
        "'wide' is not a profile: give keep, srgb, p3 or the path of an .icc file")
    ) {
      try OutputProfile(argument: "wide")
    }
    let missing = folder.appendingPathComponent("none.icc").path
    #expect(throws: RenderError("\(missing): cannot read the ICC profile")) {
      try OutputProfile(argument: missing)
    }
    let cmyk = folder.appendingPathComponent("cmyk.icc")
    try Vips.builtinICCProfile("cmyk").write(to: cmyk)
    #expect(
      throws: RenderError(
        "\(cmyk.path): a CMYK profile; FrameDial writes RGB outputs only, so --profile takes an RGB profile"
      )
    ) {
      try OutputProfile(argument: cmyk.path)
    }
    // An RGB input profile with only a device-to-connection table cannot be converted into.
    var header = [UInt8](repeating: 0, count: 132)
    header.replaceSubrange(12..<24, with: Array("scnrRGB XYZ ".utf8))
    header.replaceSubrange(36..<40, with: Array("acsp".utf8))
    let inputOnly = folder.appendingPathComponent("scanner.icc")
    try Data(header).write(to: inputOnly)
    #expect(
      throws: RenderError(
        "\(inputOnly.path): pictures cannot be converted into this profile: it has neither RGB "
          + "colorants and tone curves nor a relative colorimetric table from the connection "
          + "space (B2A1)")
    ) {
      try OutputProfile(argument: inputOnly.path)
    }
    let text = folder.appendingPathComponent("text.icc")
    try Data("not a profile".utf8).write(to: text)
    #expect(throws: RenderError("\(text.path): not an ICC profile")) {
      try OutputProfile(argument: text.path)
    }
  }

  @Test func theProfileAndMetadataChoicesArePartOfABatchsSettings() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let adobe = try Self.adobeRGB(in: folder)
    let choices: [StillOptions] = [
      StillOptions(), StillOptions(profile: .srgb), StillOptions(profile: .p3),
      StillOptions(profile: try OutputProfile(argument: adobe.path)),
      StillOptions(metadata: .strip), StillOptions(metadata: .stripLocation),
    ]
    let ids = try choices.map { try RenderSettings(state: ControlState(), options: $0).id }
    #expect(Set(ids).count == choices.count)
  }
}
