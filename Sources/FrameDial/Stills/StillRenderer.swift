import Controls
import Foundation
import HEIF
import Raw
import Vips

/// Options for rendering a still.
///
/// Encodable so that a batch can record what made each output (``RenderSettings``): every stored
/// property is encoded, so a new option is part of that record without further work.
public struct StillOptions: Sendable, Equatable, Encodable {
  /// Output format; nil takes it from the output file's extension.
  public var format: ImageFormat?
  /// Quality 1 … 100 for lossy formats; nil picks FrameDial's default (see ``QualityChoice``: a JPEG
  /// from a JPEG keeps the input's quality and chroma subsampling).
  public var quality: Int?
  /// How files are read: pixel limit, fail-on policy, and `sequential` to read strip by strip whenever
  /// the plan allows (no zoom, no auto white balance).
  public var load: LoadOptions
  /// How a zoom window is enlarged (bicubic for stills by default).
  public var zoomKernel: ZoomKernel
  /// False renders through the unoptimized graph (for comparisons).
  public var optimized: Bool
  /// Sizes the output for a device screen (`--fit`); nil keeps the rendered size.
  public var fit: ScreenFit?
  /// Fits the output inside a box (`--size`), after the zoom; nil keeps the rendered size. Files that
  /// can be are decoded smaller (shrink-on-load, see ``SizeFit/loadShrink(imageWidth:imageHeight:zoom:)``;
  /// JPEGs at M/8, see ``SizeFit/jpegEighths(imageWidth:imageHeight:zoom:)``).
  /// With ``fit`` too, the size applies first.
  public var size: SizeFit?
  /// The colour (red, green, blue, 0 … 255) a transparent image is flattened onto when the output format
  /// has no alpha (JPEG): white by default, as a page or a viewer shows it.
  public var background: SIMD3<Double>
  /// The colour space written (`--profile`): the picture's own by default (see ``OutputProfile``).
  public var profile: OutputProfile
  /// The input's metadata carried over (`--strip`, `--strip-location`; see ``MetadataChoice``).
  public var metadata: MetadataChoice
  /// How hard the HEIC encoder works for a smaller file (`--effort`); other formats ignore it.
  public var effort: EncodingEffort
  /// Whether an HDR photo's gain map is kept where the output can hold it (`--hdr-photo`).
  public var hdrPhoto: HDRPhotoChoice

  /// Creates options with FrameDial's defaults.
  public init(
    format: ImageFormat? = nil, quality: Int? = nil, load: LoadOptions = LoadOptions(),
    zoomKernel: ZoomKernel = .bicubic, optimized: Bool = true, fit: ScreenFit? = nil,
    background: SIMD3<Double> = SIMD3(255, 255, 255), size: SizeFit? = nil,
    profile: OutputProfile = .keep, metadata: MetadataChoice = .keep,
    effort: EncodingEffort = .standard, hdrPhoto: HDRPhotoChoice = .keep
  ) {
    self.hdrPhoto = hdrPhoto
    self.profile = profile
    self.metadata = metadata
    self.effort = effort
    self.size = size
    self.background = background
    self.format = format
    self.quality = quality
    self.load = load
    self.zoomKernel = zoomKernel
    self.optimized = optimized
    self.fit = fit
  }
}

/// What rendering one still produced.
public struct StillResult: Sendable, Equatable {
  /// The file written.
  public var outputPath: String
  /// Its size in pixels.
  public var width: Int
  /// Its height in pixels.
  public var height: Int
  /// Its format.
  public var format: ImageFormat
  /// What could not be carried over, one sentence each naming the input (see
  /// `StillRenderer/metadataWarnings(_:format:input:)`).
  public var warnings: [String] = []
}

/// Renders still images: read, orient, bring to the colour space the controls run in (see
/// ``OutputProfile``), apply the compiled plan, write atomically with metadata (EXIF with orientation 1
/// and no thumbnail, the ICC profile of the space written, XMP, IPTC; see ``MetadataChoice``).
public final class StillRenderer: Sendable {
  /// The compiled plans, shared by every render of this renderer.
  public let cache: PlanCache

  /// Creates a renderer with its own plan cache (or a shared one).
  public init(cache: PlanCache = PlanCache()) {
    self.cache = cache
  }

  /// The rendered graph of a prepared image (see ``StillInput``); nothing is computed until it is written.
  /// `outputSize` is the size of the result (for ``StillOptions/size``); nil keeps the image's size.
  /// `encoding` is the space of the image's codes (sRGB, or Display P3 for a picture kept in P3; see
  /// ``OutputProfile``): the controls run in its linear light.
  public func render(
    _ image: Image, state: ControlState, options: StillOptions = StillOptions(),
    outputSize: (width: Int, height: Int)? = nil, encoding: ColourEncoding = .sRGB
  ) throws -> Image {
    let plan = cache.plan(for: state, encoding: encoding)
    let gains = try Self.autoGains(plan: plan, image: image)
    if options.optimized {
      return try plan.lowered(
        on: image, autoGains: gains, zoomKernel: options.zoomKernel, outputSize: outputSize)
    }
    let rendered = try plan.recipe.loweredUnoptimized(
      on: image, autoGains: gains, zoomKernel: options.zoomKernel)
    guard let size = outputSize, size.width != rendered.width || size.height != rendered.height
    else { return rendered }
    return try rendered.thumbnailed(width: size.width, height: size.height)
  }

