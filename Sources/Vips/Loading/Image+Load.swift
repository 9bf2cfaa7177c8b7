import CVips
import Foundation
import JPEG
import TIFF

extension Image {
  /// Reads the image at `path`. Pixels are decoded lazily, when a pipeline asks for them; the header
  /// (and the pixel limit) is checked here. A camera raw file (DNG, NEF, ARW, CR2, …, whatever its
  /// name) is refused: it would read as its preview or its undeveloped mosaic. Anything that is not a regular file once links are followed
  /// (a FIFO, a device, a folder) is refused with "not a regular file" before a byte is read; the file is
  /// checked on its open descriptor and read through it, so a path swapped meanwhile is never read.
  public convenience init(contentsOf path: String, options: LoadOptions = LoadOptions()) throws {
    try Vips.ensureStarted()
    let file = try CheckedFile(opening: path)
    guard file.size > 0 else { throw VipsError("\(path): empty file") }
    let image = try Image.load(file, options: options, name: path)
    self.init(retaining: image)
  }

  /// Reads an image from `bytes` in memory. libvips decodes lazily, so it keeps its own copy of the
  /// bytes for as long as any image made from them lives.
  public convenience init(
    bytes: Data, options: LoadOptions = LoadOptions(), name: String = "image data"
  ) throws {
    try Vips.ensureStarted()
    let found = FormatModules.attempt { () -> UnsafePointer<CChar>? in
      let loader = bytes.withUnsafeBytes { raw -> UnsafePointer<CChar>? in
        guard let base = raw.baseAddress, raw.count > 0 else { return nil }
        return vips_foreign_find_load_buffer(base, raw.count)
      }
      if loader == nil { ErrorJournal.dropUnknownFormat() }
      return loader
    }
    guard let loader = found else {
      throw VipsError(bytes.isEmpty ? "\(name): empty data" : "\(name): not a known image format")
    }
    if let raw = CameraRawSniffer.finding(data: bytes) {
      throw Image.rawRefusal(raw, name: name)
    }
    var nickname = loaderNickname(loader)
    if try Operation.isBlocked(nickname), Image.hasHEIFName(name) { nickname = "heifload_buffer" }
    let chain = nickname == "tiffload_buffer" ? TIFFDirectories(bytes: bytes) : nil
    var image = try Image.runLoader(
      nickname, source: .buffer(bytes), options: options, name: name,
      page: try Image.firstFullResolutionPage(chain, options: options, name: name))
    if nickname.hasPrefix("jpegload") {
      image = try image.noting(try? JPEG.JPEGHeader(bytes: bytes, name: name))
    }
    self.init(retaining: image)
  }

  /// The bytes of the file at `path`, read once through a descriptor checked as
  /// ``init(contentsOf:options:)`` checks it (a regular file, not empty), for a caller that hands the
  /// same bytes to libvips (``init(bytes:options:name:)``) and to another library.
  public static func fileContents(_ path: String) throws -> Data {
    let file = try CheckedFile(opening: path)
    guard file.size > 0 else { throw VipsError("\(path): empty file") }
    return try contents(of: file, name: path)
  }

  /// Every byte of the open `file`, read with pread from its start.
  static func contents(of file: CheckedFile, name: String) throws -> Data {
    var bytes = Data(count: file.size)
    let read = bytes.withUnsafeMutableBytes { raw -> Int in
      guard let base = raw.baseAddress else { return 0 }
      var done = 0
      while done < raw.count {
        let got = pread(file.descriptor, base + done, raw.count - done, off_t(done))
        if got < 0 && errno == EINTR { continue }
        guard got > 0 else { break }
        done += got
      }
      return done
    }
    guard read == file.size else { throw VipsError("\(name): cannot read: \(errorText(errno))") }
    return bytes
  }

