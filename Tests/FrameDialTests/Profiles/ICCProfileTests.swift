import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// "Is this profile sRGB?" is decided from the profile's numbers, never from its name.
@Suite struct ICCProfileTests {
  static let srgbRed: SIMD3<Double> = [0.4361, 0.2225, 0.0139]
  static let srgbGreen: SIMD3<Double> = [0.3851, 0.7169, 0.0971]
  static let srgbBlue: SIMD3<Double> = [0.1431, 0.0606, 0.7141]
  static let d65: SIMD3<Double> = [0.9505, 1.0, 1.0891]
  static let d50: SIMD3<Double> = [0.9642, 1.0, 0.8249]

  /// The tone curve tag of a profile built here.
  enum Curve {
    case gamma(Double)
    case srgbTable(Int)
    case srgbParametric
  }

  /// The bytes of a version 2 RGB matrix/TRC display profile, built tag by tag.
  static func profile(
    description: String, red: SIMD3<Double> = srgbRed, green: SIMD3<Double> = srgbGreen,
    blue: SIMD3<Double> = srgbBlue, white: SIMD3<Double> = d65, curve: Curve
  ) -> Data {
    func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    func u16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    func fixed(_ value: Double) -> [UInt8] {
      u32(UInt32(bitPattern: Int32((value * 65536).rounded())))
    }
    func padded(_ bytes: [UInt8]) -> [UInt8] {
      bytes + Array(repeating: 0, count: (4 - bytes.count % 4) % 4)
    }
    func xyz(_ value: SIMD3<Double>) -> [UInt8] {
      Array("XYZ ".utf8) + u32(0) + fixed(value.x) + fixed(value.y) + fixed(value.z)
    }
    let text = Array(description.utf8) + [0]
    let desc =
      Array("desc".utf8) + u32(0) + u32(UInt32(text.count)) + text + u32(0) + u32(0) + u16(0)
      + [0] + Array(repeating: 0, count: 67)
    let trc: [UInt8]
    switch curve {
    case .gamma(let gamma):
      trc = Array("curv".utf8) + u32(0) + u32(1) + u16(UInt16((gamma * 256).rounded()))
    case .srgbTable(let count):
      let entries = (0..<count).flatMap { index -> [UInt8] in
        let x = Double(index) / Double(count - 1)
        let linear = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        return u16(UInt16((linear * 65535).rounded()))
      }
      trc = Array("curv".utf8) + u32(0) + u32(UInt32(count)) + entries
    case .srgbParametric:
      trc =
        Array("para".utf8) + u32(0) + u16(3) + u16(0) + fixed(2.4) + fixed(1 / 1.055)
        + fixed(0.055 / 1.055) + fixed(1 / 12.92) + fixed(0.04045)
    }
    let tags: [(String, [UInt8])] = [
      ("desc", desc), ("wtpt", xyz(white)), ("rXYZ", xyz(red)), ("gXYZ", xyz(green)),
      ("bXYZ", xyz(blue)), ("rTRC", trc), ("gTRC", trc), ("bTRC", trc),
    ]
    var body: [UInt8] = []
    var table: [UInt8] = u32(UInt32(tags.count))
    let dataStart = 128 + 4 + 12 * tags.count
    for (signature, data) in tags {
      table += Array(signature.utf8) + u32(UInt32(dataStart + body.count)) + u32(UInt32(data.count))
      body += padded(data)
    }
    var header = u32(UInt32(dataStart + body.count)) + Array("lcms".utf8) + u32(0x0210_0000)
    header += Array("mntrRGB XYZ ".utf8) + Array(repeating: 0, count: 12) + Array("acsp".utf8)
    header += Array(repeating: 0, count: 24) + u32(0) + fixed(d50.x) + fixed(d50.y) + fixed(d50.z)
    header += Array(repeating: 0, count: 128 - header.count)
    return Data(header + table + body)
  }

  @Test func linearSRGBIsNotSRGB() {
    let linear = Self.profile(description: "Linear sRGB (gamma 1.0)", curve: .gamma(1))
    #expect(ICCProfile(linear) != nil)
    #expect(!StillInput.isSRGBProfile(linear))
  }

  @Test func srgbWhoseNameDoesNotSaySoIsSRGB() {
    for curve in [Curve.srgbParametric, .srgbTable(1024), .srgbTable(4096)] {
      let profile = Self.profile(description: "Camera RGB", curve: curve)
      #expect(StillInput.isSRGBProfile(profile), "\(curve)")
      let version4White = Self.profile(description: "Display", white: Self.d50, curve: curve)
      #expect(StillInput.isSRGBProfile(version4White), "\(curve) with a D50 white point")
    }
  }

