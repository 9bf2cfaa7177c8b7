import CLibRaw
import CRawLayout
import Foundation

/// A camera raw or DNG file opened with LibRaw (the thread-safe `libraw_r`): what it is, and its
/// development into linear light. One instance belongs to one thread at a time; instances are
/// independent, so several files develop at once on several threads.
public final class RawFile {
  private let data: UnsafeMutablePointer<libraw_data_t>
  /// How many damaged-data or allocation errors LibRaw has met (it would print them otherwise).
  private let errors: UnsafeMutablePointer<Int32>
  /// The tags LibRaw's parser showed while it opened the file (see `fd_raw_watch_tags`).
  private let tags: OpaquePointer

  /// What the file is.
  public let facts: RawFacts
  /// True once a development (``develop(halfSize:curve:)``, ``developInCameraColours()``) has begun.
  private var isDeveloped = false
  /// True when the development was demosaiced by FrameDial's AHD (``AHDDemosaic``), not LibRaw's.
  private(set) var isDemosaicedByFrameDial = false

  /// LibRaw's version, such as "0.20.2-Release".
  public static var libRawVersion: String { String(cString: libraw_version()) }

  /// Opens `path`, reads what it is (no pixel is decoded) and checks that its raw data lies where and
  /// as the file says (see ``RawDataLayout``).
  ///
  /// - Throws: ``RawError`` when LibRaw does not recognise the file (`.unrecognised`: an unknown camera
  ///   or format, or a file too damaged to tell), when the file is damaged (`.damaged`: LibRaw reported
  ///   damaged data, or the raw data lies past the end of the file or is too small for what it
  ///   promises), or cannot be read; the message names LibRaw's version and reason, not the path.
  public init(path: String) throws {
    guard let data = libraw_init(0) else {
      throw RawError("LibRaw \(Self.libRawVersion) could not start (out of memory)")
    }
    guard let tags = fd_raw_tags_create() else {
      libraw_close(data)
      throw RawError("LibRaw \(Self.libRawVersion) could not start (out of memory)")
    }
    let errors = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    errors.initialize(to: 0)
    fd_raw_count_errors(data, errors)
    fd_raw_watch_tags(data, tags)
    let opened = libraw_open_file(data, path)
    let layout =
      opened == 0
      ? RawDataLayout(data, tags: tags, decoder: String(cString: libraw_unpack_function_name(data)))
      : nil
    let problem: RawError? =
      if opened != 0 {
        RawError(
          "LibRaw \(Self.libRawVersion) cannot open it: \(Self.reason(opened))",
          kind: opened == LIBRAW_FILE_UNSUPPORTED.rawValue
            ? .unrecognised : opened == LIBRAW_IO_ERROR.rawValue ? .damaged : .failed)
      } else if errors.pointee != 0 {
        RawError("LibRaw \(Self.libRawVersion) cannot open it: its data is damaged", kind: .damaged)
      } else if let damage = layout?.problem {
        RawError("the file is damaged: \(damage)", kind: .damaged)
      } else if let unsupported = layout?.unsupported {
        RawError("LibRaw \(Self.libRawVersion) cannot decode \(unsupported)")
      } else {
        nil
      }
    if let problem {
      libraw_close(data)
      fd_raw_tags_free(tags)
      errors.deallocate()
      throw problem
    }
    self.data = data
    self.errors = errors
    self.tags = tags
    facts = Self.facts(of: data, tags: tags)
  }

  deinit {
    libraw_close(data)
    fd_raw_tags_free(tags)
    errors.deallocate()
  }

  /// The LibRaw camera list's entry for the camera `make` and `model` name (as a raw's TIFF tags
  /// spell them: "Canon", "Canon EOS 350D DIGITAL"), such as "Canon EOS 350D / Digital Rebel XT /
  /// Kiss Digital N"; nil when LibRaw does not list it.
  public static func listedCamera(make: String, model: String) -> String? {
    RawCameraList.entry(make: make, model: model)
  }

