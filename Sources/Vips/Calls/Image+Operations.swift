import CVips

/// Typed conveniences over ``Operation/call(_:_:)`` for the operations FrameDial uses.
extension Image {
  /// A rectangle of this image.
  public func extractArea(left: Int, top: Int, width: Int, height: Int) throws -> Image {
    try Operation.call(
      "extract_area",
      [
        "input": .image(self), "left": .int(left), "top": .int(top), "width": .int(width),
        "height": .int(height),
      ]
    ).image()
  }

  /// `a × pixel + b` per band, as float (or as 8-bit when `uchar` is set).
  public func linear(_ a: [Double], _ b: [Double], uchar: Bool = false) throws -> Image {
    try Operation.call(
      "linear", ["in": .image(self), "a": .doubles(a), "b": .doubles(b), "uchar": .bool(uchar)]
    )
    .image()
  }

  /// Each pixel looked up in `table` (a one-row image with 256 or 65536 columns).
  public func mapLUT(_ table: Image) throws -> Image {
    try Operation.call("maplut", ["in": .image(self), "lut": .image(table)]).image()
  }

  /// Each pixel multiplied by `matrix` (one row per output band, one column per input band).
  public func recombined(by matrix: Image) throws -> Image {
    try Operation.call("recomb", ["in": .image(self), "m": .image(matrix)]).image()
  }

  /// The image resized by `scale` with `kernel` ("nearest", "linear", "cubic", "lanczos3", …).
  public func resized(by scale: Double, vscale: Double? = nil, kernel: String = "lanczos3") throws
    -> Image
  {
    var arguments: [String: Argument] = [
      "in": .image(self), "scale": .double(scale), "kernel": .string(kernel),
    ]
    if let vscale { arguments["vscale"] = .double(vscale) }
    return try Operation.call("resize", arguments).image()
  }

  /// The image converted to band format `format` (values clipped to its range).
  public func cast(to format: BandFormat) throws -> Image {
    try Operation.call("cast", ["in": .image(self), "format": .string(format.rawValue)]).image()
  }

  /// The bands `first ..< first + count`.
  public func extractBands(_ first: Int, count: Int = 1) throws -> Image {
    try Operation.call("extract_band", ["in": .image(self), "band": .int(first), "n": .int(count)])
      .image()
  }

  /// The bands of `images` joined into one image.
  public static func joinBands(_ images: [Image]) throws -> Image {
    try Operation.call("bandjoin", ["in": .images(images)]).image()
  }

  /// The image in libvips's colour space `space` ("srgb", "scrgb", "b-w", …).
  public func colourspace(_ space: String) throws -> Image {
    try Operation.call("colourspace", ["in": .image(self), "space": .string(space)]).image()
  }

  /// Computes every pixel and discards it: for a loaded image, decodes the whole file, so damaged or
  /// truncated data fails here with libvips's message ("cannot decode the image: …"). With several
  /// libvips threads the decoder's error can be lost; ``verifyDecoding(_:options:)`` decodes on one.
  public func decodeEveryPixel() throws {
    guard fd_decode_all(pointer) == 0 else {
      throw VipsError.fromLibvips("cannot decode the image")
    }
  }

  /// The mean of every band value.
  public func average() throws -> Double {
    try Operation.call("avg", ["in": .image(self)]).double()
  }

  /// A one-row image holding `values` as doubles, `bands` values per column.
  public static func matrix(width: Int, height: Int, values: [Double]) throws -> Image {
    guard values.count == width * height else {
      throw VipsError(
        "a \(width)×\(height) matrix needs \(width * height) values, got \(values.count)")
    }
    let image = try values.withUnsafeBufferPointer { buffer -> Image in
      guard let base = buffer.baseAddress,
        let pointer = vips_image_new_matrix_from_array(
          Int32(width), Int32(height), base, Int32(values.count))
      else { throw VipsError.fromLibvips("cannot make a \(width)×\(height) matrix") }
      return Image(owning: pointer)
    }
    return image
  }

  /// An 8-bit image of `width × height × bands` copied from `pixels` (packed rows).
  public static func fromPixels(_ pixels: [UInt8], width: Int, height: Int, bands: Int) throws
    -> Image
  {
    guard pixels.count == width * height * bands, width > 0, height > 0 else {
      throw VipsError("\(pixels.count) bytes do not make a \(width)×\(height)×\(bands) image")
    }
    return try pixels.withUnsafeBytes { raw -> Image in
      guard let base = raw.baseAddress,
        let pointer = vips_image_new_from_memory_copy(
          base, raw.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
      else { throw VipsError.fromLibvips("cannot make a \(width)×\(height) image") }
      return Image(owning: pointer)
    }
  }

  /// A 16-bit image of `width × height × bands` copied from `samples` (packed rows, native byte order),
  /// interpreted as 16-bit RGB (three or four bands) or 16-bit grey (one or two), so savers write 16 bits.
  public static func fromPixels16(_ samples: [UInt16], width: Int, height: Int, bands: Int) throws
    -> Image
  {
    guard samples.count == width * height * bands, width > 0, height > 0 else {
      throw VipsError("\(samples.count) samples do not make a \(width)×\(height)×\(bands) image")
    }
    let image = try samples.withUnsafeBytes { raw -> Image in
      guard let base = raw.baseAddress,
        let pointer = vips_image_new_from_memory_copy(
          base, raw.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_USHORT)
      else { throw VipsError.fromLibvips("cannot make a \(width)×\(height) image") }
      return Image(owning: pointer)
    }
    return try Operation.call(
      "copy", ["in": .image(image), "interpretation": .string(bands >= 3 ? "rgb16" : "grey16")]
    ).image()
  }

  /// Every pixel of the image computed into memory, packed, in its own band format.
  public func pixelBytes() throws -> [UInt8] {
    var length = 0
    guard let memory = vips_image_write_to_memory(pointer, &length) else {
      throw VipsError.fromLibvips("computing the image's pixels failed")
    }
    defer { g_free(memory) }
    return Array(UnsafeRawBufferPointer(start: memory, count: length))
  }
}
