import Foundation
import Vips

/// Camera raws and DNGs developed on LibRaw into the still form FrameDial's compiled plans work on
/// (image-math.md, "RAW (LibRaw)"): LibRaw develops to linear light in the sRGB primaries (16 bits, as-shot
/// white balance, AHD, the raw's orientation applied, see ``RawFile/develop(halfSize:curve:)``); those
/// values are encoded with the sRGB transfer into 16-bit samples as the development packs them, an
/// upright `rgb16` image with orientation 1, so the plan's own linearisation gives back LibRaw's
/// linear light and exposure bias, white balance, contrast, saturation and looks act on the raw data.
/// No raw ever reaches a libvips loader. Errors are ``RawError``s whose message names the file.
public enum RawStill {
  /// The raw file at `path`, or nil when it is not one (see ``CameraRawFile``).
  public static func identify(_ path: String) -> CameraRawFile? {
    CameraRawFile(path: path)
  }

  /// What the raw at `path` is, read by LibRaw without developing it.
  ///
  /// - Throws: ``RawError`` naming the file, what it is and LibRaw's version when LibRaw cannot
  ///   develop it (an unknown camera, a JPEG XL–compressed DNG), and what is wrong with a damaged one.
  public static func facts(_ path: String, _ raw: CameraRawFile) throws -> RawFacts {
    try open(path, raw).facts
  }

  /// Develops the raw at `path`, at half size when `options.shrink` is 2 or more; the pixel limit
  /// applies to the size developed.
  public static func developed(_ path: String, _ raw: CameraRawFile, options: LoadOptions) throws
    -> Image
  {
    let halfSize = options.shrink >= 2
    // The developed samples are encoded with the sRGB transfer as they are packed (in place in LibRaw's
    // working picture for an upright raw), and libvips reads them without a copy.
    let (file, xmp) = try opened(path, raw, options: options, halfSize: halfSize)
    let developed = try developing(path, file) {
      try $0.develop(halfSize: halfSize, curve: SRGBTransfer16.encode)
    }
    let adopted = try Image.adopting16(
      UnsafeBufferPointer(developed.samples), width: developed.width, height: developed.height,
      bands: developed.bands, owner: developed)
    // A monochrome sensor's grey becomes equal red, green and blue.
    let image =
      developed.bands == 3
      ? adopted
      : try Operation.call(
        "copy",
        [
          "in": .image(try Image.joinBands([adopted, adopted, adopted])),
          "interpretation": .string("rgb16"),
        ]
      ).image()
    return try tagged(image, file.facts, xmp: xmp)
  }

  /// The raw at `path` developed and rendered by `colour` (a colour program's tables on the sRGB-encoded
  /// codes ``developed(_:_:options:)`` gives, composed with ``SRGBTransfer16/encode`` before them and
  /// ``eightBitCodes`` after them) to 8-bit sRGB in one pass over LibRaw's working picture (see
  /// ``RawRows``), upright and tagged as ``developed(_:_:options:)`` tags it: the same codes as
  /// developing it, running the program on the result and quantising it with ``eightBits(_:)``, without
  /// the 16-bit picture in between. With `size`, when the output is at most half the raw's size (see
  /// ``shrink(width:height:by:)``), LibRaw develops it at half size and those 8-bit codes are then
  /// resized to the output size (Lanczos 3), where the 16-bit way resizes its 16-bit picture before the
  /// program; a smaller shrink gives nil. Nil too when the raw does not develop in the camera's colours
  /// (see ``RawFile/developsInCameraColours``: a turned or non-Bayer raw), which then takes the way
  /// through ``developed(_:_:options:)``.
  public static func rendered8(
    _ path: String, _ raw: CameraRawFile, colour: RawRows.Colour, options: LoadOptions,
    size: OutputSize? = nil
  ) throws -> Image? {
    let file = try open(path, raw)
    let (width, height) = (file.facts.width, file.facts.height)
    let outputSize = size?.output(width, height)
    if let size {
      // A shrink short of half size goes the 16-bit way, which resizes before the colour.
      let shrink = Self.shrink(width: width, height: height, by: size.loadShrink)
      if shrink < 2 { return nil }
    }
    let halfSize = size != nil
    guard file.developsInCameraColours else { return nil }
    try checkPixelLimit(path, raw, file, options: options, halfSize: halfSize)
    let xmp = file.xmp
    let picture = try developing(path, file) { try $0.developInCameraColours(halfSize: halfSize) }
    do {
      try RawRows.convert(
        picture.samples, pixels: picture.width * picture.height, camera: picture.cameraMatrix,
        colour: colour)
    } catch let error as RawError {
      throw RawError("\(path): \(error.message)")
    }
    let bytes = UnsafeMutableRawPointer(picture.samples).assumingMemoryBound(to: UInt8.self)
    var image = try Image.adopting8(
      UnsafeBufferPointer(start: bytes, count: picture.width * picture.height * 3),
      width: picture.width, height: picture.height, bands: 3, owner: picture)
    if let outputSize, outputSize != (picture.width, picture.height) {
      image = try image.thumbnailed(width: outputSize.width, height: outputSize.height)
    }
    return try tagged(image, file.facts, xmp: xmp)
  }

  /// An output size asked of a raw: the size written for a raw that develops upright to a width and
  /// height, and the shrink on load that size allows a picture of a width and height, as for any
  /// other picture (see ``shrink(width:height:by:)``).
  public struct OutputSize {
    /// The size written for a raw that develops upright to `width × height`.
    public var output: (_ width: Int, _ height: Int) -> (width: Int, height: Int)
    /// The shrink on load the output size allows a picture of `width × height`.
    public var loadShrink: (_ width: Int, _ height: Int) -> Int

