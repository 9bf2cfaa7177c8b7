import Controls
import Foundation
import Vips

/// Renders a contact sheet: one picture rendered at several values of one control, each tile labelled
/// with the value's overlay label (see ``SweepLayout``).
public struct SweepRenderer: Sendable {
  /// Renders each tile.
  public let renderer: StillRenderer

  /// Creates a sweep renderer.
  public init(renderer: StillRenderer = StillRenderer()) {
    self.renderer = renderer
  }

  /// The sheet for `picture` (prepared by ``StillInput``) at each of `steps`, under `heading`.
  ///
  /// The picture is first reduced to the tile width times the largest zoom of the steps (so a zoomed
  /// tile keeps its detail), each step is rendered on that, and the result thumbnailed to the tile size.
  public func sheet(_ picture: Image, steps: [ControlSelection.Step], heading: String) throws -> (
    image: Image, layout: SweepLayout
  ) {
    guard !steps.isEmpty else { throw RenderError("a sweep needs at least one value") }
    let layout = SweepLayout.make(
      count: steps.count, imageWidth: picture.width, imageHeight: picture.height)
    let zoom = steps.map(\.state.zoom).max() ?? 1
    let workWidth = min(picture.width, Int((Double(layout.tileWidth) * max(1, zoom)).rounded(.up)))
    var work = picture
    if workWidth < picture.width {
      let workHeight = max(
        1, Int((Double(picture.height) * Double(workWidth) / Double(picture.width)).rounded()))
      work = try picture.thumbnailed(width: workWidth, height: workHeight)
      // Rendered once per step: keep the reduced picture in memory instead of recomputing it.
      work = try work.materialized()
    }
    var sheet = try Image.solid(width: layout.width, height: layout.height, color: [28, 28, 30])
    var layers: [Image.Layer] = []
    let title = try Image.text(
      PangoMarkup.escaped(heading), font: "DejaVu Sans Bold 15", dpi: 72,
      color: [255, 255, 255], wrapWidth: layout.heading.width)
    layers.append(
      Image.Layer(
        title, x: layout.heading.x, y: layout.heading.y + (layout.heading.height - title.height) / 2
      ))
    for (index, step) in steps.enumerated() {
      let tile = layout.tiles[index]
      let rendered = try PreviewRenderer.displayable(renderer.render(work, state: step.state))
      sheet = try sheet.inserting(
        rendered.thumbnailed(width: tile.width, height: tile.height), x: tile.x, y: tile.y)
      let strip = layout.labels[index]
      let label = try Image.text(
        PangoMarkup.escaped(step.label), font: "DejaVu Sans Bold 14", dpi: 72,
        color: [255, 214, 10], wrapWidth: strip.width)
      layers.append(
        Image.Layer(
          label, x: strip.x + (strip.width - label.width) / 2,
          y: strip.y + (strip.height - label.height) / 2))
    }
    return (try sheet.compositing(layers), layout)
  }

  /// Reads `input`, renders the sheet and writes it atomically to `output` (extension picks the format;
  /// HEIC is written at `effort`).
  @discardableResult
  public func renderFile(
    at input: String, to output: String, steps: [ControlSelection.Step], heading: String,
    load: LoadOptions = LoadOptions(), effort: EncodingEffort = .standard
  ) throws -> SweepLayout {
    try ImageFileWriter.writeDrawn(from: input, to: output, load: load, effort: effort) {
      let picture = try StillInput.load(input, options: load, keepSixteenBits: false)
      return try sheet(picture, steps: steps, heading: heading)
    }
  }
}
