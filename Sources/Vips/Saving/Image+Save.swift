import Foundation
import Synchronization

extension Image {
  /// Writes the image to `path` in `format` (by default, the format the extension names).
  ///
  /// This writes the file directly; callers that must never leave a partial file write to a temporary
  /// name in the same folder and rename it (FrameDial's renderers do). HEIC and AVIF are refused: FrameDial
  /// writes them through libheif itself.
  public func write(
    to path: String, format: ImageFormat? = nil, options: SaveOptions = SaveOptions()
  ) throws {
    guard let format = format ?? ImageFormat(path: path) else {
      throw VipsError("\(path): no image format is known for this file extension")
    }
    do {
      var arguments = try saveArguments(format, options)
      arguments["filename"] = .string(path)
      _ = try Operation.call(try format.saver().file, arguments)
    } catch let error as VipsError {
      throw VipsError("\(path): cannot write: \(error.message)")
    }
  }

  /// The image encoded in `format`, in memory (not HEIC or AVIF, as ``write(to:format:options:)``).
  public func encoded(as format: ImageFormat, options: SaveOptions = SaveOptions()) throws -> Data {
    do {
      return try Operation.call(try format.saver().buffer, try saveArguments(format, options))
        .blob("buffer")
    } catch let error as VipsError {
      throw VipsError("cannot encode \(format.rawValue): \(error.message)")
    }
  }

  private func saveArguments(_ format: ImageFormat, _ options: SaveOptions) throws -> [String:
    Argument]
  {
    var arguments: [String: Argument] = ["in": .image(self), "strip": .bool(!options.keepMetadata)]
    if let quality = options.quality, format.hasQuality {
      guard (1...100).contains(quality) else {
        throw VipsError("quality \(quality) is out of range: it must be 1 … 100")
      }
      arguments["Q"] = .int(quality)
    }
    if options.chromaSubsampling != .auto, format == .jpeg {
      arguments["subsample-mode"] = .string(options.chromaSubsampling.rawValue)
    }
    return arguments
  }
}

/// The profile checks made so far (see ``Image/saverKeepsProfile(_:format:bands:)``): a batch's
/// photos mostly share a few profiles.
private let profileChecks = Mutex<[ProfileCheck: Bool]>([:])

/// One profile check: the profile, the format and the number of colour channels.
private struct ProfileCheck: Hashable {
  var profile: Data
  var format: ImageFormat
  var channels: Int
}

extension Image {
  /// The most profile checks remembered.
  static let rememberedProfileChecks = 32

  /// True when `format`'s saver writes the ICC profile `profile` into the file on an image of `bands`
  /// bands (1 or 2 grey, 3 or 4 colour): a 1×1 picture tagged with it is encoded in memory and read
  /// back, so the saver itself decides (the answer is remembered for the process). libpng refuses a
  /// profile it finds malformed — one whose connection-space illuminant is not D50 to the bit, such
  /// as Kodak's ProPhoto RGB, or a grey profile on a colour picture — and libvips then writes the file
  /// without it, with only a hidden warning. HEIC and AVIF (libheif) store any profile's bytes and are
  /// not encoded for the check.
  public static func saverKeepsProfile(_ profile: Data, format: ImageFormat, bands: Int) -> Bool {
    if format == .heic || format == .avif { return true }
    let check = ProfileCheck(profile: profile, format: format, channels: bands <= 2 ? 1 : 3)
    if let known = profileChecks.withLock({ $0[check] }) { return known }
    let kept = savesProfile(check)
    profileChecks.withLock { checks in
      if checks.count >= rememberedProfileChecks { checks.removeAll() }
      checks[check] = kept
    }
    return kept
  }

  /// Encodes a 1×1 picture tagged with the check's profile and reads it back.
  private static func savesProfile(_ check: ProfileCheck) -> Bool {
    do {
      let pixel = try Image.fromPixels(
        [UInt8](repeating: 128, count: check.channels), width: 1, height: 1,
        bands: check.channels
      ).editingMetadata { $0.setBlob(Image.iccProfileField, check.profile) }
      let written = try Image(bytes: pixel.encoded(as: check.format), name: "profile check")
      return try written.hasICCProfile && written.blob(Image.iccProfileField) == check.profile
    } catch {
      return false
    }
  }
}