  /// The nickname of the libvips loader that recognises the file at `path` by its content, blocked
  /// loaders included; nil when none does, or when `path` is not a regular file. Reads only the first
  /// bytes.
  public static func loaderName(forFile path: String) -> String? {
    guard (try? Vips.ensureStarted()) != nil, let file = try? CheckedFile(opening: path),
      file.size > 0
    else { return nil }
    guard let (nickname, source) = findLoader(file) else { return nil }
    if let source { g_object_unref(source) }
    if (try? Operation.isBlocked(nickname)) == true, hasHEIFName(path) { return "heifload" }
    return displayName(nickname)
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

  /// The loader for an open file: one that reads from a libvips source made from the descriptor, else
  /// (for the few formats libvips reads only by file name) a file loader given a name that reopens the
  /// same file. A file only a format module reads loads the modules (``FormatModules``).
  private static func findLoader(_ file: CheckedFile) -> (
    nickname: String, source: UnsafeMutablePointer<VipsSource>?
  )? {
    FormatModules.attempt {
      if let source = vips_source_new_from_descriptor(file.descriptor) {
        if let loader = vips_foreign_find_load_source(source) {
          return (loaderNickname(loader), source)
        }
        g_object_unref(source)
      }
      ErrorJournal.dropUnknownFormat()
      guard let loader = vips_foreign_find_load(file.reopenablePath) else {
        ErrorJournal.dropUnknownFormat()
        return nil
      }
      return (loaderNickname(loader), nil)
    }
  }

  private static func load(_ file: CheckedFile, options: LoadOptions, name: String) throws -> Image
  {
    // A camera raw built like a TIFF would load as its preview or its undeveloped mosaic.
    if let raw = CameraRawSniffer.finding(descriptor: file.descriptor, size: file.size) {
      throw rawRefusal(raw, name: name)
    }
    guard let (loader, source) = findLoader(file) else {
      throw VipsError("\(name): not a known image format")
    }
    defer { if let source { g_object_unref(source) } }
    if try Operation.isBlocked(loader), isTIFF(file, name: name) {
      return try loadDamagedTIFF(file, options: options, name: name)
    }
    if try Operation.isBlocked(loader), hasHEIFName(name) {
      return try runLoader(
        "heifload", source: .file(file.reopenablePath), options: options, name: name)
    }
    // libjpeg-turbo decodes at M/8 only where that is smaller than libvips's own 1/2, 1/4 or 1/8.
    let libvipsEighths = 8 / ([8, 4, 2].first { options.shrink >= $0 } ?? 1)
    if displayName(loader) == "jpegload", options.jpegEighths < libvipsEighths,
      let scaled = try scaledJPEG(
        file, loader: loader, source: source.map { .source($0) } ?? .file(file.reopenablePath),
        options: options, name: name)
    {
      return scaled
    }
    let image = try runLoader(
      loader, source: source.map { .source($0) } ?? .file(file.reopenablePath), options: options,
      name: name,
      page: try firstFullResolutionPage(
        displayName(loader) == "tiffload"
          ? TIFFDirectories(descriptor: file.descriptor, size: file.size) : nil,
        options: options, name: name))
    guard loader.hasPrefix("jpegload") else { return image }
    // The header of the very file libvips decodes, read through the same descriptor.
    return try image.noting(try? JPEG.JPEGHeader(descriptor: file.descriptor, name: name))
  }

  /// The message a raw file gets where an image is read with libvips: raws are developed on LibRaw
  /// from files (`Raw`'s `CameraRawFile` and `RawStill`), never handed to a libvips loader.
  private static func rawRefusal(_ finding: CameraRawSniffer.Finding, name: String) -> VipsError {
    VipsError(
      "\(name): \(finding.description): a camera raw file is developed from a file on LibRaw, "
        + "not read as an image here")
  }

  /// The page the TIFF loader is given for a TIFF whose directory `chain` libtiff read (see
  /// `TIFFDirectories`): the first that is not a reduced-resolution copy (a camera's or scanner's
  /// preview put before the picture) nor a transparency mask; 0 for another format (`chain` nil) or a
  /// TIFF libtiff cannot read (the TIFF loader then says what is wrong).
  ///
  /// - Throws: `VipsError` naming the file when the chain breaks after a preview, before the picture
  ///   (unless `options.failOn` is `.none`, which reads the preview, as what could be decoded).
  static func firstFullResolutionPage(
    _ chain: TIFFDirectories?, options: LoadOptions, name: String
  ) throws -> Int {
    guard let chain else { return 0 }
    if chain.pictureMissing, options.failOn != .none {
      throw VipsError(
        "\(name): cannot read: damaged TIFF: the picture after its reduced-resolution preview is "
          + "cut short or damaged")
    }
    return chain.firstFullResolutionPage
  }

  /// Where a loader reads from.
  enum LoadSource {
    case file(String)
    case source(UnsafeMutablePointer<VipsSource>)
    case buffer(Data)
  }

  /// Runs `loader` on `source`; `page`, when not 0, is the page of a multi-page file to read (the
  /// TIFF loader's first full-resolution page).
  static func runLoader(
    _ loader: String, source: LoadSource, options: LoadOptions, name: String, page: Int = 0
  ) throws -> Image {
    let notAllowed = VipsError(
      "\(name): format not allowed (\(displayName(loader)) is one of libvips's untrusted loaders)")
    if try Operation.isBlocked(loader) { throw notAllowed }
    var arguments: [String: Argument] = [:]
    var sourceObject: UnsafeMutablePointer<VipsSource>?
    switch source {
    case .file(let path): arguments["filename"] = .string(path)
    case .buffer(let bytes): arguments["buffer"] = .blob(bytes)
    case .source(let object): sourceObject = object
    }
    arguments["access"] = .string(options.sequential ? "sequential" : "random")
    arguments["fail_on"] = .string(options.failOn.rawValue)
    arguments.merge(shrinkArguments(loader, shrink: options.shrink)) { _, new in new }
    if page > 0 { arguments["page"] = .int(page) }
    let image: Image
    let warnings = WarningJournal.mark()
    do {
      image = try Operation.call(loader, arguments, source: sourceObject).image()
    } catch let error as VipsError {
      if error.message.contains("operation is blocked") { throw notAllowed }
      let reason = LoaderMessage.reason(
        error.message, loader: loader, warnings: WarningJournal.messages(since: warnings))
      throw VipsError("\(name): cannot read: \(reason)")
    }
    if let limit = options.pixelLimit, image.width * image.height > limit {
      throw overPixelLimit(name, width: image.width, height: image.height, limit: limit)
    }
    guard options.autoRotate, image.orientation != 1 else { return image }
    return try image.autoRotated()
  }

  /// The error for a picture of `width × height` that is over the pixel limit `limit`.
  static func overPixelLimit(_ name: String, width: Int, height: Int, limit: Int) -> VipsError {
    VipsError(
      "\(name): image is \(width)×\(height) (\(megapixels(width * height)) megapixels), "
        + "over the pixel limit of \(megapixels(limit)) megapixels")
  }

  /// The loader arguments that decode at about 1/`shrink` of full size (see ``LoadOptions/shrink``);
  /// none for a loader that cannot.
  static func shrinkArguments(_ loader: String, shrink: Int) -> [String: Argument] {
    guard shrink > 1 else { return [:] }
    switch displayName(loader) {
    case "jpegload":
      // libjpeg scales by 1/2, 1/4 or 1/8 while decoding.
      return ["shrink": .int(shrink >= 8 ? 8 : shrink >= 4 ? 4 : 2)]
    case "webpload":
      return ["scale": .double(1 / Double(shrink))]
    default:
      return [:]
    }
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

/// A loader's name as users know it: "jpegload" for libvips's "jpegload_source", which reads the same
/// format from an open file.
func displayName(_ loader: String) -> String {
  loader.hasSuffix("_source") ? String(loader.dropLast("_source".count)) : loader
}

private func megapixels(_ pixels: Int) -> String {
  let value = Double(pixels) / 1_000_000
  return value >= 10 ? String(Int(value.rounded())) : String(format: "%.1f", value)
}
