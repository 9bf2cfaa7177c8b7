import Foundation
import HEIF
import TestSupport
import Testing

/// iPhone HEICs' HDR gain maps on the command line: `info` reports the gain map and its headroom,
/// against exiftool's reading of the same files (the auxiliary image's type, Apple's maker note tags
/// 33 and 48, with Apple's rule applied here), and none for a photo without one; a HEIC of the
/// photo keeps it, edited with the photo (`GainMapEditCLITests`), and another format says it has none.
@Suite struct HDRGainMapCLITests {
  /// `exiftool -s3 -n TAGS… PATH`: one value a line.
  static func exiftool(_ tags: [String], _ path: String) throws -> [String] {
    let result = try CLIRunner.run(
      ["exiftool", "-s3", "-n"] + tags + [path], executable: URL(fileURLWithPath: "/usr/bin/env"))
    return result.standardOutput.split(separator: "\n").map(String.init)
  }

  /// Apple's headroom in stops from its maker note's tags 33 and 48.
  static func stops(_ tag33: Double, _ tag48: Double) -> Double {
    let stops =
      tag33 < 1
      ? (tag48 <= 0.01 ? -20 * tag48 + 1.8 : -0.101 * tag48 + 1.601)
      : (tag48 <= 0.01 ? -70 * tag48 + 3 : -0.303 * tag48 + 2.303)
    return max(stops, 0)
  }

