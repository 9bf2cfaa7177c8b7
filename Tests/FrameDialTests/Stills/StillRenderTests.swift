import Controls
import Foundation
import ImageMathContract
import Testing
import Vips

@testable import FrameDial

@Suite struct StillRenderTests {
  let renderer = StillRenderer()

  func render(_ image: Image, _ state: ControlState) throws -> [UInt8] {
    try renderer.render(image, state: state).pixelBytes()
  }

  @Test func exposurePlusOneEVOnMidGreyFollowsTheFormula() throws {
    let rendered = try render(RenderFixtures.patch([118, 118, 118]), ControlState(exposureBias: 1))
    let expected = ContractFormulas.code8(
      ContractFormulas.encode(2 * ContractFormulas.decode(118 / 255)))
    #expect(rendered.allSatisfy { abs(Int($0) - expected) <= 1 })
  }

  @Test(arguments: WhiteBalancePreset.allCases)
  func whiteBalancePresetsOnGreyFollowTheFormula(preset: WhiteBalancePreset) throws {
    let rendered = try render(
      RenderFixtures.patch([128, 128, 128]), ControlState(whiteBalance: .preset(preset)))
    let gains = ContractFormulas.whiteBalanceGains(kelvin: preset.kelvin, tint: 0)
    let linear = ContractFormulas.decode(128 / 255)
    for channel in 0..<3 {
      let expected = ContractFormulas.code8(
        ContractFormulas.encode(max(0, linear * gains[channel])))
      #expect(abs(Int(rendered[channel]) - expected) <= 1, "\(preset) channel \(channel)")
    }
  }

  @Test(arguments: [2000.0, 3200, 5000, 6504, 9000, 20000])
  func kelvinOnGreyFollowsTheFormula(kelvin: Double) throws {
    let rendered = try render(
      RenderFixtures.patch([150, 150, 150]), ControlState(whiteBalance: .kelvin(kelvin), tint: 30))
    let gains = ContractFormulas.whiteBalanceGains(kelvin: kelvin, tint: 30)
    let linear = ContractFormulas.decode(150 / 255)
    for channel in 0..<3 {
      let expected = ContractFormulas.code8(
        ContractFormulas.encode(max(0, linear * gains[channel])))
      #expect(abs(Int(rendered[channel]) - expected) <= 1, "\(kelvin) K channel \(channel)")
    }
  }

  @Test func saturationZeroGivesLumaGrey() throws {
    let rendered = try render(RenderFixtures.patch([200, 80, 40]), ControlState(saturation: 0))
    let linear = SIMD3(
      ContractFormulas.decode(200 / 255), ContractFormulas.decode(80 / 255),
      ContractFormulas.decode(40 / 255))
    let expected = ContractFormulas.code8(ContractFormulas.encode(ContractFormulas.luma(linear)))
    #expect(rendered[0] == rendered[1] && rendered[1] == rendered[2])
    #expect(abs(Int(rendered[0]) - expected) <= 1)
  }

  @Test func contrastPivotsAroundMidGrey() throws {
    let state = ControlState(contrast: 1.5)
    for level in [0, 64, 127, 128, 191, 255] {
      let rendered = try render(
        RenderFixtures.patch([UInt8(level), UInt8(level), UInt8(level)]), state)
      let expected = ContractFormulas.code8((Double(level) / 255 - 0.5) * 1.5 + 0.5)
      #expect(abs(Int(rendered[0]) - expected) <= 1, "level \(level)")
    }
  }

  @Test func filtersKeepTheirDefiningPropertiesThroughLibvips() throws {
    let colour = try RenderFixtures.patch([180, 120, 60])
    let grey = try RenderFixtures.patch([120, 120, 120])
    let mono = try render(colour, ControlState(filter: .mono))
    #expect(mono[0] == mono[1] && mono[1] == mono[2])
    let sepia = try render(grey, ControlState(filter: .sepia))
    #expect(sepia[0] > sepia[1] && sepia[1] > sepia[2])
    let vivid = try render(colour, ControlState(filter: .vivid))
    #expect(Int(vivid[0]) - Int(vivid[2]) > 180 - 60)
    let fade = try render(try RenderFixtures.patch([0, 0, 0]), ControlState(filter: .fade))
    #expect(fade[0] > 0)
  }

