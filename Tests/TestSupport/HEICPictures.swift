import Foundation
import Video
import Vips

/// Pictures for the HEIC tests: the sample photo at a chosen size, converted with the `vips` command and
/// encoded with libheif's own `heif-enc`.
package enum HEICPictures {
  /// Runs `tool arguments…` and fails the test when it fails.
  package static func run(_ tool: String, _ arguments: [String]) throws {
    let result = try VideoClips.run(tool, arguments)
    guard result.status == 0 else {
      throw VideoError("\(tool) \(arguments.joined(separator: " ")): \(result.errors)")
    }
  }

  /// The sample photo resized to `width` × `height` as a PNG at `path`; `conversion` then converts
  /// it with the `vips` command (e.g. `["colourspace", "b-w"]`).
  package static func photo(_ path: String, width: Int, height: Int, _ conversion: [String] = [])
    throws
  {
    let sample = try Image(contentsOf: CLIRunner.sample("coffee.png"))
    let resized = try sample.resized(
      by: Double(width) / Double(sample.width), vscale: Double(height) / Double(sample.height))
    guard !conversion.isEmpty else { return try resized.write(to: path) }
    let plain = path + ".plain.png"
    try resized.write(to: plain)
    defer { try? FileManager.default.removeItem(atPath: plain) }
    try run("vips", [conversion[0], plain, path] + conversion.dropFirst())
  }

  /// A 200 × 150 HEIC of the photo, `damaged.heic` in `folder`, whose picture's first NAL unit claims
  /// more bytes than the file holds (its intact source is `photo.heic` beside it).
  package static func cutShort(in folder: URL) throws -> URL {
    let png = folder.appendingPathComponent("photo.png").path
    let heic = folder.appendingPathComponent("photo.heic")
    try photo(png, width: 200, height: 150)
    try run("heif-enc", ["-q", "80", png, "-o", heic.path])
    var bytes = try Data(contentsOf: heic)
    let (mdat, _) = try GridHEIC.find("mdat", in: bytes)
    bytes.replaceSubrange(mdat + 8..<mdat + 12, with: [0x00, 0xff, 0xff, 0xf0])
    let damaged = folder.appendingPathComponent("damaged.heic")
    try bytes.write(to: damaged)
    return damaged
  }
}
