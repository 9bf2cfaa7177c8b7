import Controls
import Foundation
import HEIF
import TestSupport
import Testing
import Vips

@testable import FrameDial

/// An HDR photo's gain map through `apply`: a HEIC output of an unedited render keeps it (its samples,
/// its XMP, the headroom in the EXIF's Apple maker note), scaled with a `--size`; a stripped output,
/// or another format, leaves it behind and says so. (Edits: `GainMapEditFileTests`.)
@Suite(.serialized) struct GainMapKeepTests {
  let renderer = StillRenderer()

  /// The gain map's own XMP, as an iPhone writes its version.
  static let mapXMP = Data(
    """
    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
    <rdf:Description rdf:about="" xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/" \
    HDRGainMap:HDRGainMapVersion="65536"/></rdf:RDF></x:xmpmeta>
    """.utf8)

  /// Writes a 240 × 160 HDR HEIC at `path` (the coffee sample, an EXIF block whose Apple maker note
  /// gives a headroom of 1.8 − 20 · 0.004 = 1.72 stops, and a 120 × 80 gain map of smooth ramps) and
  /// returns its gain map as written.
  @discardableResult
  static func writeHDRPhoto(_ path: String) throws -> HEIFAuxiliaryPicture {
    try HDRPhotos.write(
      path, width: 240, height: 160,
      exif: AppleMakerNotes.hdrPhotoEXIF,
      mapXMP: mapXMP)
  }

  /// The gain map of the HEIF file at `path`, decoded.
  static func map(_ path: String) throws -> HEIFAuxiliaryPicture? {
    try HEIFFile(path: path).decodeAuxiliaryImage(type: HEIFAuxiliaryImage.appleHDRGainMapType)
  }