  /// Develops the raw into linear light: black level subtracted, scaled to the white level, the file's
  /// as-shot white balance, AHD demosaicing (adaptive homogeneity-directed, LibRaw's `-q 3`), the
  /// camera's matrix into the sRGB primaries, the raw's orientation applied; 16 bits per sample with
  /// 65 535 at the sensor's white level, gamma 1 (linear), no automatic brightening. Highlights that
  /// clip in some channels are clipped to white (LibRaw's default, `highlight` 0), so a blown sky turns
  /// white rather than magenta. `halfSize` develops at half the width and height, each 2×2 block of
  /// photosites one pixel (no demosaicing): a quarter of the work, for outputs at most half the size.
  /// The same as `dcraw_emu -4 -g 1 1 -W -w -o 1 -q 3 -H 0` (and `-h` for half size).
  ///
  /// `curve`, when given, has an entry for each of the 65 536 linear codes and replaces every linear
  /// sample `v` by `curve[v]` (a transfer function, as LibRaw's own output curve), in the same pass
  /// that packs the samples; without it the samples stay linear.
  ///
  /// A file develops once; read ``xmp`` before. An upright raw (no orientation to apply) is packed in
  /// place in LibRaw's working picture, with no copy: the file's memory (its raw data too) then stays
  /// until the developed raw is released. Any other is copied upright by LibRaw, and the raw data, the
  /// working picture and the XMP packet are released at once.
  ///
  /// - Throws: ``RawError`` when the raw data cannot be decoded (an unsupported compression, a
  ///   truncated or damaged file: LibRaw's reports of damaged data refuse the file rather than develop
  ///   what it could read) or developed, or when it was developed before.
  public func develop(halfSize: Bool = false, curve: [UInt16]? = nil) throws -> DevelopedRaw {
    try develop(halfSize: halfSize, curve: curve, demosaicing: .standard)
  }

  /// ``develop(halfSize:curve:)`` with the demosaicing given.
  func develop(halfSize: Bool, curve: [UInt16]?, demosaicing: Demosaicing) throws -> DevelopedRaw {
    guard !isDeveloped else {
      throw RawError("LibRaw \(Self.libRawVersion) develops a file once; open it again")
    }
    if let curve, curve.count != 65536 {
      throw RawError("a curve has 65536 entries, not \(curve.count)")
    }
    try process(halfSize: halfSize, cameraColours: false, demosaicing: demosaicing)
    let table = curve ?? Self.identity
    let (width, height, colours) = (
      Int(fd_raw_width(data)), Int(fd_raw_height(data)), Int(fd_raw_colors(data))
    )
    if fd_raw_flip(data) == 0, colours == 3 || colours == 1, width > 0, height > 0,
      let picture = fd_raw_working_picture(data)
    {
      // LibRaw's own copy (dcraw_make_mem_image) would read the same samples through its output
      // curve, the identity for linear 16-bit output; packing in place spares a second picture.
      Self.pack(picture, pixels: width * height, bands: colours, through: table)
      return DevelopedRaw(
        .workingPicture(self), samples: picture, width: width, height: height, bands: colours)
    }
    var status: Int32 = 0
    let image = libraw_dcraw_make_mem_image(data, &status)
    // The raw data and LibRaw's working picture (about ten bytes a pixel) are not needed any more.
    libraw_recycle(data)
    guard let image else {
      throw RawError(
        "LibRaw \(Self.libRawVersion) cannot develop it: \(Self.reason(status))")
    }
    let copied = (
      width: Int(image.pointee.width), height: Int(image.pointee.height),
      colours: Int(image.pointee.colors)
    )
    guard image.pointee.bits == 16, copied.colours == 3 || copied.colours == 1, copied.width > 0,
      copied.height > 0,
      Int(image.pointee.data_size) >= copied.width * copied.height * copied.colours * 2
    else {
      let announced = "\(copied.colours) colours of \(image.pointee.bits) bits"
      libraw_dcraw_clear_mem(image)
      throw RawError(
        "LibRaw \(Self.libRawVersion) developed \(announced), not \(copied.width)×\(copied.height) "
          + "16-bit RGB")
    }
    let samples = fd_raw_image_pixels(image).assumingMemoryBound(to: UInt16.self)
    let count = copied.width * copied.height * copied.colours
    table.withUnsafeBufferPointer { table in
      for index in 0..<count { samples[index] = table[Int(samples[index])] }
    }
    return DevelopedRaw(
      .copy(image), samples: samples, width: copied.width, height: copied.height,
      bands: copied.colours)
  }