  @Test func optimizedAndUnoptimizedGraphsAgreeWithinOneCodeOnEveryLevel() throws {
    let pixels = RenderFixtures.sweepPixels(randomCount: 4000)
    let image = try Image.fromPixels(pixels, width: pixels.count / 3, height: 1, bands: 3)
    let states = [
      ControlState(exposureBias: 0.5, contrast: 1.2, whiteBalance: .preset(.tungsten)),
      ControlState(
        exposureBias: 0.5, contrast: 1.2, saturation: 1.3, whiteBalance: .preset(.tungsten)),
      ControlState(
        exposureBias: -1.5, contrast: 0.4, saturation: 1.8, whiteBalance: .kelvin(9000), tint: -60),
      ControlState(filter: .vivid), ControlState(filter: .noir), ControlState(filter: .instant),
      ControlState(contrast: 2, filter: .chrome), ControlState(exposureBias: 3, saturation: 0.2),
    ]
    for state in states {
      let optimized = try renderer.render(image, state: state).pixelBytes()
      let unoptimized = try renderer.render(
        image, state: state, options: StillOptions(optimized: false)
      ).pixelBytes()
      #expect(RenderFixtures.maxDifference(optimized, unoptimized) <= 1, "\(state)")
      // And both against the double-precision definition.
      let plan = Plan(compiling: state)
      for index in stride(from: 0, to: pixels.count, by: 3) {
        let input =
          SIMD3(Double(pixels[index]), Double(pixels[index + 1]), Double(pixels[index + 2])) / 255
        let exact = plan.recipe.evaluate(input)
        for channel in 0..<3 {
          let expected = ContractFormulas.code8(exact[channel])
          #expect(abs(Int(optimized[index + channel]) - expected) <= 1)
        }
      }
    }
  }