    /// An output size of `output`, allowing the shrink on load `loadShrink`.
    public init(
      output: @escaping (_ width: Int, _ height: Int) -> (width: Int, height: Int),
      loadShrink: @escaping (_ width: Int, _ height: Int) -> Int
    ) {
      self.output = output
      self.loadShrink = loadShrink
    }
  }

  /// The shrink-on-load factor of a raw whose upright size is `width × height`, from the rule
  /// `shrink` gives for other pictures: 2 or more develops at half size (LibRaw's half-size
  /// development, the only shrink a raw has), 1 at full size. Half size needs no margin for the final
  /// resize: asked of a picture twice as large, `shrink` says 2 or more exactly when the output is at
  /// most half this one.
  public static func shrink(width: Int, height: Int, by shrink: (Int, Int) -> Int) -> Int {
    max(1, shrink(2 * width, 2 * height))
  }

  /// The raw opened, its developed size checked against the pixel limit, and its XMP packet (read
  /// before a development releases it).
  private static func opened(
    _ path: String, _ raw: CameraRawFile, options: LoadOptions, halfSize: Bool
  ) throws -> (file: RawFile, xmp: [UInt8]?) {
    let file = try open(path, raw)
    try checkPixelLimit(path, raw, file, options: options, halfSize: halfSize)
    return (file, file.xmp)
  }

  /// Refuses `file` when its development (at half size with `halfSize`) is over the pixel limit.
  private static func checkPixelLimit(
    _ path: String, _ raw: CameraRawFile, _ file: RawFile, options: LoadOptions, halfSize: Bool
  ) throws {
    guard let limit = options.pixelLimit else { return }
    let pixels = file.facts.width * file.facts.height / (halfSize ? 4 : 1)
    if pixels > limit {
      throw RawError(
        "\(path): \(raw.description) develops to \(pixels) pixels, over the pixel limit of "
          + "\(limit)")
    }
  }

  /// `body`'s development of `file`, LibRaw's errors named with the file and what it is.
  private static func developing<Result>(
    _ path: String, _ file: RawFile, _ body: (RawFile) throws -> Result
  ) throws -> Result {
    do {
      return try body(file)
    } catch let error as RawError {
      throw RawError("\(path): \(describe(file.facts)): \(error.message)")
    }
  }

  /// A developed raw upright (orientation 1) with the EXIF of its facts and its XMP packet.
  private static func tagged(_ image: Image, _ facts: RawFacts, xmp: [UInt8]?) throws -> Image {
    let exif = RawEXIF.block(facts)
    return try image.editingMetadata { editor in
      editor.setInt("orientation", 1)
      editor.setBlob(Image.exifField, exif)
      if let xmp { editor.setBlob(Image.xmpField, Data(xmp)) }
    }
  }

  /// A 16-bit rendered raw quantised to 8 bits for a format that holds no more: `round(V × 255)` of the
  /// encoded value `V`, as the plan quantises (image-math.md, stage 7). One table lookup a sample
  /// (``eightBitCodes``).
  public static func eightBits(_ image: Image) throws -> Image {
    let table = try Image.fromPixels(eightBitCodes, width: 65536, height: 1, bands: 1)
    return try Operation.call(
      "copy", ["in": .image(try image.mapLUT(table)), "interpretation": .string("srgb")]
    ).image()
  }

  /// The 8-bit code of each 16-bit code `v`: `round(v × 255 / 65535)`, which is `(v + 128) / 257` in
  /// integers (`v / 257` is never halfway between two integers).
  public static let eightBitCodes: [UInt8] = (0...65535).map { UInt8(($0 + 128) / 257) }

  /// The raw opened with LibRaw; a JPEG XL–compressed DNG is refused before LibRaw reads it, and a
  /// damaged one when LibRaw opens it (see `RawFile.init(path:)`).
  private static func open(_ path: String, _ raw: CameraRawFile) throws -> RawFile {
    if raw.isJPEGXL {
      let version = "LibRaw \(RawFile.libRawVersion)"
      throw RawError(
        "\(path): \(raw.description): \(version) cannot decode JPEG XL–compressed raw data "
          + "(DNG 1.7, as iOS 18 writes ProRAW); export it from Photos as JPEG or HEIC, or convert "
          + "it with Adobe DNG Converter to an uncompressed or lossless-JPEG DNG")
    }
    do {
      return try RawFile(path: path)
    } catch let error as RawError {
      throw RawError("\(path): \(raw.description): \(openingProblem(error, raw))")
    }
  }

  /// What stopped LibRaw opening the raw: what it said, and, when it did not recognise the file,
  /// whether that is because the file is damaged (its camera is one LibRaw lists) or because LibRaw
  /// does not know it.
  private static func openingProblem(_ error: RawError, _ raw: CameraRawFile) -> String {
    let version = "LibRaw \(RawFile.libRawVersion)"
    guard error.kind == .unrecognised else { return error.message }
    if let make = raw.make, let model = raw.model,
      let listed = RawFile.listedCamera(make: make, model: model)
    {
      let camera = listed.split(separator: "/").first.map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      return
        "the file is damaged: \(version) reads the \(camera ?? listed)'s raws but cannot open this "
        + "one"
    }
    return "\(error.message) (this camera or format is unknown to \(version))"
  }

  private static func describe(_ facts: RawFacts) -> String {
    (facts.isDNG ? "a DNG" : "a camera raw file") + " from \(facts.camera)"
  }
}

/// The sRGB transfer for 16-bit samples, as a table of every linear code.
public enum SRGBTransfer16 {
  /// The sRGB-encoded 16-bit code of each linear 16-bit code.
  public static let encode: [UInt16] = (0...65535).map { code in
    let linear = Double(code) / 65535
    let encoded = linear <= 0.003_130_8 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
    return UInt16((encoded * 65535).rounded())
  }
}
