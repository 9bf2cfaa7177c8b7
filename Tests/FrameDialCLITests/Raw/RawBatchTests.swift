import Foundation
import TestSupport
import Testing
import Vips

/// Raw folders in a batch: raws developed to JPEG, RAW + JPEG pairs (`--pairs`), the dry run saying what
/// each file becomes; `info` on a raw; the raw's shooting facts carried into the output's EXIF.
@Suite struct RawBatchTests {
  /// A folder with a RAW + JPEG pair (IMG_0001.DNG, IMG_0001.JPG) and a lone raw (IMG_0002.dng).
  static func pairFolder() throws -> (folder: URL, input: URL, output: URL) {
    let folder = try CLIRunner.scratchFolder("raw-pairs")
    let input = folder.appendingPathComponent("in")
    try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
    try DNGScene.patches().data().write(to: input.appendingPathComponent("IMG_0001.DNG"))
    try FileManager.default.copyItem(
      atPath: CLIRunner.sample("rocket.jpg"),
      toPath: input.appendingPathComponent("IMG_0001.JPG").path)
    try DNGScene.grey(0.3).data().write(to: input.appendingPathComponent("IMG_0002.dng"))
    return (folder, input, folder.appendingPathComponent("out"))
  }

  static func written(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path)
      .filter { !$0.hasPrefix(".") }.sorted()
  }

  @Test func byDefaultBothFilesOfAPairAreWrittenTheRawsUnderItsOwnName() throws {
    let (folder, input, output) = try Self.pairFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let dry = try CLIRunner.run(["batch", input.path, "-o", output.path, "--dry-run"])
    #expect(dry.status == 0, "\(dry.standardError)")
    let lines = dry.standardOutput.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "would write \(output.path)/IMG_0001-raw.jpg (from \(input.path)/IMG_0001.DNG)"),
      "\(dry.standardOutput)")
    #expect(
      lines.contains("would write \(output.path)/IMG_0001.JPG (from \(input.path)/IMG_0001.JPG)"))
    #expect(
      lines.contains("would write \(output.path)/IMG_0002.jpg (from \(input.path)/IMG_0002.dng)"))
    let run = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--preset", "warm-evening", "--jobs", "2",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Self.written(output) == ["IMG_0001-raw.jpg", "IMG_0001.JPG", "IMG_0002.jpg"])
    let developed = try Image(contentsOf: output.appendingPathComponent("IMG_0001-raw.jpg").path)
    #expect(developed.width == 64 && developed.height == 48 && developed.bands == 3)
    let photo = try Image(contentsOf: output.appendingPathComponent("IMG_0001.JPG").path)
    #expect(photo.width == (try Image(contentsOf: CLIRunner.sample("rocket.jpg"))).width)
  }

  @Test func pairsRawDevelopsTheRawUnderThePairsNameAndPassesOverTheJPEG() throws {
    let (folder, input, output) = try Self.pairFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let dry = try CLIRunner.run(["batch", input.path, "-o", output.path, "-n", "--pairs", "raw"])
    #expect(
      dry.standardOutput.contains(
        "ignored \(input.path)/IMG_0001.JPG (its raw IMG_0001.DNG is developed instead (--pairs raw))"
      ),
      "\(dry.standardOutput)")
    let run = try CLIRunner.run(["batch", input.path, "-o", output.path, "--pairs", "raw"])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Self.written(output) == ["IMG_0001.jpg", "IMG_0002.jpg"])
    let developed = try Image(contentsOf: output.appendingPathComponent("IMG_0001.jpg").path)
    #expect(developed.width == 64 && developed.height == 48)
  }

  @Test func pairsJPEGKeepsTheCamerasImageAndDevelopsLoneRaws() throws {
    let (folder, input, output) = try Self.pairFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try CLIRunner.run([
      "batch", input.path, "-o", output.path, "--pairs", "jpeg", "--json",
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(try Self.written(output) == ["IMG_0001.JPG", "IMG_0002.jpg"])
    #expect(
      run.standardOutput.contains(
        "\"passedOver\":\"IMG_0001.JPG beside it is processed instead (--pairs jpeg)\""),
      "\(run.standardOutput)")
    let bad = try CLIRunner.run(["batch", input.path, "-o", output.path, "--pairs", "dng"])
    #expect(bad.status != 0)
    #expect(bad.standardError.contains("--pairs must be both, raw or jpeg, not 'dng'"))
  }

  @Test func infoSaysWhatARawIs() throws {
    let folder = try CLIRunner.scratchFolder("raw-info")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene()
    scene.orientation = 8
    let path = folder.appendingPathComponent("IMG_0004.DNG").path
    try scene.data().write(to: URL(fileURLWithPath: path))
    let result = try CLIRunner.run(["info", path])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardOutput.hasPrefix(
        "\(path): a DNG from Pentax K-3, a RGGB Bayer mosaic of 64×48, 12-bit (black 256, white "
          + "4095), as-shot white balance R 2.00 G 1 B 1.43; develops to 48×64 (LibRaw "),
      "\(result.standardOutput)")
    let json = try CLIRunner.run(["info", "--json", path])
    #expect(json.standardOutput.contains("\"kind\":\"raw\""), "\(json.standardOutput)")
    #expect(json.standardOutput.contains("\"cfa\":\"RGGB\""))
    #expect(json.standardOutput.contains("\"orientation\":8"), "\(json.standardOutput)")
  }

  @Test func theRawsShootingFactsAreCarriedIntoTheOutputsEXIF() throws {
    let folder = try CLIRunner.scratchFolder("raw-exif")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene()
    scene.exposure = (1.0 / 125, 2.8, 200, 35, "2024:05:06 07:08:09")
    let input = folder.appendingPathComponent("IMG_0005.DNG")
    try scene.data().write(to: input)
    let output = folder.appendingPathComponent("out.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    let image = try Image(contentsOf: output.path)
    #expect(try image.string("exif-ifd0-Make").hasPrefix("Pentax "))
    #expect(try image.string("exif-ifd0-Model").hasPrefix("K-3 "))
    #expect(try image.string("exif-ifd2-ExposureTime").hasPrefix("1/125 (1/125 sec., "))
    #expect(try image.string("exif-ifd2-FNumber").contains("(f/2.8, "))
    #expect(try image.string("exif-ifd2-ISOSpeedRatings").hasPrefix("200 "))
    #expect(try image.string("exif-ifd2-DateTimeOriginal").hasPrefix("2024:05:06 07:08:09 "))
    #expect(try image.string("exif-ifd2-FocalLength").contains("(35.0 mm, "))
    #expect(image.orientation == 1)
  }

  @Test func theRawsGPSPositionIsCarriedIntoTheOutputsEXIF() throws {
    let folder = try CLIRunner.scratchFolder("raw-gps")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene()
    scene.location = true
    let input = folder.appendingPathComponent("IMG_0007.DNG")
    try scene.data().write(to: input)
    let output = folder.appendingPathComponent("out.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    let image = try Image(contentsOf: output.path)
    #expect(try image.string("exif-ifd3-GPSLatitudeRef").hasPrefix("N "))
    #expect(try image.string("exif-ifd3-GPSLatitude").contains("(52.0000, 31.0000, 12.5000, "))
    #expect(try image.string("exif-ifd3-GPSLongitudeRef").hasPrefix("E "))
    #expect(try image.string("exif-ifd3-GPSLongitude").contains("(13.0000, 24.0000, 36.0000, "))
    #expect(try image.string("exif-ifd3-GPSAltitude").contains("(34.5000, "))
  }

  @Test func aRawWithoutAnAltitudeGetsNoGPSAltitude() throws {
    let folder = try CLIRunner.scratchFolder("raw-no-altitude")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene()
    scene.location = true
    scene.altitude = nil
    let input = folder.appendingPathComponent("IMG_0008.DNG")
    try scene.data().write(to: input)
    let output = folder.appendingPathComponent("out.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    let tags = try MetadataCommandTests.tags(output.path)
    #expect(tags["GPS:GPSLatitude"] == "52.5201388888889", "\(tags)")
    // LibRaw reads an altitude of 0 for none: "0 m, Above Sea Level" would be made up.
    #expect(tags["GPS:GPSAltitude"] == nil && tags["GPS:GPSAltitudeRef"] == nil, "\(tags)")
  }

  @Test func theRawsArtistAndCopyrightAreCarriedAsTheFileSpellsThem() throws {
    let folder = try CLIRunner.scratchFolder("raw-artist")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene()
    scene.artist = "Zoë Example"
    scene.copyright = "(c) 2024 Zoë Example"
    let input = folder.appendingPathComponent("IMG_0009.DNG")
    try scene.data().write(to: input)
    let inputTags = try MetadataCommandTests.tags(input.path)
    for ext in ["jpg", "png"] {
      let output = folder.appendingPathComponent("out.\(ext)")
      let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
      #expect(result.status == 0, "\(result.standardError)")
      let tags = try MetadataCommandTests.tags(output.path)
      #expect(tags["IFD0:Artist"] == "Zoë Example", "\(tags)")
      #expect(tags["IFD0:Copyright"] == "(c) 2024 Zoë Example", "\(tags)")
      #expect(tags["IFD0:Artist"] == inputTags["IFD0:Artist"])
    }
    let stripped = folder.appendingPathComponent("stripped.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", stripped.path, "--strip"])
    #expect(result.status == 0, "\(result.standardError)")
    let tags = try MetadataCommandTests.tags(stripped.path)
    #expect(tags["IFD0:Artist"] == nil && tags["IFD0:Copyright"] == nil, "\(tags)")
  }

  @Test func theRawsXMPIsCarriedIntoTheOutput() throws {
    let folder = try CLIRunner.scratchFolder("raw-xmp")
    defer { try? FileManager.default.removeItem(at: folder) }
    var scene = DNGScene()
    scene.xmp =
      "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-"
      + "syntax-ns#\"><rdf:Description xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\" xmp:Rating=\"4\"/>"
      + "</rdf:RDF></x:xmpmeta>"
    let input = folder.appendingPathComponent("IMG_0006.DNG")
    try scene.data().write(to: input)
    let output = folder.appendingPathComponent("out.jpg")
    let result = try CLIRunner.run(["apply", input.path, "-o", output.path])
    #expect(result.status == 0, "\(result.standardError)")
    let xmp = String(
      decoding: try Image(contentsOf: output.path).blob(Image.xmpField), as: UTF8.self)
    #expect(xmp.contains("xmp:Rating=\"4\""), "\(xmp)")
  }
}
