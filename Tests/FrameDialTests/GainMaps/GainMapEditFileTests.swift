import Controls
import Foundation
import HEIF
import ImageMathContract
import TestSupport
import Testing
import Vips

@testable import FrameDial

/// An edited HDR photo written as HEIC: its HDR rendition (the output's picture and gain map) is the
/// contract's edit of the input's HDR rendition, patch by patch below and above SDR white, and a zoom
/// takes the gain map's window with the photo's.
@Suite(.serialized) struct GainMapEditFileTests {
  let renderer = StillRenderer()

  /// The generated photos' headroom: the maker note's 1.72 stops.
  static let headroom = exp2(1.72)
  static let (width, height, side) = (240, 160, 40)
  /// Six patches a row: greys, then colours, each over a map of no gain and of much gain.
  static let greys: [SIMD3<Int>] = [40, 90, 140, 190, 230, 250].map { SIMD3(repeating: $0) }
  static let colours: [SIMD3<Int>] = [
    SIMD3(200, 150, 120), SIMD3(120, 160, 200), SIMD3(180, 60, 60), SIMD3(90, 170, 90),
    SIMD3(230, 220, 200), SIMD3(250, 245, 240),
  ]
  static let rows: [(colours: [SIMD3<Int>], map: Int)] = [
    (greys, 0), (greys, 255), (colours, 0), (colours, 200),
  ]

  /// Writes the patch photo at `path`: 6 × 4 flat patches of 40 × 40 pixels, a half-size map
  /// whose code is flat in each patch.
  static func writePatchPhoto(_ path: String) throws {
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    var map = [UInt8](repeating: 0, count: width / 2 * height / 2)
    for y in 0..<height {
      for x in 0..<width {
        let colour = rows[y / side].colours[x / side]
        for channel in 0..<3 { rgb[(y * width + x) * 3 + channel] = UInt8(colour[channel]) }
        if x % 2 == 0, y % 2 == 0 { map[(y / 2) * (width / 2) + x / 2] = UInt8(rows[y / side].map) }
      }
    }
    try HDRPhotos.write(
      path, width: width, height: height, rgb: rgb, samples: map,
      exif: AppleMakerNotes.hdrPhotoEXIF,
      mapXMP: GainMapKeepTests.mapXMP)
  }

  /// Each patch's mean linear light (SDR white 1) in the HDR rendition of the HEIC at `path`, from
  /// the middle 20 × 20 pixels of its picture and the middle 10 × 10 samples of its map, with the
  /// picture's own mean light.
  static func patchLight(_ path: String) throws -> [(sdr: SIMD3<Double>, hdr: SIMD3<Double>)] {
    let picture = try Image(contentsOf: path)
    let pixels = try picture.pixelBytes()
    let map = try #require(try GainMapKeepTests.map(path))
    try #require(picture.width == width && map.width == width / 2)
    var patches: [(SIMD3<Double>, SIMD3<Double>)] = []
    for row in 0..<rows.count {
      for column in 0..<6 {
        var (sdr, code) = (SIMD3<Double>.zero, 0.0)
        for y in (row * side + 10)..<(row * side + 30) {
          for x in (column * side + 10)..<(column * side + 30) {
            for channel in 0..<3 {
              sdr[channel] +=
                ContractFormulas.decode(
                  Double(pixels[(y * width + x) * picture.bands + channel]) / 255) / 400
            }
          }
        }
        for y in (row * side / 2 + 5)..<(row * side / 2 + 15) {
          for x in (column * side / 2 + 5)..<(column * side / 2 + 15) {
            code += Double(map.samples[y * map.width + x]) / 100
          }
        }
        let gain = ContractFormulas.bt709InverseOETF(code / 255)
        patches.append((sdr, sdr * (1 + (headroom - 1) * gain)))
      }
    }
    return patches
  }

  @Test func anEditedHEICsHDRRenditionIsTheEditOfTheInputs() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("patches.heic").path
    try Self.writePatchPhoto(input)
    let output = folder.appendingPathComponent("edited.heic").path
    let state = ControlState(
      exposureBias: 0.3, contrast: 1.2, saturation: 1.3, whiteBalance: .preset(.tungsten))
    let result = try renderer.renderFile(at: input, to: output, state: state)
    #expect(result.warnings == [], "\(result.warnings)")
    #expect(try HDRGainMap.read(heifAt: output) == HDRGainMap.read(heifAt: input))
    #expect(try GainMapKeepTests.map(output)?.xmp == GainMapKeepTests.mapXMP)

