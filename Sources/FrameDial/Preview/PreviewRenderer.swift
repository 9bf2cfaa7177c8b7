import Controls
import Foundation
import Vips

/// What a preview shows besides the picture.
public struct PreviewOptions: Sendable {
  /// The device whose screen is drawn.
  public var device: ScreenDevice
  /// How it is held.
  public var orientation: ScreenOrientation
  /// The Camera Control overlay; nil draws none (it is also left out on devices without the control).
  public var overlay: OverlayContent?
  /// Draws the rule-of-thirds grid over the viewfinder.
  public var grid: Bool
  /// How the input is read (pixel limit, fail-on policy).
  public var load: LoadOptions
  /// How hard the encoder works on a HEIC preview (`--effort`); other formats ignore it.
  public var effort: EncodingEffort

  /// Creates options.
  public init(
    device: ScreenDevice, orientation: ScreenOrientation = .portrait,
    overlay: OverlayContent? = nil,
    grid: Bool = false, load: LoadOptions = LoadOptions(), effort: EncodingEffort = .standard
  ) {
    self.device = device
    self.orientation = orientation
    self.overlay = overlay
    self.grid = grid
    self.load = load
    self.effort = effort
  }
}

/// Draws a device screen showing a processed picture as the camera viewfinder (see ``PreviewLayout``),
/// with the Camera Control overlay and the optional rule-of-thirds grid.
public struct PreviewRenderer: Sendable {
  /// Renders the picture through the controls.
  public let renderer: StillRenderer

  /// Creates a preview renderer (sharing a still renderer's plan cache if given).
  public init(renderer: StillRenderer = StillRenderer()) {
    self.renderer = renderer
  }

  /// Reads `input` and renders it with `state` as an 8-bit, three-band sRGB picture (alpha flattened
  /// onto black, grey expanded).
  public func picture(at input: String, state: ControlState, load: LoadOptions = LoadOptions())
    throws -> Image
  {
    let image = try StillInput.load(input, options: load, keepSixteenBits: false)
    return try Self.displayable(renderer.render(image, state: state))
  }

  /// The screen picture for an already rendered `picture`, and its layout.
  public func compose(_ picture: Image, options: PreviewOptions) throws -> (
    image: Image, layout: PreviewLayout
  ) {
    let layout = PreviewLayout.make(
      device: options.device, orientation: options.orientation, imageWidth: picture.width,
      imageHeight: picture.height)
    let view = layout.viewfinder
    let shown = try Self.displayable(picture).thumbnailed(width: view.width, height: view.height)
    var screen = try Image.solid(
      width: layout.screen.width, height: layout.screen.height, color: [0, 0, 0]
    ).inserting(shown, x: view.x, y: view.y)
    if options.grid { screen = try screen.compositing(gridLayers(view, scale: layout.scale)) }
    if let region = layout.overlay, let content = options.overlay {
      let painter = OverlayPainter(
        content: content, orientation: options.orientation, scale: layout.scale,
        width: region.width, height: region.height)
      let patch = try screen.extractArea(
        left: region.x, top: region.y, width: region.width, height: region.height
      ).compositing(painter.layers())
      screen = try screen.inserting(patch, x: region.x, y: region.y)
    }
    return (screen, layout)
  }

  /// Renders `input` with `state` into a preview written atomically to `output` (its extension picks
  /// the format; PNG keeps the drawing sharp; HEIC is written at `options.effort`). Returns the layout
  /// used.
  @discardableResult
  public func renderFile(
    at input: String, to output: String, state: ControlState, options: PreviewOptions
  ) throws -> PreviewLayout {
    try ImageFileWriter.writeDrawn(
      from: input, to: output, load: options.load, effort: options.effort
    ) {
      try compose(picture(at: input, state: state, load: options.load), options: options)
    }
  }

  /// The rule-of-thirds lines over `view`, one point wide, half-transparent white.
  func gridLayers(_ view: PixelRect, scale: Int) throws -> [Image.Layer] {
    let colour: [Double] = [255, 255, 255, 120]
    let vertical = try Image.solid(width: scale, height: view.height, color: colour)
    let horizontal = try Image.solid(width: view.width, height: scale, color: colour)
    var layers: [Image.Layer] = []
    for third in 1...2 {
      let x: Int = view.x + view.width * third / 3 - scale / 2
      let y: Int = view.y + view.height * third / 3 - scale / 2
      layers.append(Image.Layer(vertical, x: x, y: view.y))
      layers.append(Image.Layer(horizontal, x: view.x, y: y))
    }
    return layers
  }

  /// `image` as 8-bit three-band sRGB: alpha flattened onto black, grey expanded, 16 bits reduced.
  static func displayable(_ image: Image) throws -> Image {
    var result = try image.flattened(background: [0, 0, 0])
    if result.bands < 3 || result.format != .uchar { result = try result.colourspace("srgb") }
    if result.format != .uchar { result = try result.cast(to: .uchar) }
    return result.bands > 3 ? try result.extractBands(0, count: 3) : result
  }
}