  static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    a.count == b.count ? zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0 : 255
  }

  @Test func anUneditedHEICKeepsTheGainMapItsXMPAndHeadroom() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    try Self.writeHDRPhoto(input)
    let original = try #require(try Self.map(input))
    let headroom = try #require(try HDRGainMap.read(heifAt: input))
    #expect(abs((headroom.headroomStops ?? 0) - 1.72) < 1e-9)

    let output = folder.appendingPathComponent("out.heic").path
    let result = try renderer.renderFile(at: input, to: output, state: ControlState())
    #expect(result.warnings == [], "\(result.warnings)")
    #expect(try HDRGainMap.read(heifAt: output) == headroom)
    let kept = try #require(try Self.map(output))
    #expect((kept.width, kept.height) == (120, 80))
    let largest = Self.largestDifference(kept.samples, original.samples)
    #expect(largest <= 2, "the kept map is \(largest) codes from the input's")
    #expect(kept.xmp == Self.mapXMP)
  }

  @Test func aSizedOutputScalesTheGainMapWithThePhoto() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    try Self.writeHDRPhoto(input)
    let original = try #require(try Self.map(input))
    let output = folder.appendingPathComponent("small.heic").path
    let result = try renderer.renderFile(
      at: input, to: output, state: ControlState(),
      options: StillOptions(size: SizeFit(width: 120, height: 120)))
    #expect((result.width, result.height) == (120, 80))
    let kept = try #require(try Self.map(output))
    #expect((kept.width, kept.height) == (60, 40))
    // The input's map halved: each sample near the mean of its 2 × 2 block.
    var halved = [UInt8](repeating: 0, count: 60 * 40)
    for y in 0..<40 {
      for x in 0..<60 {
        let sum = [0, 1, 120, 121].reduce(0) {
          $0 + Int(original.samples[(2 * y) * 120 + 2 * x + $1])
        }
        halved[y * 60 + x] = UInt8((sum + 2) / 4)
      }
    }
    let largest = Self.largestDifference(kept.samples, halved)
    #expect(largest <= 4, "the kept map is \(largest) codes from the halved input map")
  }

  @Test func aStrippedOutputOrAnotherFormatLeavesTheGainMapAndSaysSo() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    try Self.writeHDRPhoto(input)
    let said =
      "\(input): its HDR gain map (Apple, headroom 1.72 stops) was not kept: the output "
      + "is its SDR picture, which an HDR screen shows without the brighter highlights"

    let edited = folder.appendingPathComponent("edited.heic").path
    let result = try renderer.renderFile(
      at: input, to: edited, state: ControlState(exposureBias: 0.3))
    #expect(try Self.map(edited) != nil)
    #expect(result.warnings == [])

    let stripped = folder.appendingPathComponent("stripped.heic").path
    let strippedResult = try renderer.renderFile(
      at: input, to: stripped, state: ControlState(), options: StillOptions(metadata: .strip))
    #expect(try Self.map(stripped) == nil)
    #expect(strippedResult.warnings == [said])

    let jpeg = folder.appendingPathComponent("plain.jpg").path
    let jpegResult = try renderer.renderFile(
      at: input, to: jpeg, state: ControlState(exposureBias: 0.3))
    #expect(jpegResult.warnings == [said + " (--format heic keeps it)"])
  }

  /// The byte range of the coded data of the auxiliary image (the item an `auxl` reference starts
  /// from) in the HEIF file at `path`, as `heif-info -d` lists its `iloc` entry.
  static func auxiliaryData(_ path: String) throws -> Range<Int> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["heif-info", "-d", path]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    let reference = try #require(lines.first { $0.contains("reference with type 'auxl' from ID:") })
    let id = try #require(reference.split(separator: " ").drop { $0 != "ID:" }.dropFirst().first)
    let entry = try #require(lines.firstIndex(of: "| item ID: \(id)"))
    func value(_ key: String) throws -> String {
      let line = try #require(lines[entry..<min(entry + 6, lines.count)].first { $0.contains(key) })
      return String(line.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces)
    }
    let base = try #require(Int(try value("base_offset:")))
    let extent = try value("extents:").split(separator: ",").compactMap { Int($0) }
    try #require(extent.count == 2)
    return (base + extent[0])..<(base + extent[0] + extent[1])
  }

  @Test func aGainMapThatCannotBeReadLeavesTheSDRPictureAndSaysWhy() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    try Self.writeHDRPhoto(input)
    let data = try Self.auxiliaryData(input)
    var bytes = try Data(contentsOf: URL(fileURLWithPath: input))
    // The map's coded data zeroed after its first NAL unit's length.
    bytes.replaceSubrange(
      (data.lowerBound + 4)..<data.upperBound,
      with: [UInt8](repeating: 0, count: data.count - 4))
    let damaged = folder.appendingPathComponent("damaged-map.heic").path
    try bytes.write(to: URL(fileURLWithPath: damaged))

    let output = folder.appendingPathComponent("out.heic").path
    let result = try renderer.renderFile(at: damaged, to: output, state: ControlState())
    #expect(try Self.map(output) == nil)
    #expect(try Image(contentsOf: output).width == 240)
    #expect(result.warnings.count == 1)
    let warning = result.warnings.first ?? ""
    #expect(
      warning.hasPrefix(
        "\(damaged): its HDR gain map (Apple, headroom 1.72 stops) was not kept (it cannot be read: "
      ),
      "\(warning)")
    #expect(
      warning.hasSuffix(
        "the output is its SDR picture, which an HDR screen shows without the brighter highlights"))
  }

  @Test func aGainMapDroppedOnPurposeIsLeftOutWithoutAWarning() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("hdr.heic").path
    try Self.writeHDRPhoto(input)
    let options = StillOptions(hdrPhoto: .drop)
    for name in ["dropped.heic", "dropped.jpg"] {
      let output = folder.appendingPathComponent(name).path
      let result = try renderer.renderFile(
        at: input, to: output, state: ControlState(), options: options)
      #expect(result.warnings == [], "\(name): \(result.warnings)")
      if name.hasSuffix(".heic") { #expect(try Self.map(output) == nil) }
    }
  }
}
