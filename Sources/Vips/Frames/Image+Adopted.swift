import CVips

extension Image {
  /// A 16-bit image that reads `samples` in place (packed rows, native byte order) and keeps `owner`
  /// alive until libvips closes it: no copy of the pixels is made, and the memory is released with the
  /// last image made from it (libvips's `postclose`), not with this handle. Interpreted as 16-bit RGB
  /// (three or four bands) or 16-bit grey (one or two), like ``fromPixels16(_:width:height:bands:)``.
  ///
  /// `samples` must stay valid and unchanged while `owner` is alive; `owner` is what frees it.
  public static func adopting16(
    _ samples: UnsafeBufferPointer<UInt16>, width: Int, height: Int, bands: Int, owner: AnyObject
  ) throws -> Image {
    try adopting(samples, width: width, height: height, bands: bands, owner: owner)
  }

  /// The 8-bit twin of ``adopting16(_:width:height:bands:owner:)``: interpreted as sRGB (three or four
  /// bands) or grey (one or two).
  public static func adopting8(
    _ samples: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bands: Int, owner: AnyObject
  ) throws -> Image {
    try adopting(samples, width: width, height: height, bands: bands, owner: owner)
  }

  /// `adopting16` and `adopting8`: the band format and interpretation follow the sample's size.
  private static func adopting<Sample: FixedWidthInteger & UnsignedInteger>(
    _ buffer: UnsafeBufferPointer<Sample>, width: Int, height: Int, bands: Int, owner: AnyObject
  ) throws -> Image {
    let sixteen = Sample.bitWidth == 16
    let format = sixteen ? VIPS_FORMAT_USHORT : VIPS_FORMAT_UCHAR
    let interpretation =
      bands >= 3 ? (sixteen ? "rgb16" : "srgb") : (sixteen ? "grey16" : "b-w")
    let samples = buffer.count
    guard let base = buffer.baseAddress, samples == width * height * bands, width > 0, height > 0
    else {
      throw VipsError("\(samples) samples do not make a \(width)×\(height)×\(bands) image")
    }
    try Vips.ensureStarted()
    let bytes = samples * MemoryLayout<Sample>.stride
    guard
      let pointer = vips_image_new_from_memory(
        base, bytes, Int32(width), Int32(height), Int32(bands), format)
    else { throw VipsError.fromLibvips("cannot wrap a \(width)×\(height) image") }
    let context = Unmanaged.passRetained(owner).toOpaque()
    let release: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
      _, context in
      if let context { Unmanaged<AnyObject>.fromOpaque(context).release() }
    }
    g_signal_connect_data(
      pointer, "postclose", unsafeBitCast(release, to: GCallback.self), context, nil,
      GConnectFlags(0))
    let image = Image(owning: pointer)
    return try Operation.call(
      "copy", ["in": .image(image), "interpretation": .string(interpretation)]
    ).image()
  }
}