  /// True when ``developInCameraColours()`` can develop the file: an upright three-colour Bayer raw.
  public var developsInCameraColours: Bool {
    guard case .bayer = facts.layout else { return false }
    return fd_raw_flip(data) == 0 && fd_raw_colors(data) == 3
  }

  /// Develops the raw as ``develop(halfSize:curve:)`` does, but leaves the last step, the conversion
  /// out of the camera's colours, to the caller: LibRaw's working picture is returned as LibRaw has it
  /// just before its `convert_to_rgb` (16-bit linear camera colours, black level subtracted,
  /// white-balanced and clipped, demosaiced, or at half size each 2×2 block of photosites one pixel)
  /// with the matrix that step would apply for sRGB output. Converting with that matrix as
  /// ``CameraColourPicture`` says gives the samples of ``develop(halfSize:curve:)``, and the caller can
  /// do it in the same pass as its own work.
  ///
  /// - Throws: ``RawError`` when the file is not one ``developsInCameraColours`` accepts, and as
  ///   ``develop(halfSize:curve:)`` does.
  public func developInCameraColours(halfSize: Bool = false) throws -> CameraColourPicture {
    try developInCameraColours(halfSize: halfSize, demosaicing: .standard)
  }

  /// Who demosaics a raw developed at full size.
  enum Demosaicing: Equatable {
    /// FrameDial's AHD in `bands` bands of rows on as many threads (``AHDDemosaic``: the same samples
    /// as LibRaw's, in a fraction of the time), or LibRaw's own AHD when that one does not take the
    /// picture (a pattern other than a Bayer pattern with diagonal greens, or no band) or when the
    /// LibRaw loaded is not the series FrameDial knows how to follow (see `fd_raw_follow_development`).
    case frameDial(bands: Int)
    /// LibRaw's own AHD.
    case libRaw
    /// Nobody: each pixel keeps its own colour only, as ``AHDDemosaic`` takes the picture (on the
    /// LibRaw series FrameDial follows; LibRaw's own AHD on any other).
    case none

    /// FrameDial's AHD on every core.
    static var standard: Demosaicing {
      .frameDial(bands: ProcessInfo.processInfo.activeProcessorCount)
    }
  }

  /// ``developInCameraColours()`` with the demosaicing given.
  func developInCameraColours(halfSize: Bool = false, demosaicing: Demosaicing) throws
    -> CameraColourPicture
  {
    guard !isDeveloped else {
      throw RawError("LibRaw \(Self.libRawVersion) develops a file once; open it again")
    }
    guard developsInCameraColours else {
      throw RawError(
        "only an upright three-colour Bayer raw develops in the camera's colours, not "
          + facts.summary)
    }
    try process(halfSize: halfSize, cameraColours: true, demosaicing: demosaicing)
    let (width, height) = (Int(fd_raw_width(data)), Int(fd_raw_height(data)))
    guard fd_raw_colors(data) == 3, width > 0, height > 0,
      let picture = fd_raw_working_picture(data)
    else {
      throw RawError(
        "LibRaw \(Self.libRawVersion) developed \(fd_raw_colors(data)) colours of \(width)×\(height), "
          + "not a three-colour picture")
    }
    return CameraColourPicture(
      file: self, samples: picture, width: width, height: height,
      cameraMatrix: Self.cameraMatrix(data))
  }