    let gains = ContractFormulas.whiteBalanceGains(kelvin: 2850, tint: 0)
    let luma = SIMD3(0.2126, 0.7152, 0.0722)
    func edited(_ light: SIMD3<Double>, top: Double) -> SIMD3<Double> {
      ContractFormulas.edited(
        light, ev: 0.3, gains: gains, saturation: 1.3, contrast: 1.2, luma: luma, top: top)
    }
    var (worstLight, worstCode, kept, above, carried) = (0.0, 0.0, 0.0, 0, 0)
    for (before, after) in zip(try Self.patchLight(input), try Self.patchLight(output)) {
      let sdr = edited(before.sdr, top: 1)
      let sdrLight = (sdr * luma).sum()
      // What a gain map carries: HDR light between the SDR picture's and the headroom times it.
      let wanted = (edited(before.hdr, top: Self.headroom) * luma).sum()
      let light = min(max(wanted, sdrLight), Self.headroom * sdrLight)
      above += light > 1 ? 1 : 0
      carried += light == wanted ? 1 : 0
      worstLight = max(worstLight, abs((after.hdr * luma).sum() - light) / light)
      for channel in 0..<3 {
        let code = { (light: SIMD3<Double>) in ContractFormulas.encode(light[channel]) * 255 }
        worstCode = max(worstCode, abs(code(after.sdr) - code(sdr)))
      }
      // The input's map kept as it was, under the edited picture.
      let unchanged = after.sdr * (before.hdr / before.sdr)
      kept = max(kept, abs((unchanged * luma).sum() - light) / light)
    }
    #expect(above >= 8, "\(above) patches above SDR white")
    #expect(
      carried >= 16,
      "only \(carried) patches' HDR light fits between 1 and \(Self.headroom)× the SDR light's")
    #expect(worstLight <= 0.02, "a patch's HDR light is \(worstLight * 100) % off")
    #expect(worstCode <= 2, "a patch's SDR picture is \(worstCode) codes off")
    // The bound means something: the input's map under the edited picture misses by far more.
    #expect(kept > 0.15, "the unedited map is only \(kept * 100) % off")
  }

  @Test func aZoomTakesTheGainMapsWindowWithThePhotos() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    try GainMapKeepTests.writeHDRPhoto(input)
    let output = folder.appendingPathComponent("zoomed.heic").path
    let result = try renderer.renderFile(
      at: input, to: output,
      state: ControlState(zoom: 2, zoomCenter: ZoomCenter(x: 0.25, y: 0.75)))
    #expect(result.warnings == [], "\(result.warnings)")
    let map = try #require(try GainMapKeepTests.map(output))
    #expect((map.width, map.height) == (120, 80))
    // The input's ramps (2x + y at map pixel x, y) over the window of 60 × 40 map pixels around
    // (30, 60), from (0, 40): output sample X reads the input at x = (X + 0.5) / 2 − 0.5.
    var worst = 0.0
    for y in stride(from: 4, to: 76, by: 6) {
      for x in stride(from: 4, to: 116, by: 6) {
        let (sourceX, sourceY) = ((Double(x) + 0.5) / 2 - 0.5, 40 + (Double(y) + 0.5) / 2 - 0.5)
        let expected = 2 * sourceX + sourceY
        worst = max(worst, abs(Double(map.samples[y * 120 + x]) - expected))
      }
    }
    #expect(worst <= 3, "a sample is \(worst) codes from the window's")
  }

  /// `--fit` scales and centre-crops the map as it does the photo: a 240 × 160 photo covering a
  /// 100 × 100 screen is scaled to 150 × 100 and cut to its middle; its 120 × 80 map to 75 × 50, cut
  /// to the middle 50 × 50.
  @Test func aFitScalesAndCropsTheGainMapWithThePhoto() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    try GainMapKeepTests.writeHDRPhoto(input)
    let output = folder.appendingPathComponent("fitted.heic").path
    let result = try renderer.renderFile(
      at: input, to: output, state: ControlState(exposureBias: 0.3),
      options: StillOptions(fit: ScreenFit(width: 100, height: 100)))
    #expect((result.width, result.height) == (100, 100))
    #expect(result.warnings == [], "\(result.warnings)")
    let map = try #require(try GainMapKeepTests.map(output))
    #expect((map.width, map.height) == (50, 50))
    // The edit brightens the map where the picture clips; the ramps' shape is checked unedited.
    let plain = folder.appendingPathComponent("fitted-plain.heic").path
    try renderer.renderFile(
      at: input, to: plain, state: ControlState(),
      options: StillOptions(fit: ScreenFit(width: 100, height: 100)))
    let ramps = try #require(try GainMapKeepTests.map(plain))
    var worst = 0.0
    for y in stride(from: 4, to: 46, by: 3) {
      for x in stride(from: 4, to: 46, by: 3) {
        let (sourceX, sourceY) = (
          (Double(x + 12) + 0.5) / 0.625 - 0.5, (Double(y) + 0.5) / 0.625 - 0.5
        )
        worst = max(worst, abs(Double(ramps.samples[y * 50 + x]) - (2 * sourceX + sourceY)))
      }
    }
    #expect(worst <= 3, "a sample is \(worst) codes from the fitted ramps'")
  }

  /// Without Apple's maker note the headroom is unknown: an unedited HEIC keeps the map as it is,
  /// an edited one is its SDR picture and says why.
  @Test func anEditWithoutAHeadroomLeavesTheGainMapAndSaysWhy() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("no-note.heic").path
    try HDRPhotos.write(input, width: 240, height: 160)
    let unedited = folder.appendingPathComponent("unedited.heic").path
    #expect(try renderer.renderFile(at: input, to: unedited, state: ControlState()).warnings == [])
    #expect(try GainMapKeepTests.map(unedited) != nil)

    let edited = folder.appendingPathComponent("edited.heic").path
    let result = try renderer.renderFile(
      at: input, to: edited, state: ControlState(exposureBias: 0.3))
    #expect(try GainMapKeepTests.map(edited) == nil)
    #expect(
      result.warnings == [
        "\(input): its HDR gain map (Apple) was not kept (no Apple maker note gives its "
          + "headroom, which an edit needs): the output is its SDR picture, which an HDR screen "
          + "shows without the brighter highlights"
      ])
  }

  /// `--profile p3` converts the picture before the controls: the map, in proportion to light, holds
  /// for the converted picture and is kept, unedited or edited; a profile file is another transfer,
  /// and the map is left behind with the warning.
  @Test func aConvertedColourSpaceKeepsTheGainMap() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    let original = try GainMapKeepTests.writeHDRPhoto(input)
    let p3 = folder.appendingPathComponent("p3.heic").path
    let result = try renderer.renderFile(
      at: input, to: p3, state: ControlState(), options: StillOptions(profile: .p3))
    #expect(result.warnings == [], "\(result.warnings)")
    let kept = try #require(try GainMapKeepTests.map(p3))
    let largest = GainMapKeepTests.largestDifference(kept.samples, original.samples)
    #expect(largest <= 2, "the kept map is \(largest) codes from the input's")
    #expect(try Image(contentsOf: p3).hasICCProfile)

    let edited = folder.appendingPathComponent("p3-edited.heic").path
    let editedResult = try renderer.renderFile(
      at: input, to: edited, state: ControlState(exposureBias: 0.3),
      options: StillOptions(profile: .srgb))
    #expect(editedResult.warnings == [], "\(editedResult.warnings)")
    #expect(try GainMapKeepTests.map(edited) != nil)

    let file = folder.appendingPathComponent("p3.icc")
    try Vips.builtinICCProfile("p3").write(to: file)
    let filed = folder.appendingPathComponent("filed.heic").path
    let filedResult = try renderer.renderFile(
      at: input, to: filed, state: ControlState(),
      options: StillOptions(profile: try OutputProfile(argument: file.path)))
    #expect(try GainMapKeepTests.map(filed) == nil)
    #expect(filedResult.warnings.count == 1)
    #expect(
      filedResult.warnings.first?.contains(
        "its HDR gain map (Apple, headroom 1.72 stops) was not kept") == true)
  }
}