  @Test(
    .enabled(if: RealFiles.available),
    arguments: ["heif/iphone_13_pro_max.HEIC", "heif/Apple_iPhone14.HEIC", "heif/IMG_5195.HEIC"])
  func theGainMapAndHeadroomAreExiftoolsReading(name: String) throws {
    let path = RealFiles.path(name)
    let result = try CLIRunner.run(["info", "--json", path])
    #expect(result.status == 0, "\(result.standardError)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    let type = try Self.exiftool(["-AuxiliaryImageType"], path)
    guard type == ["urn:com:apple:photo:2020:aux:hdrgainmap"] else {
      #expect(object["hdrGainMap"] is NSNull, "\(name): no gain map, so none reported")
      #expect(!(try CLIRunner.run(["info", path]).standardOutput.contains("gain map")))
      return
    }
    let map = try #require(object["hdrGainMap"] as? [String: Any], "\(name)")
    #expect(map["kind"] as? String == "apple")
    let (width, height) = (object["width"] as? Int ?? 0, object["height"] as? Int ?? 0)
    let (mapWidth, mapHeight) = (map["width"] as? Int ?? 0, map["height"] as? Int ?? 0)
    // A gain map is the photo's size or smaller, of the photo's shape.
    #expect(mapWidth > 0 && mapWidth <= width && mapHeight > 0 && mapHeight <= height)
    #expect(abs(Double(mapWidth * height) / Double(mapHeight * width) - 1) < 0.01)
    #expect(map["bitDepth"] as? Int == 8)
    let tags = try Self.exiftool(["-HDRHeadroom", "-HDRGain"], path).compactMap(Double.init)
    try #require(tags.count == 2, "\(name): exiftool reads \(tags)")
    let expected = Self.stops(tags[0], tags[1])
    let stops = try #require(map["headroomStops"] as? Double)
    #expect(
      abs(stops - expected) < 1e-6, "\(name): \(stops) stops, exiftool's tags give \(expected)")
    #expect(abs((map["headroom"] as? Double ?? 0) - pow(2, expected)) < 1e-5)
    let line = try CLIRunner.run(["info", path]).standardOutput
    #expect(
      line.contains(
        "HDR gain map (Apple, \(mapWidth)×\(mapHeight), headroom \(String(format: "%.2f", expected)) stops)"
      ),
      "\(line)")
  }

  @Test func aPhotoWithoutAGainMapReportsNone() throws {
    let result = try CLIRunner.run(["info", "--json", CLIRunner.sample("coffee.heic")])
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(object["loader"] as? String == "heifload")
    #expect(object["hdrGainMap"] is NSNull)
  }

  /// An unedited HEIC of an iPhone's HDR photo carries its gain map: Apple's type and version, the
  /// headroom, the map's samples within a few codes (quality 75, see
  /// `StillRenderer.gainMapQuality`); with `--size`, a map of the output's proportion. (Both photos
  /// are 3024 × 4032 with a 1512 × 2016 map.)
  @Test(
    .enabled(if: RealFiles.available),
    arguments: ["heif/iphone_13_pro_max.HEIC", "heif/Apple_iPhone14.HEIC"])
  func anUneditedHEICKeepsTheGainMap(name: String) throws {
    let scratch = try CLIRunner.scratchFolder("gain-map-keep")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let iphone = RealFiles.path(name)
    let output = scratch.appendingPathComponent("kept.heic").path
    let result = try CLIRunner.run(["apply", iphone, "-o", output])
    #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
    let tags = ["-AuxiliaryImageType", "-HDRGainMapVersion", "-HDRHeadroom", "-HDRGain"]
    #expect(try Self.exiftool(tags, output) == (try Self.exiftool(tags, iphone)))
    let type = HEIFAuxiliaryImage.appleHDRGainMapType
    let original = try #require(try HEIFFile(path: iphone).decodeAuxiliaryImage(type: type))
    let kept = try #require(try HEIFFile(path: output).decodeAuxiliaryImage(type: type))
    #expect((kept.width, kept.height) == (original.width, original.height))
    let differences = zip(kept.samples, original.samples).map { abs(Int($0) - Int($1)) }
    let far = differences.filter { $0 > 2 }.count
    #expect(differences.max() ?? 255 <= 6 && far * 1000 < differences.count, "\(far) samples")
    #expect(
      Double(differences.reduce(0, +)) / Double(differences.count) < 0.25,
      "mean \(Double(differences.reduce(0, +)) / Double(differences.count))")

    let small = scratch.appendingPathComponent("small.heic").path
    let sized = try CLIRunner.run(["apply", iphone, "-o", small, "--size", "1008"])
    #expect(sized.status == 0, "\(sized.standardError)")
    let info = try CLIRunner.run(["info", small]).standardOutput
    #expect(info.contains("756×1008") && info.contains("HDR gain map (Apple, 378×504,"), "\(info)")
  }

  /// `apply` and `batch` name the gain map they leave behind, once a file, in a format that cannot
  /// hold it (an edited HEIC keeps it); a photo without one gets no such warning.
  @Test(.enabled(if: RealFiles.available))
  func anOutputWithoutTheGainMapSaysSo() throws {
    let scratch = try CLIRunner.scratchFolder("gain-map-edit")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let iphone = RealFiles.path("heif/iphone_13_pro_max.HEIC")
    let tags = try Self.exiftool(["-HDRHeadroom", "-HDRGain"], iphone).compactMap(Double.init)
    try #require(tags.count == 2)
    let headroom = String(format: "headroom %.2f stops", Self.stops(tags[0], tags[1]))
    for ext in ["jpg", "heic"] {
      let output = scratch.appendingPathComponent("edited.\(ext)").path
      let result = try CLIRunner.run(
        ["apply", iphone, "-o", output, "--size", "256", "--set", "ev=0.3"])
      #expect(result.status == 0, "\(result.standardError)")
      let warnings = result.standardError.split(separator: "\n").filter {
        $0.contains("HDR gain map")
      }
      #expect(
        warnings
          == (ext == "heic"
            ? []
            : [
              "framedial apply: warning: \(iphone): its HDR gain map (Apple, \(headroom)) was "
                + "not kept: the output is its SDR picture, which an HDR screen shows without the "
                + "brighter highlights (--format heic keeps it)"
            ]),
        "\(ext): \(result.standardError)")
    }
    let plain = try CLIRunner.run(
      [
        "apply", RealFiles.path("heif/IMG_5195.HEIC"), "-o",
        scratch.appendingPathComponent("plain.jpg").path, "--size", "256",
      ])
    #expect(
      plain.status == 0 && !plain.standardError.contains("gain map"), "\(plain.standardError)")
    let folder = scratch.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: iphone, toPath: folder.appendingPathComponent("photo.HEIC").path)
    let batch = try CLIRunner.run(
      [
        "batch", folder.path, "-o", scratch.appendingPathComponent("out").path, "--size", "128",
        "--format", "jpeg",
      ])
    #expect(batch.status == 0)
    #expect(
      (batch.standardOutput + batch.standardError).contains(
        "photo.HEIC: its HDR gain map (Apple, \(headroom)) was not kept"))
  }
}