  /// LibRaw's development with FrameDial's settings (see ``develop(halfSize:curve:)``), into its
  /// working picture; `cameraColours` leaves out the conversion out of the camera's colours and the
  /// histogram LibRaw counts for automatic brightening. At full size, `demosaicing` says who demosaics:
  /// for `.frameDial`, LibRaw stops before its own demosaicing and ``AHDDemosaic`` runs at that step.
  private func process(halfSize: Bool, cameraColours: Bool, demosaicing: Demosaicing) throws {
    isDeveloped = true
    fd_raw_set_linear_output(data)
    if cameraColours { fd_raw_set_camera_colour_output(data) }
    fd_raw_set_camera_white_balance(data, 1)
    fd_raw_set_demosaic(data, 3)
    fd_raw_set_half_size(data, halfSize ? 1 : 0)
    fd_raw_set_highlight(data, 0)
    let unpacked = libraw_unpack(data)
    guard unpacked == 0, errors.pointee == 0 else {
      throw RawError(
        "LibRaw \(Self.libRawVersion) cannot decode its raw data: "
          + (unpacked != 0 ? Self.reason(unpacked) : "it is damaged or cut short"),
        kind: unpacked == LIBRAW_IO_ERROR.rawValue || unpacked == 0 ? .damaged : .failed)
    }
    var development = fd_raw_development()
    development.skip_histogram = cameraColours ? 1 : 0
    if case .frameDial(let bands) = demosaicing {
      development.demosaic = { raw, bands in
        guard let raw else { return 0 }
        return RawFile.demosaicWithAHD(raw, bands: Int(bands)) ? 1 : 0
      }
      development.bands = Int32(clamping: bands)
    }
    let processed = withUnsafeMutablePointer(to: &development) { development in
      let follows = fd_raw_follow_development(data, development) != 0
      defer { libraw_set_progress_handler(data, nil, nil) }
      fd_raw_set_no_interpolation(data, follows && !halfSize && demosaicing != .libRaw ? 1 : 0)
      return libraw_dcraw_process(data)
    }
    isDemosaicedByFrameDial = development.demosaiced != 0
    guard processed == 0 else {
      throw RawError(
        "LibRaw \(Self.libRawVersion) cannot develop it: \(Self.reason(processed))")
    }
  }

  /// ``AHDDemosaic`` on the working picture of `raw`, which LibRaw left undemosaiced; false when it
  /// did not run (LibRaw's own then does).
  private static func demosaicWithAHD(_ raw: UnsafeMutablePointer<libraw_data_t>, bands: Int)
    -> Bool
  {
    let (width, height) = (Int(fd_raw_width(raw)), Int(fd_raw_height(raw)))
    guard fd_raw_colors(raw) == 3, width > 0, height > 0,
      let picture = fd_raw_working_picture(raw)
    else { return false }
    return AHDDemosaic.run(
      picture, width: width, height: height, filters: fd_raw_filters(raw),
      camera: cameraMatrix(raw), bands: bands)
  }

  /// LibRaw's camera → sRGB matrix (`rgb_cam`) of `raw`, row-major 3 × 3.
  private static func cameraMatrix(_ raw: UnsafeMutablePointer<libraw_data_t>) -> [Float] {
    (0..<3).flatMap { row in
      (0..<3).map { column in fd_raw_camera_matrix(raw, Int32(row), Int32(column)) }
    }
  }

  /// Rewrites LibRaw's working picture, four samples a pixel, as `bands` samples a pixel from its
  /// start, each through `table`. Every write lands at or before the sample just read, so no sample
  /// is overwritten before it is read.
  private static func pack(
    _ picture: UnsafeMutablePointer<UInt16>, pixels: Int, bands: Int, through table: [UInt16]
  ) {
    table.withUnsafeBufferPointer { table in
      if bands == 3 {
        for pixel in 0..<pixels {
          let from = picture + pixel * 4
          let to = picture + pixel * 3
          let (red, green, blue) = (from[0], from[1], from[2])
          to[0] = table[Int(red)]
          to[1] = table[Int(green)]
          to[2] = table[Int(blue)]
        }
      } else {
        for pixel in 0..<pixels { picture[pixel] = table[Int(picture[pixel * 4])] }
      }
    }
  }

  /// The curve that leaves every code as it is.
  private static let identity: [UInt16] = (0...65535).map { UInt16($0) }