  @Test func libvipsBuiltInSRGBIsSRGBAndItsP3IsNot() throws {
    #expect(StillInput.isSRGBProfile(SRGBProfile.data))
    #expect(!StillInput.isSRGBProfile(try Vips.builtinICCProfile("p3")))
  }

  @Test func displayP3PrimariesAreNotSRGBWhateverTheName() {
    let p3 = Self.profile(
      description: "sRGB IEC61966-2.1", red: [0.5151, 0.2412, -0.0011],
      green: [0.2920, 0.6922, 0.0419], blue: [0.1571, 0.0666, 0.7841], curve: .srgbParametric)
    #expect(!StillInput.isSRGBProfile(p3))
    #expect(ICCProfile(p3)?.isDisplayP3 == true)
    // Apple's "Display P3" is a version 4 profile: D50 media white, sRGB's parametric curve.
    let apple = Self.profile(
      description: "Display P3", red: [0.51512, 0.24120, -0.00105],
      green: [0.29198, 0.69225, 0.04189], blue: [0.15710, 0.06657, 0.78407], white: Self.d50,
      curve: .srgbParametric)
    #expect(ICCProfile(apple)?.isDisplayP3 == true)
    let gamma22 = Self.profile(
      description: "Display P3", red: [0.51512, 0.24120, -0.00105],
      green: [0.29198, 0.69225, 0.04189], blue: [0.15710, 0.06657, 0.78407], curve: .gamma(2.2))
    #expect(ICCProfile(gamma22)?.isDisplayP3 == false)
    #expect(
      ICCProfile(Self.profile(description: "Display P3", curve: .srgbParametric))?
        .isDisplayP3 == false)
  }

  @Test func gamma22AndDamagedProfilesAreNotSRGB() {
    #expect(!StillInput.isSRGBProfile(Self.profile(description: "sRGB", curve: .gamma(2.2))))
    let good = Self.profile(description: "sRGB", curve: .srgbParametric)
    #expect(!StillInput.isSRGBProfile(good.prefix(200)))
    #expect(!StillInput.isSRGBProfile(Data("sRGB".utf8)))
    #expect(!StillInput.isSRGBProfile(Data()))
  }

  @Test func aLinearTaggedImageIsConvertedToSRGBAndTaggedSRGBWithProfileSRGB() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // A grey ramp of linear-light values, so saturation leaves it alone and the expected output is the
    // sRGB encoding of each value.
    let levels = (0..<256).map { UInt8($0) }
    let pixels = levels.flatMap { [$0, $0, $0] }
    let linear = Self.profile(description: "Linear sRGB (gamma 1.0)", curve: .gamma(1))
    let input = folder.appendingPathComponent("linear.png").path
    try Image.fromPixels(pixels, width: 256, height: 1, bands: 3)
      .editingMetadata { $0.setBlob(Image.iccProfileField, linear) }.write(to: input)
    let output = folder.appendingPathComponent("out.png").path
    try StillRenderer().renderFile(
      at: input, to: output, state: ControlState(saturation: 1.2),
      options: StillOptions(profile: .srgb))
    let written = try Image(contentsOf: output)
    #expect(StillInput.isSRGBProfile(try written.blob(Image.iccProfileField)))
    let values = try written.pixelBytes()
    var worst = 0
    for level in 0..<256 {
      let expected = Int((ICCProfile.srgbEncoded(Double(level) / 255) * 255).rounded())
      for channel in 0..<3 { worst = max(worst, abs(Int(values[level * 3 + channel]) - expected)) }
    }
    #expect(worst <= 2, "largest difference \(worst) code values")
  }

  @Test func aLinearTaggedImageKeepsItsProfileAndLevelsByDefault() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Saturation leaves a grey ramp alone: the way through 16-bit P3 and back must too.
    let levels = (0..<256).map { UInt8($0) }
    let linear = Self.profile(description: "Linear sRGB (gamma 1.0)", curve: .gamma(1))
    let input = folder.appendingPathComponent("linear.png").path
    try Image.fromPixels(levels.flatMap { [$0, $0, $0] }, width: 256, height: 1, bands: 3)
      .editingMetadata { $0.setBlob(Image.iccProfileField, linear) }.write(to: input)
    let output = folder.appendingPathComponent("out.png").path
    try StillRenderer().renderFile(
      at: input, to: output, state: ControlState(saturation: 1.2))
    let written = try Image(contentsOf: output)
    #expect(try written.blob(Image.iccProfileField) == linear)
    let values = try written.pixelBytes()
    let worst = (0..<768).map { abs(Int(values[$0]) - $0 / 3) }.max() ?? 0
    #expect(worst <= 1, "largest difference \(worst) code values")
  }
}