  /// The white-balance gains `plan` measures on `image` (the zoom window's pixels), ones when it
  /// measures none.
  static func autoGains(plan: Plan, image: Image) throws -> SIMD3<Double> {
    guard plan.needsAutoWhiteBalance else { return SIMD3(1, 1, 1) }
    var window = image
    if let zoom = plan.zoom {
      window = try image.extractArea(
        zoom.window(imageWidth: image.width, imageHeight: image.height).pixelBounds(margin: 0))
    }
    return try AutoWhiteBalance.gains(of: window, sampleWidth: AutoWhiteBalance.stillSampleWidth)
  }

  /// Reads `input`, renders it with `state` and writes `output` atomically: a failure leaves no file at
  /// `output` (and an existing one untouched). Refuses to write onto the input file.
  ///
  /// `beforeMovingIntoPlace` is called with the complete temporary file just before it is renamed to
  /// `output` (a batch sets its time and records what made it there); when it throws, nothing is written.
  @discardableResult
  public func renderFile(
    at input: String, to output: String, state: ControlState,
    options: StillOptions = StillOptions(),
    beforeMovingIntoPlace: (String) throws -> Void = { _ in }
  ) throws -> StillResult {
    guard let format = options.format ?? ImageFormat(path: output) else {
      throw RenderError(
        "\(output): unknown output format; use an extension such as .jpg, .png, .webp, .tif, .heic, .avif"
      )
    }
    try OutputTarget.check(output, input: input)
    let plan = cache.plan(for: state)
    var load = options.load
    // Reading strip by strip keeps memory low, but a zoom window and auto white balance read out of order.
    load.sequential = load.sequential && plan.zoom == nil && !plan.needsAutoWhiteBalance
    let mark = Vips.errorMark()
    let raw = RawStill.identify(input)
    let tagged: Image
    let source: Image
    var flattens = false
    var fallback: ProfileFallback?
    var read:
      (still: PreparedStill, photo: (width: Int, height: Int), rendered: (width: Int, height: Int))?
    if let raw,
      let rendered = try rawInOnePass(
        input, raw, plan: plan, format: format, options: options)
    {
      (source, tagged) = (rendered, try finished(rendered, options: options))
    } else {
      // A developed raw keeps 16 bits through the plan whatever the output, so exposure bias acts on
      // the sensor's precision; an 8-bit output is quantised after it (`RawStill.eightBits(_:)`).
      let (still, outputSize, photo) = try preparedStill(
        input, plan: plan, sixteen: format.supportsSixteenBits || raw != nil, options: options,
        load: load, format: format)
      read = (still, photo, outputSize ?? (still.image.width, still.image.height))
      fallback = still.fallback
      source = still.image
      flattens = still.image.hasAlpha && !format.supportsAlpha
      tagged = try DecodeVerdict.naming(input, load: options.load) {
        try prepared(
          still, state: state, options: options, format: format, outputSize: outputSize,
          flatten: flattens)
      }
    }
    // A gain map that cannot be read leaves the SDR picture, which is whole, and a warning.
    var gainMap: HEIFAuxiliaryPicture?
    var gainMapFailure: String?
    do {
      if let (still, photo, rendered) = read {
        gainMap = try Self.keptGainMap(
          input: input, still: still, photo: photo, rendered: rendered,
          output: (tagged.width, tagged.height),
          plan: cache.plan(for: state, encoding: still.encoding), format: format, options: options)
      }
    } catch let left as GainMapLeft {
      gainMapFailure = left.reason
    } catch {
      gainMapFailure = "it cannot be read: \(error)"
    }
    do {
      try AtomicFile.write(to: output) { temporary in
        do {
          try ImageFileWriter.write(
            tagged, to: temporary, format: format,
            choice: QualityChoice(format: format, requested: options.quality, input: source),
            effort: options.effort, auxiliary: gainMap.map { [$0] } ?? [])
        } catch let error as VipsError {
          throw RenderError.writing(
            output, from: input, temporary: temporary, failure: error, load: options.load)
        }
        try DecodeVerdict.confirm(input, decoded: source, since: mark, load: options.load)
        try beforeMovingIntoPlace(temporary)
      }
    } catch let error as VipsError {
      throw RenderError("\(input): \(error.message)")
    }
    return StillResult(
      outputPath: output, width: tagged.width, height: tagged.height, format: format,
      warnings: (fallback.map { [Self.profileWarning($0, input: input)] } ?? [])
        + (flattens
          ? [Self.flatteningWarning(options.background, format: format, input: input)] : [])
        + Self.metadataWarnings(tagged, format: format, input: input)
        + (gainMap == nil && options.hdrPhoto == .keep
          ? Self.gainMapWarnings(
            source: source, input: input, failure: gainMapFailure,
            keptByHEIC: format != .heic && Self.keepsGainMap(options: options)
              && Self.isApple(source)) : []))
  }