  @Test(arguments: RenderFixtures.sampleNames)
  func identityIsBitExactOnEverySample(name: String) throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.png").path
    try renderer.renderFile(at: RenderFixtures.sample(name), to: output, state: .identity)
    let written = try RenderFixtures.pixels(of: output)
    let original = try RenderFixtures.pixels(of: RenderFixtures.sample(name))
    #expect(written.width == original.width && written.height == original.height)
    // Compared outside #expect, which would diff megabytes element by element on failure.
    let identical = written.bytes == original.bytes
    #expect(
      identical, "max difference \(RenderFixtures.maxDifference(written.bytes, original.bytes))")
  }

  @Test func exifRotatedSampleIsWrittenUprightWithOrientationOne() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("upright.jpg").path
    try renderer.renderFile(
      at: RenderFixtures.sample("rocket_exif_rotated.jpg"), to: output,
      state: ControlState(contrast: 1.1))
    let written = try Image(contentsOf: output)
    #expect(written.width == 640 && written.height == 427)
    #expect(written.orientation == 1)
    #expect(written.hasField(Image.exifField))
    #expect(written.hasICCProfile)
  }

  @Test func exifAndXMPAreKept() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let xmp = Data(
      #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>FrameDial test</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>"#
        .utf8)
    let source = try Image(contentsOf: RenderFixtures.sample("rocket_exif_rotated.jpg"))
      .editingMetadata { $0.setBlob(Image.xmpField, xmp) }
    let input = folder.appendingPathComponent("tagged.jpg").path
    try source.write(to: input)
    let output = folder.appendingPathComponent("out.jpg").path
    try renderer.renderFile(at: input, to: output, state: ControlState(exposureBias: 0.2))
    let written = try Image(contentsOf: output)
    let keptXMP = String(decoding: try written.blob(Image.xmpField), as: UTF8.self)
    #expect(keptXMP.contains("FrameDial test"))
    let exif = try written.blob(Image.exifField)
    #expect(exif.count > 100)
    #expect(try written.int("orientation") == 1)
  }

  @Test func adobeRGBIsKeptByDefaultAndConvertedToSRGBWithProfileSRGB() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    // rocket.jpg carries Adobe RGB (1998).
    let source = try Image(contentsOf: RenderFixtures.sample("rocket.jpg"))
    let adobe = try source.blob(Image.iccProfileField)
    #expect(!StillInput.isSRGBProfile(adobe))
    let kept = folder.appendingPathComponent("kept.png").path
    try renderer.renderFile(
      at: RenderFixtures.sample("rocket.jpg"), to: kept, state: ControlState(contrast: 1.01))
    #expect(try Image(contentsOf: kept).blob(Image.iccProfileField) == adobe)
    let output = folder.appendingPathComponent("rocket.png").path
    try renderer.renderFile(
      at: RenderFixtures.sample("rocket.jpg"), to: output, state: ControlState(contrast: 1.01),
      options: StillOptions(profile: .srgb))
    let written = try Image(contentsOf: output)
    #expect(StillInput.isSRGBProfile(try written.blob(Image.iccProfileField)))
  }

  @Test func alphaIsCarriedUntouched() throws {
    var pixels: [UInt8] = []
    for index in 0..<64 { pixels += [UInt8(index * 3), 90, 200, UInt8(255 - index * 4)] }
    let image = try Image.fromPixels(pixels, width: 8, height: 8, bands: 4)
    let rendered = try render(image, ControlState(exposureBias: 1, saturation: 1.5))
    #expect(rendered.count == pixels.count)
    for index in 0..<64 { #expect(rendered[index * 4 + 3] == pixels[index * 4 + 3]) }
    #expect(rendered[4] != pixels[4])
  }

  @Test func greyStaysGreyWhileStagesTreatChannelsAlike() throws {
    let grey = try Operation.call(
      "copy",
      [
        "in": .image(
          Image.fromPixels((0..<64).map { UInt8($0 * 4) }, width: 8, height: 8, bands: 1)),
        "interpretation": "b-w",
      ]
    ).image()
    let brighter = try renderer.render(grey, state: ControlState(exposureBias: 1, filter: .noir))
    #expect(brighter.bands == 1)
    let bytes = try brighter.pixelBytes()
    // Noir: grey in linear light, then the curve (0,0) (0.25,0.16) (0.75,0.84) (1,1) on encoded values.
    func noirCurve(_ v: Double) -> Double {
      v <= 0.25 ? v * 0.64 : v <= 0.75 ? 0.16 + (v - 0.25) * 1.36 : 0.84 + (v - 0.75) * 0.64
    }
    for index in [0, 7, 20, 40, 63] {
      let encoded = ContractFormulas.encode(2 * ContractFormulas.decode(Double(index * 4) / 255))
      let expected = ContractFormulas.code8(noirCurve(encoded))
      #expect(abs(Int(bytes[index]) - expected) <= 1, "level \(index * 4)")
    }
    let warm = try renderer.render(grey, state: ControlState(whiteBalance: .preset(.tungsten)))
    #expect(warm.bands == 3)
  }

  @Test func sixteenBitInputStaysSixteenBitInPNG() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let levels: [UInt8] = (0..<48).map { UInt8($0 * 5) }
    let eight = try Image.fromPixels(levels, width: 4, height: 4, bands: 3)
    let sixteen = try Operation.call(
      "copy",
      ["in": .image(try eight.linear([257], [0]).cast(to: .ushort)), "interpretation": "rgb16"]
    ).image()
    let input = folder.appendingPathComponent("in16.png").path
    try sixteen.write(to: input)
    let output = folder.appendingPathComponent("out16.png").path
    try renderer.renderFile(at: input, to: output, state: ControlState(exposureBias: 1))
    let written = try Image(contentsOf: output)
    #expect(written.format == .ushort)
    let bytes = try written.pixelBytes()
    for index in 0..<48 {
      let value = Int(bytes[index * 2]) | Int(bytes[index * 2 + 1]) << 8
      let exact = ContractFormulas.encode(2 * ContractFormulas.decode(Double(levels[index]) / 255))
      let expected = Int(floor(min(max(exact, 0), 1) * 65535 + 0.5))
      #expect(abs(value - expected) <= 1, "level \(levels[index]): \(value) vs \(expected)")
    }
  }

  @Test func heicInAndOut() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("coffee.heic").path
    let result = try renderer.renderFile(
      at: RenderFixtures.sample("coffee.heic"), to: output, state: ControlState(filter: .mono),
      options: StillOptions(quality: 85))
    #expect(result.format == .heic)
    let written = try Image(contentsOf: output)
    #expect(written.loader == "heifload")
    #expect(written.width == 600 && written.height == 400)
    let bytes = try written.pixelBytes()
    let spread = stride(from: 0, to: bytes.count, by: 3).map {
      max(bytes[$0], bytes[$0 + 1], bytes[$0 + 2]) - min(bytes[$0], bytes[$0 + 1], bytes[$0 + 2])
    }
    // Mono survives HEIC's chroma subsampling: channels stay within a few codes of each other.
    #expect(Double(spread.map(Int.init).reduce(0, +)) / Double(spread.count) < 3)
  }

  @Test func zoomEnlargesTheOffCentreWindow() throws {
    // Columns encode x: a 2× zoom centred at x = 0.25 shows columns 0 … 24 of a 49-wide image.
    let width = 49
    let height = 9
    var pixels: [UInt8] = []
    for _ in 0..<height { for x in 0..<width { pixels += [UInt8(x * 5), 100, 100] } }
    let image = try Image.fromPixels(pixels, width: width, height: height, bands: 3)
    let state = ControlState(zoom: 2, zoomCenter: ZoomCenter(x: 0.25, y: 0.5))
    let window = ZoomWindow(
      imageWidth: width, imageHeight: height, zoom: 2, center: state.zoomCenter)
    #expect(window.width == 24.5 && window.height == 4.5)  // 49 / 2 and 9 / 2, not rounded
    #expect(window.left == 0)
    for kernel in ZoomKernel.allCases {
      let bytes = try renderer.render(
        image, state: state, options: StillOptions(zoomKernel: kernel)
      )
      .pixelBytes()
      let row = height / 2
      let first = Int(bytes[(row * width) * 3])
      let last = Int(bytes[(row * width + width - 1) * 3])
      #expect(first <= 2, "\(kernel): left edge \(first)")
      #expect(abs(last - 24 * 5) <= 2, "\(kernel): right edge \(last)")
      // The centre output column samples the window's centre: left + (24 + 0.5) · 24.5 / 49 − 0.5.
      let centre = Int(bytes[(row * width + width / 2) * 3])
      #expect(abs(centre - Int((window.left + 24.5 * window.width / 49 - 0.5) * 5)) <= 3)
    }
  }

  @Test func autoWhiteBalanceNeutralisesACast() throws {
    var pixels: [UInt8] = []
    for index in 0..<400 {
      let level = 40 + (index % 20) * 8
      pixels += [UInt8(min(255, level + 40)), UInt8(level), UInt8(max(0, level - 30))]
    }
    let image = try Image.fromPixels(pixels, width: 20, height: 20, bands: 3)
    let gains = try AutoWhiteBalance.gains(of: image, sampleWidth: 512)
    #expect(gains.x < 1 && gains.z > 1)
    let balanced = try render(image, ControlState(whiteBalance: .auto))
    // Grey world: the linear means of the three channels come out (nearly) equal.
    var sums = SIMD3<Double>(repeating: 0)
    for index in stride(from: 0, to: balanced.count, by: 3) {
      sums += SIMD3(
        ContractFormulas.decode(Double(balanced[index]) / 255),
        ContractFormulas.decode(Double(balanced[index + 1]) / 255),
        ContractFormulas.decode(Double(balanced[index + 2]) / 255))
    }
    #expect(abs(sums.x - sums.y) / sums.y < 0.02)
    #expect(abs(sums.z - sums.y) / sums.y < 0.02)
  }
}
