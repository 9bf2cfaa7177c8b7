import Foundation
import TestSupport
import Testing
import Vips

/// `--strip`, `--strip-location` and the EXIF thumbnail, checked with exiftool on photos given GPS,
/// artist, copyright, XMP and IPTC by exiftool.
@Suite struct MetadataCommandTests {
  static let exiftool = URL(fileURLWithPath: "/usr/bin/exiftool")

  /// Runs exiftool with `arguments`; fails the test when it fails.
  @discardableResult
  static func exiftool(_ arguments: [String]) throws -> String {
    let result = try CLIRunner.run(arguments, executable: exiftool)
    #expect(result.status == 0, "exiftool \(arguments): \(result.standardError)")
    return result.standardOutput
  }

  /// Every tag exiftool reads from `path`, as "Group:Tag" → value (duplicates: the first).
  static func tags(_ path: String) throws -> [String: String] {
    let json = try exiftool(["-j", "-n", "-G1", "-a", "-s", "-x", "ThumbnailImage", path])
    let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
    return (objects?.first ?? [:]).mapValues { "\($0)" }
  }

  /// The EXIF-rotated sample, with a thumbnail of its sideways, unedited pixels and personal
  /// metadata: GPS position and area, artist, copyright, XMP creator/rating/city/country/GPS,
  /// IPTC by-line/city/country.
  static func taggedPhoto(in folder: URL) throws -> String {
    let path = folder.appendingPathComponent("tagged.jpg").path
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket_exif_rotated.jpg"), toPath: path)
    let thumbnail = folder.appendingPathComponent("thumb.jpg").path
    try Image(contentsOf: path).thumbnailed(width: 160, height: 107).write(to: thumbnail)
    try exiftool([
      "-q", "-overwrite_original", "-GPSLatitude=48.8566", "-GPSLatitudeRef=N",
      "-GPSLongitude=2.3522", "-GPSLongitudeRef=E", "-GPSAreaInformation=Secret Garden",
      "-Artist=Ann Example", "-Copyright=(c) Ann Example", "-XMP-dc:Creator=Ann Example",
      "-XMP-xmp:Rating=4", "-XMP-photoshop:City=Lutetia", "-XMP-photoshop:Country=Gallia",
      "-XMP-exif:GPSLatitude=48.8566", "-XMP-exif:GPSLongitude=2.3522",
      "-XMP-iptcCore:Location=Hidden Courtyard", "-IPTC:By-line=Ann Example",
      "-IPTC:City=Lutetia", "-IPTC:Country-PrimaryLocationName=Gallia",
      "-IPTC:Keywords=rocket", "-ThumbnailImage<=\(thumbnail)", path,
    ])
    return path
  }

  @Test func theTaggedPhotoCarriesWhatTheTestsLookFor() throws {
    let folder = try CLIRunner.scratchFolder("metadata-input")
    defer { try? FileManager.default.removeItem(at: folder) }
    let tags = try Self.tags(try Self.taggedPhoto(in: folder))
    for key in [
      "GPS:GPSLatitude", "IFD0:Artist", "IFD0:Copyright", "XMP-dc:Creator", "XMP-photoshop:City",
      "XMP-exif:GPSLatitude", "XMP-iptcCore:Location", "IPTC:City", "IPTC:By-line",
      "IFD1:ThumbnailLength",
    ] {
      #expect(tags[key] != nil, "\(key) missing from the input")
    }
  }

  @Test func keptMetadataLosesOnlyTheThumbnail() throws {
    let folder = try CLIRunner.scratchFolder("metadata-keep")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Self.taggedPhoto(in: folder)
    let output = folder.appendingPathComponent("noir.jpg").path
    let run = try CLIRunner.run(["apply", input, "-o", output, "--set", "filter=noir"])
    #expect(run.status == 0, "\(run.standardError)")
    let tags = try Self.tags(output)
    #expect(tags["IFD0:Artist"] == "Ann Example")
    #expect(tags["GPS:GPSLatitudeRef"] == "N")
    #expect(tags["XMP-photoshop:City"] == "Lutetia")
    #expect(tags["IPTC:City"] == "Lutetia")
    #expect(tags["IFD0:Orientation"] == "1")
    // The old thumbnail showed the colour picture on its side: none is written (no IFD1 at all).
    #expect(!tags.keys.contains { $0.hasPrefix("IFD1:") }, "\(tags.keys.sorted())")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
    let inputBytes = try Data(contentsOf: URL(fileURLWithPath: input))
    #expect(bytes.count < inputBytes.count + 4096)
  }