  /// `input` read, upright, and brought to the space its controls run in (see ``StillInput``) for an
  /// output in `format`, made smaller on load for ``StillOptions/size``, with the size of the result
  /// (nil keeps the image's) and the upright picture's full size; `sixteen` keeps 16-bit samples.
  private func preparedStill(
    _ input: String, plan: Plan, sixteen: Bool, options: StillOptions, load: LoadOptions,
    format: ImageFormat
  ) throws -> (
    still: PreparedStill, outputSize: (width: Int, height: Int)?, photo: (width: Int, height: Int)
  ) {
    var outputSize: (width: Int, height: Int)?
    let photo: (width: Int, height: Int)
    let upright: Image
    if let size = options.size {
      let zoom = plan.zoom?.factor ?? 1
      let shrunk = try StillInput.uprightShrunk(
        input, options: load,
        jpegEighths: { size.jpegEighths(imageWidth: $0, imageHeight: $1, zoom: zoom) },
        shrink: { size.loadShrink(imageWidth: $0, imageHeight: $1, zoom: zoom) })
      upright = shrunk.image
      photo = (shrunk.uprightWidth, shrunk.uprightHeight)
      outputSize = size.outputSize(
        inputWidth: shrunk.uprightWidth, inputHeight: shrunk.uprightHeight)
    } else {
      upright = try StillInput.upright(input, options: load)
      photo = (upright.width, upright.height)
    }
    let still = try StillInput.prepare(
      upright,
      keepSixteenBits: sixteen,
      convertsColour: !plan.recipe.colorStages.isEmpty, profile: options.profile, format: format)
    return (still, outputSize, photo)
  }

  /// A raw written to 8 bits whose plan does nothing but colour (no zoom, no auto white balance, no
  /// `--fit`, its own sRGB kept; a `--size` only at half the raw's size or less) is developed and
  /// rendered in one pass over LibRaw's working picture
  /// (`RawStill.rendered8(_:_:colour:options:size:)`): the codes the 16-bit way gives, without its
  /// 16-bit picture (with `--size`, resized after the colour). Nil when it goes the 16-bit way.
  private func rawInOnePass(
    _ input: String, _ raw: CameraRawFile, plan: Plan, format: ImageFormat, options: StillOptions
  ) throws -> Image? {
    guard options.optimized, !format.supportsSixteenBits, options.fit == nil,
      options.profile == .keep, plan.zoom == nil, !plan.needsAutoWhiteBalance
    else { return nil }
    return try RawStill.rendered8(
      input, raw, colour: plan.colorProgram.rawColour, options: options.load,
      size: options.size?.rawOutputSize)
  }

  /// The rendered, fitted and tagged image to write in `format` (in the profile written, sRGB's when
  /// it has none; orientation 1; the metadata ``StillOptions/metadata`` keeps).
  private func prepared(
    _ still: PreparedStill, state: ControlState, options: StillOptions, format: ImageFormat,
    outputSize: (width: Int, height: Int)?, flatten: Bool
  ) throws -> Image {
    var rendered = try render(
      still.image, state: state, options: options, outputSize: outputSize,
      encoding: still.encoding)
    if let fit = options.fit { rendered = try fit.applied(to: rendered) }
    if flatten {
      let colour = options.background
      let grey = (colour.x + colour.y + colour.z) / 3
      let scale = rendered.format == .ushort ? 257.0 : 1
      let bands = rendered.bands - 1
      let background = (bands >= 3 ? [colour.x, colour.y, colour.z] : [grey]).map { $0 * scale }
      rendered = try rendered.flattened(background: background)
    }
    rendered = try still.exported(rendered)
    if rendered.format == .ushort, !format.supportsSixteenBits {
      rendered = try RawStill.eightBits(rendered)
    }
    return try finished(rendered, options: options)
  }

  /// `rendered` with orientation 1, the metadata ``StillOptions/metadata`` keeps, and sRGB's profile
  /// when it has none.
  private func finished(_ rendered: Image, options: StillOptions) throws -> Image {
    let metadata = try options.metadata.edit(for: rendered)
    return try rendered.editingMetadata { editor in
      metadata(editor)
      editor.setInt("orientation", 1)
      if !rendered.hasICCProfile && !SRGBProfile.data.isEmpty {
        editor.setBlob(Image.iccProfileField, SRGBProfile.data)
      }
    }
  }
}
