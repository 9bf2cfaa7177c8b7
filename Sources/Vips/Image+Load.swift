import CVips
import Foundation

extension Image {
  /// Reads the image at `path`. Pixels are decoded lazily, when a pipeline asks for them; the header
  /// (and the pixel limit) is checked here.
  public convenience init(contentsOf path: String, options: LoadOptions = LoadOptions()) throws {
    try Vips.ensureStarted()
    guard FileManager.default.fileExists(atPath: path) else {
      throw VipsError("\(path): no such file")
    }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw VipsError("\(path): permission denied")
    }
    guard let loader = vips_foreign_find_load(path) else {
      _ = VipsError.takeLibvipsMessage()
      let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
      throw VipsError(size == 0 ? "\(path): empty file" : "\(path): not a known image format")
    }
    let image = try Image.runFileLoader(loaderNickname(loader), path: path, options: options)
    self.init(retaining: image)
  }

  /// Reads an image from `bytes` in memory. libvips decodes lazily, so it keeps its own copy of the
  /// bytes for as long as any image made from them lives.
  public convenience init(
    bytes: Data, options: LoadOptions = LoadOptions(), name: String = "image data"
  ) throws {
    try Vips.ensureStarted()
    let found = bytes.withUnsafeBytes { raw -> UnsafePointer<CChar>? in
      guard let base = raw.baseAddress, raw.count > 0 else { return nil }
      return vips_foreign_find_load_buffer(base, raw.count)
    }
    guard let loader = found else {
      _ = VipsError.takeLibvipsMessage()
      throw VipsError(bytes.isEmpty ? "\(name): empty data" : "\(name): not a known image format")
    }
    let image = try Image.runLoader(
      loaderNickname(loader), source: ["buffer": .blob(bytes)], options: options, name: name)
    self.init(retaining: image)
  }

  /// The nickname of the libvips loader that recognises the file at `path` by its content (or, for a few
  /// formats, its extension), blocked loaders included; nil when none does. Reads only the first bytes.
  public static func loaderName(forFile path: String) -> String? {
    guard (try? Vips.ensureStarted()) != nil, let loader = vips_foreign_find_load(path) else {
      _ = VipsError.takeLibvipsMessage()
      return nil
    }
    return loaderNickname(loader)
  }

  /// The header of the image at `path`, read without decoding pixels.
  public static func probe(_ path: String, pixelLimit: Int? = LoadOptions.defaultPixelLimit) throws
    -> ImageHeader
  {
    try Image(contentsOf: path, options: LoadOptions(pixelLimit: pixelLimit)).header
  }

  /// A handle sharing `other`'s libvips image.
  convenience init(retaining other: Image) {
    g_object_ref(other.pointer)
    self.init(owning: other.pointer)
  }

  static func runLoader(
    _ loader: String, source: [String: Argument], options: LoadOptions, name: String
  ) throws -> Image {
    if try Operation.isBlocked(loader) {
      throw VipsError(
        "\(name): format not allowed (\(loader) is one of libvips's untrusted loaders)")
    }
    var arguments = source
    arguments["access"] = .string(options.sequential ? "sequential" : "random")
    arguments["fail_on"] = .string(options.failOn.rawValue)
    let image: Image
    do {
      image = try Operation.call(loader, arguments).image()
    } catch let error as VipsError {
      if error.message.contains("operation is blocked") {
        throw VipsError(
          "\(name): format not allowed (\(loader) is one of libvips's untrusted loaders)")
      }
      throw VipsError("\(name): cannot read: \(error.message)")
    }
    if let limit = options.pixelLimit {
      let pixels = image.width * image.height
      if pixels > limit {
        throw VipsError(
          "\(name): image is \(image.width)×\(image.height) (\(megapixels(pixels)) megapixels), "
            + "over the pixel limit of \(megapixels(limit)) megapixels")
      }
    }
    guard options.autoRotate, image.orientation != 1 else { return image }
    return try image.autoRotated()
  }

  /// The image turned upright from its EXIF orientation, with the orientation field removed.
  public func autoRotated() throws -> Image {
    try Operation.call("autorot", ["in": .image(self)]).image()
  }
}

/// libvips names loaders by class ("VipsForeignLoadJpegFile"); its nickname ("jpegload") reads better.
private func loaderNickname(_ className: UnsafePointer<CChar>) -> String {
  let type = g_type_from_name(className)
  if type != 0, let nickname = vips_nickname_find(type) { return String(cString: nickname) }
  return String(cString: className)
}

private func megapixels(_ pixels: Int) -> String {
  let value = Double(pixels) / 1_000_000
  return value >= 10 ? String(Int(value.rounded())) : String(format: "%.1f", value)
}