  @Test func stripDropsExifXMPAndIPTCButKeepsTheProfile() throws {
    let folder = try CLIRunner.scratchFolder("metadata-strip")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Self.taggedPhoto(in: folder)
    for format in ["jpg", "png", "webp", "tif", "heic"] {
      let output = folder.appendingPathComponent("web.\(format)").path
      let run = try CLIRunner.run([
        "apply", input, "-o", output, "--set", "contrast=1.1", "--strip", "--size", "320",
      ])
      #expect(run.status == 0, "\(run.standardError)")
      let tags = try Self.tags(output)
      let personal = tags.keys.filter {
        $0.hasPrefix("GPS:") || $0.hasPrefix("XMP") || $0.hasPrefix("IPTC:")
          || $0.hasPrefix("IFD1:") || $0.hasSuffix(":Artist") || $0.hasSuffix(":Copyright")
      }
      #expect(personal.isEmpty, "\(format): \(personal.sorted())")
      #expect(tags["ICC_Profile:ProfileDescription"] == "Adobe RGB (1998)", "\(format)")
      let text = String(
        decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
      #expect(!text.contains("Ann Example") && !text.contains("Lutetia"), "\(format)")
    }
  }

  @Test func stripLocationDropsOnlyWhereThePhotoWasTaken() throws {
    let folder = try CLIRunner.scratchFolder("metadata-location")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = try Self.taggedPhoto(in: folder)
    for format in ["jpg", "png", "webp", "heic"] {
      let output = folder.appendingPathComponent("shared.\(format)").path
      let run = try CLIRunner.run([
        "apply", input, "-o", output, "--set", "exposure-bias=0.3", "--strip-location",
      ])
      #expect(run.status == 0, "\(run.standardError)")
      let tags = try Self.tags(output)
      let location = tags.keys.filter {
        $0.hasPrefix("GPS:") || $0.contains(":GPS") || $0.hasSuffix(":City")
          || $0.hasSuffix(":Country") || $0.hasSuffix(":Location")
          || $0.hasSuffix("Country-PrimaryLocationName")
      }
      #expect(location.isEmpty, "\(format): \(location.sorted())")
      #expect(tags["IFD0:Artist"] == "Ann Example", "\(format)")
      #expect(tags["IFD0:Copyright"] == "(c) Ann Example", "\(format)")
      #expect(tags["XMP-dc:Creator"] == "Ann Example", "\(format)")
      #expect(tags["XMP-xmp:Rating"] == "4", "\(format)")
      if format == "jpg" {
        #expect(tags["IPTC:By-line"] == "Ann Example")
        #expect(tags["IPTC:Keywords"] == "rocket")
      }
      // Not even unreferenced bytes of the GPS IFD or the XMP location are left.
      let text = String(
        decoding: try Data(contentsOf: URL(fileURLWithPath: output)), as: UTF8.self)
      #expect(!text.contains("Secret Garden") && !text.contains("Lutetia"), "\(format)")
      #expect(!text.contains("Hidden Courtyard"), "\(format)")
    }
  }

  @Test func batchStripsLocationAndRefusesBothFlags() throws {
    let folder = try CLIRunner.scratchFolder("metadata-batch")
    defer { try? FileManager.default.removeItem(at: folder) }
    let photos = folder.appendingPathComponent("roll")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    _ = try Self.taggedPhoto(in: photos)
    try FileManager.default.removeItem(at: photos.appendingPathComponent("thumb.jpg"))
    let output = folder.appendingPathComponent("out")
    let run = try CLIRunner.run([
      "batch", photos.path, "-o", output.path, "--preset", "vivid", "--strip-location",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    let tags = try Self.tags(output.appendingPathComponent("tagged.jpg").path)
    #expect(tags["GPS:GPSLatitude"] == nil && tags["XMP-photoshop:City"] == nil)
    #expect(tags["IFD0:Artist"] == "Ann Example")
    // The profile is one of the settings a batch records: another one redoes the photo.
    let converted = try CLIRunner.run([
      "batch", photos.path, "-o", output.path, "--preset", "vivid", "--strip-location",
      "--profile", "srgb",
    ])
    #expect(converted.standardError.contains("1 redone"), "\(converted.standardError)")
    #expect(
      try Self.tags(output.appendingPathComponent("tagged.jpg").path)[
        "ICC_Profile:ProfileDescription"] == "sRGB")
    let both = try CLIRunner.run([
      "batch", photos.path, "-o", output.path, "--strip", "--strip-location",
    ])
    #expect(both.status == 2)
    #expect(
      both.standardError.contains(
        "framedial batch: --strip already drops the location: give --strip or --strip-location"),
      "\(both.standardError)")
  }

  @Test func profileOptionConvertsAndNamesABadProfile() throws {
    let folder = try CLIRunner.scratchFolder("metadata-profile")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("p3.jpg").path
    let run = try CLIRunner.run([
      "apply", CLIRunner.sample("grace_hopper.jpg"), "-o", output, "--set", "saturation=1.2",
      "--profile", "p3",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Self.tags(output)["ICC_Profile:ProfileDescription"] == "sP3C")
    let bad = try CLIRunner.run([
      "apply", CLIRunner.sample("grace_hopper.jpg"), "-o", output, "-y", "--profile", "wide",
    ])
    #expect(bad.status == 2)
    #expect(
      bad.standardError.contains(
        "framedial apply: --profile: 'wide' is not a profile: give keep, srgb, p3 or the path of an .icc file"
      ), "\(bad.standardError)")
  }
}
