import Foundation
import TestSupport
import Testing
import Vips

/// Every real file of `../shared/realfiles` (phones', cameras' and other projects' files, damaged files
/// and fuzzer finds; see its SOURCES.md) through `info` and `apply`: each is described or rendered right
/// (upright, its colours as lcms gives them with its own profile, its HEIF pictures as libheif decodes
/// them, its depth, alpha and location kept), or refused cleanly: exit 1, one line that names the file
/// and no library's raw text, and nothing left under the output name. Runs only where the folder is
/// (CI keeps it beside the repository); the files are never copied into the repository.
@Suite(.enabled(if: RealFiles.available), .serialized) struct RealFilesTests {
  /// Every file of the folder (relative names), its notes excepted.
  static let files: [String] = {
    let base = RealFiles.folder.path
    let walker = FileManager.default.enumerator(atPath: base)
    var names: [String] = []
    while let name = walker?.nextObject() as? String {
      var folder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: "\(base)/\(name)", isDirectory: &folder),
        !folder.boolValue, !name.hasSuffix(".md"), !name.hasSuffix(".txt")
      else { continue }
      names.append(name)
    }
    return names.sorted()
  }()

  /// Files that must be refused: damaged ones, fuzzer finds that are not JPEG photos with bad EXIF,
  /// and the two TIFF encodings libvips 8.14 cannot read.
  static func mustBeRefused(_ name: String) -> Bool {
    (name.hasPrefix("damaged/") && !name.hasSuffix("65536-uint32-limit.png"))
      || (name.hasPrefix("fuzz/") && name.hasSuffix(".heic"))
  }

  /// How a command ended on one file.
  enum Outcome: Equatable {
    /// Exit 0; for `apply`, the output written.
    case done(String)
    /// Exit 1 with this one line.
    case refused(String)
  }

  /// What is wrong with how `framedial arguments…` ended on `name` (empty when it ended cleanly), and
  /// how it ended.
  static func run(_ arguments: [String], on name: String, output: String? = nil) throws -> (
    outcome: Outcome, problems: [String]
  ) {
    let path = RealFiles.path(name)
    let result = try CLIRunner.run(arguments)
    let lines = result.standardError.split(separator: "\n").map(String.init)
    var problems: [String] = []
    let command = arguments[0]
    switch result.status {
    case 0:
      if let output, !FileManager.default.fileExists(atPath: output) {
        problems.append("\(name): \(command) exit 0 but no output")
      }
      return (.done(result.standardOutput), problems)
    case 1:
      if lines.count != 1 {
        problems.append(
          "\(name): \(command) refused in \(lines.count) lines: \(result.standardError)")
      }
      let line = lines.first ?? ""
      if !line.hasPrefix("framedial \(command): \(path): ") {
        problems.append("\(name): \(command)'s line does not start by naming the file: \(line)")
      }
      for noise in ["\\u{", "libvips operation", "VIPS-WARNING", "@ 0x", "(null)"]
      where line.contains(noise) {
        problems.append("\(name): \(command)'s line holds \"\(noise)\": \(line)")
      }
      if line.hasSuffix(":") || line.hasSuffix(": ") {
        problems.append("\(name): \(command)'s line gives no reason: \(line)")
      }
      if let output, FileManager.default.fileExists(atPath: output) {
        problems.append("\(name): \(command) refused but left \(output)")
      }
      return (.refused(line), problems)
    default:
      problems.append("\(name): \(command) exit \(result.status): \(result.standardError)")
      return (.refused(lines.first ?? ""), problems)
    }
  }

  /// `apply NAME -o scratch/STEM.ext` with `extra` arguments.
  static func apply(_ name: String, ext: String, scratch: URL, _ extra: [String] = []) throws -> (
    output: String, outcome: Outcome, problems: [String]
  ) {
    let output = scratch.appendingPathComponent(
      name.replacingOccurrences(of: "/", with: "_") + ".\(ext)"
    ).path
    try? FileManager.default.removeItem(atPath: output)
    let (outcome, problems) = try run(
      ["apply", RealFiles.path(name), "-o", output] + extra, on: name, output: output)
    return (output, outcome, problems)
  }

  @Test func everyFileIsDescribedOrCleanlyRefusedByInfo() throws {
    let problems = try concurrentMap(Self.files) { name in
      let (outcome, found) = try Self.run(["info", RealFiles.path(name)], on: name)
      if case .done(let text) = outcome, text.isEmpty {
        return found + ["\(name): info printed nothing"]
      }
      return found
    }.joined()
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test func everyFileIsRenderedAndDecodesOrIsCleanlyRefusedByApply() throws {
    let scratch = try CLIRunner.scratchFolder("realfiles-apply")
    defer { try? FileManager.default.removeItem(at: scratch) }
    // Each file in a folder of its own, so that what one leaves is told apart from the next one's.
    let problems = try concurrentMap(Array(Self.files.enumerated())) { index, name in
      let folder = scratch.appendingPathComponent("\(index)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      var problems: [String] = []
      for (ext, extra) in [("png", [String]()), ("jpg", ["--set", "ev=0.3"])] {
        let (output, outcome, found) = try Self.apply(name, ext: ext, scratch: folder, extra)
        problems += found
        switch outcome {
        case .done:
          if Self.mustBeRefused(name) {
            problems.append("\(name): a damaged file was written as \(ext)")
          }
          do {
            try Image(contentsOf: output).decodeEveryPixel()
          } catch {
            problems.append("\(name): the \(ext) written does not decode: \(error)")
          }
        case .refused:
          break
        }
        try? FileManager.default.removeItem(atPath: output)
      }
      let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      if !leftovers.isEmpty { problems.append("\(name): left \(leftovers)") }
      return problems
    }.joined()
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The mean absolute difference of two 8-bit pictures' samples, nil when their sizes differ.
  static func meanDifference(_ a: Image, _ b: Image) throws -> Double? {
    guard a.width == b.width, a.height == b.height, a.bands == b.bands else { return nil }
    let (x, y) = (try a.pixelBytes(), try b.pixelBytes())
    let total = zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
    return Double(total) / Double(max(1, x.count))
  }

  /// `image` converted to 8-bit sRGB through its own ICC profile (lcms, inside libvips, with the
  /// perceptual intent FrameDial reads inputs with), alpha dropped; an image without a profile by its
  /// interpretation (sRGB, grey, Lab, CMYK through libvips's own CMYK profile).
  static func sRGB(_ image: Image) throws -> Image {
    var picture = image
    if picture.hasAlpha { picture = try picture.extractBands(0, count: picture.bands - 1) }
    let converted: Image
    if picture.fieldNames.contains(Image.iccProfileField) {
      converted = try Operation.call(
        "icc_transform",
        [
          "in": .image(picture), "output_profile": .string("srgb"), "embedded": .bool(true),
          "intent": .string("perceptual"),
        ]
      ).image()
    } else {
      converted = try picture.colourspace("srgb")
    }
    return converted.format == .uchar ? converted : try converted.cast(to: .uchar)
  }

  @Test func theOrientationSetsComeOutUpright() throws {
    let scratch = try CLIRunner.scratchFolder("realfiles-orientation")
    defer { try? FileManager.default.removeItem(at: scratch) }
    for set in ["Landscape", "Portrait"] {
      let first = try Image(
        contentsOf: Self.apply("orientation/\(set)_1.jpg", ext: "png", scratch: scratch).output)
      #expect(set == "Landscape" ? first.width > first.height : first.width < first.height)
      // 2 … 8 share their profile (Apple's Generic RGB), so their pixels compare with each other; each
      // was saved again after its turn, so they differ by the JPEG's own noise (about 3.5 codes), where
      // a wrong turn or mirror differs by tens.
      let upright = try Image(
        contentsOf: Self.apply("orientation/\(set)_2.jpg", ext: "png", scratch: scratch).output)
      #expect(upright.width == first.width && upright.height == first.height)
      for number in 3...8 {
        let name = "orientation/\(set)_\(number).jpg"
        let turned = try Self.apply(name, ext: "png", scratch: scratch)
        #expect(turned.problems.isEmpty, "\(turned.problems)")
        let difference = try Self.meanDifference(upright, Image(contentsOf: turned.output))
        #expect(difference.map { $0 < 8 } == true, "\(name): \(String(describing: difference))")
      }
    }
  }

  @Test func colourFilesMatchLCMSWithTheirOwnProfiles() throws {
    let scratch = try CLIRunner.scratchFolder("realfiles-colour")
    defer { try? FileManager.default.removeItem(at: scratch) }
    var problems: [String] = []
    for name in Self.files where name.hasPrefix("colour/") || name.hasPrefix("depth/") {
      let input = try Image(
        contentsOf: RealFiles.path(name), options: LoadOptions(autoRotate: true))
      let tagged = input.fieldNames.contains(Image.iccProfileField)
      let reference = try Self.sRGB(input)
      // The profile kept (or a conversion FrameDial notes) and converted to sRGB, as asked.
      for extra in [[String](), ["--profile", "srgb"]] {
        let written = try Self.apply(name, ext: "png", scratch: scratch, extra)
        problems += written.problems
        guard case .done = written.outcome else {
          problems.append("\(name) \(extra): refused")
          continue
        }
        let output = try Image(contentsOf: written.output)
        if tagged, !output.fieldNames.contains(Image.iccProfileField) {
          problems.append("\(name) \(extra): the PNG written carries no ICC profile")
        }
        let difference = try Self.meanDifference(Self.sRGB(output), reference)
        if difference.map({ $0 >= 1.5 }) != false {
          problems.append(
            "\(name) \(extra): \(String(describing: difference)) codes from lcms's sRGB")
        }
      }
    }
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  @Test func heifPicturesMatchLibheifsOwnDecode() throws {
    let scratch = try CLIRunner.scratchFolder("realfiles-heif")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let pictures = Array(Self.files.filter { $0.hasPrefix("heif/") }.enumerated())
    let problems = try concurrentMap(pictures) { index, name -> [String] in
      let folder = scratch.appendingPathComponent("\(index)")
      let converted = folder.appendingPathComponent("converted")
      try FileManager.default.createDirectory(at: converted, withIntermediateDirectories: true)
      guard let reference = try Self.libheifDecode(name, into: converted) else { return [] }
      // TIFF, not PNG: the same samples without the seconds a 12-megapixel PNG takes to compress.
      let written = try Self.apply(name, ext: "tif", scratch: folder)
      guard case .done = written.outcome else {
        return written.problems + ["\(name): refused, though libheif decodes it"]
      }
      var decoded = try Image(contentsOf: reference)
      var ours = try Image(contentsOf: written.output)
      if decoded.hasAlpha != ours.hasAlpha {
        if decoded.hasAlpha { decoded = try decoded.extractBands(0, count: decoded.bands - 1) }
        if ours.hasAlpha { ours = try ours.extractBands(0, count: ours.bands - 1) }
      }
      let difference = try Self.meanDifference(
        ours.format == .uchar ? ours : ours.cast(to: .uchar),
        decoded.format == .uchar ? decoded : decoded.cast(to: .uchar))
      guard difference.map({ $0 >= 2 }) != false else { return written.problems }
      return written.problems + [
        "\(name): \(ours.width)×\(ours.height) against libheif's \(decoded.width)×\(decoded.height), "
          + "\(String(describing: difference)) codes apart"
      ]
    }.joined()
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// The primary picture of the HEIF file `name` as libheif's own `heif-convert` decodes it (with
  /// libde265 or its AV1 decoder, turned as its transformations say) into `folder`; nil when libheif
  /// cannot decode it. heif-convert numbers its outputs when a file holds several top-level pictures,
  /// so the primary one's number is found with heif-info.
  static func libheifDecode(_ name: String, into folder: URL) throws -> String? {
    let env = URL(fileURLWithPath: "/usr/bin/env")
    let info = try CLIRunner.run(["heif-info", RealFiles.path(name)], executable: env)
    let pictures = info.standardOutput.split(separator: "\n").filter { $0.hasPrefix("image: ") }
    guard let primary = pictures.firstIndex(where: { $0.hasSuffix(", primary") }) else {
      return nil
    }
    let target = folder.appendingPathComponent("reference.png").path
    let converted = try CLIRunner.run(
      ["heif-convert", "--quiet", RealFiles.path(name), target], executable: env)
    guard converted.status == 0 else { return nil }
    return pictures.count == 1
      ? target : folder.appendingPathComponent("reference-\(primary + 1).png").path
  }

  @Test func depthAndAlphaAreKeptInPNG() throws {
    let scratch = try CLIRunner.scratchFolder("realfiles-depth")
    defer { try? FileManager.default.removeItem(at: scratch) }
    for name in Self.files where name.hasPrefix("depth/") || name.hasPrefix("alpha/") {
      let input = try Image(contentsOf: RealFiles.path(name))
      let written = try Self.apply(name, ext: "png", scratch: scratch, ["--set", "ev=0.3"])
      #expect(written.problems.isEmpty, "\(written.problems)")
      let output = try Image(contentsOf: written.output)
      #expect(output.hasAlpha == input.hasAlpha, "\(name)")
      #expect((output.format == .ushort) == (input.format == .ushort), "\(name)")
    }
  }

  @Test func theLocationIsKeptUnlessStripped() throws {
    let scratch = try CLIRunner.scratchFolder("realfiles-location")
    defer { try? FileManager.default.removeItem(at: scratch) }
    for (extra, kept) in [([String](), true), (["--strip-location"], false)] {
      let written = try Self.apply("metadata/DSCN0010.jpg", ext: "jpg", scratch: scratch, extra)
      #expect(written.problems.isEmpty, "\(written.problems)")
      let tags = try CLIRunner.run(
        ["exiftool", "-s3", "-GPSLatitude", written.output],
        executable: URL(fileURLWithPath: "/usr/bin/env"))
      #expect(tags.standardOutput.contains("deg") == kept, "\(extra): \(tags.standardOutput)")
    }
  }
}