  /// The XMP packet the file carries, if any.
  public var xmp: [UInt8]? {
    var length: UInt32 = 0
    guard let packet = fd_raw_xmp(data, &length), length > 0 else { return nil }
    return packet.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
      Array(UnsafeBufferPointer(start: $0, count: Int(length)))
    }
  }

  private static func reason(_ code: Int32) -> String {
    String(cString: libraw_strerror(code)).lowercased()
  }

  private static func facts(of data: UnsafeMutablePointer<libraw_data_t>, tags: OpaquePointer)
    -> RawFacts
  {
    let filters = fd_raw_filters(data)
    let letters = Array(String(cString: fd_raw_colour_letters(data)))
    func letter(_ row: Int32, _ column: Int32) -> String {
      let index = Int(libraw_COLOR(data, row, column))
      return index >= 0 && index < letters.count ? String(letters[index]) : "?"
    }
    let layout: RawFacts.Layout
    if filters == 0 {
      layout = .linear
    } else if filters < 1000 || fd_raw_colors(data) != 3 {
      // LibRaw gives small numbers for X-Trans (9) and Leaf (1) sensors.
      layout = .otherMosaic(String(letters.prefix(Int(fd_raw_colors(data)))))
    } else {
      layout = .bayer(letter(0, 0) + letter(0, 1) + letter(1, 0) + letter(1, 1))
    }
    let red = Double(fd_raw_camera_multiplier(data, 0))
    let green = Double(fd_raw_camera_multiplier(data, 1))
    let blue = Double(fd_raw_camera_multiplier(data, 2))
    let flip = fd_raw_flip(data)
    let turned = flip & 4 != 0
    let (width, height) = (Int(fd_raw_width(data)), Int(fd_raw_height(data)))
    func known(_ value: Float) -> Double? { value > 0 ? Double(value) : nil }
    let lens = String(cString: fd_raw_lens(data))
    var length: Int32 = 0
    return RawFacts(
      make: String(cString: fd_raw_make(data)), model: String(cString: fd_raw_model(data)),
      isDNG: fd_raw_dng_version(data) != 0, layout: layout,
      width: turned ? height : width, height: turned ? width : height,
      rawWidth: Int(fd_raw_raw_width(data)), rawHeight: Int(fd_raw_raw_height(data)),
      blackLevel: Int(fd_raw_black(data)), whiteLevel: Int(fd_raw_maximum(data)),
      asShotMultipliers: red > 0 && green > 0 && blue > 0
        ? SIMD3(red / green, 1, blue / green) : nil,
      orientation: orientation(flip: flip),
      iso: known(fd_raw_iso(data)), exposureTime: known(fd_raw_shutter(data)),
      fNumber: known(fd_raw_aperture(data)), focalLength: known(fd_raw_focal_length(data)),
      captureTime: fd_raw_timestamp(data) > 0 ? Int(fd_raw_timestamp(data)) : nil,
      lens: lens.isEmpty ? nil : lens, location: location(data, tags: tags),
      artist: text(fd_raw_artist(tags, &length), length),
      copyright: text(fd_raw_copyright(tags, &length), length))
  }

  /// A text tag's bytes as UTF-8, or as Latin-1 when they are not UTF-8; nil for none.
  private static func text(_ bytes: UnsafePointer<CChar>?, _ length: Int32) -> String? {
    guard let bytes, length > 0 else { return nil }
    let buffer = UnsafeRawBufferPointer(start: bytes, count: Int(length))
    if let utf8 = String(validating: buffer, as: UTF8.self) { return utf8 }
    return String(buffer.map { Character(UnicodeScalar($0)) })
  }

  private static func location(_ data: UnsafeMutablePointer<libraw_data_t>, tags: OpaquePointer)
    -> RawFacts.Location?
  {
    guard fd_raw_has_gps(data) != 0 else { return nil }
    func reference(_ value: CChar, _ fallback: String) -> String {
      value > 0x20 && value < 0x7F ? String(UnicodeScalar(UInt8(value))) : fallback
    }
    return RawFacts.Location(
      latitude: SIMD3((0..<3).map { Double(fd_raw_latitude(data, $0)) }),
      latitudeRef: reference(fd_raw_latitude_ref(data), "N"),
      longitude: SIMD3((0..<3).map { Double(fd_raw_longitude(data, $0)) }),
      longitudeRef: reference(fd_raw_longitude_ref(data), "E"),
      // LibRaw reads 0 m when the file gives no altitude; the parser's tags tell the two apart.
      altitude: fd_raw_has_altitude(tags) != 0 ? Double(fd_raw_altitude(data)) : nil,
      belowSeaLevel: fd_raw_altitude_ref(data) == 1)
  }

  /// The EXIF orientation of dcraw's flip (0 upright, 3 half a turn, 5 a quarter turn
  /// counter-clockwise, 6 a quarter turn clockwise; LibRaw turns the pixels itself).
  private static func orientation(flip: Int32) -> Int {
    switch flip {
    case 3: 3
    case 5: 8
    case 6: 6
    default: 1
    }
  }
}
