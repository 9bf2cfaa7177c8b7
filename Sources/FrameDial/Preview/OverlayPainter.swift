import Vips

/// Draws the Camera Control overlay into its region (``PreviewLayout/overlay``): a translucent panel
/// that grows out of the bezel beside the control (rounded on the side away from the edge), a glyph for
/// the symbol, the title, the value in the Camera app's yellow, and a scale along the control's slide axis
/// (vertical in portrait with the maximum at the top, horizontal in landscape with the maximum on the
/// right) with ticks, the prominent values labelled and the current value marked; a picker lists its
/// options with the selected one highlighted. Sizes are in points, multiplied by the screen's scale.
struct OverlayPainter {
  /// The overlay's text and scale.
  var content: OverlayContent
  /// How the device is held.
  var orientation: ScreenOrientation
  /// Pixels per point.
  var scale: Int
  /// The region's size in pixels.
  var width: Int
  /// The region's height in pixels.
  var height: Int

  static let white: [Double] = [255, 255, 255]
  static let yellow: [Double] = [255, 214, 10]
  static let grey: [Double] = [200, 200, 204]
  static let regular = "DejaVu Sans"
  static let bold = "DejaVu Sans Bold"

  /// The layers, in region coordinates, to composite over the viewfinder.
  func layers() throws -> [Image.Layer] {
    var layers = [try panel(), try bezelMark()]
    layers += orientation == .portrait ? try portraitContent() : try landscapeContent()
    return layers
  }

  // MARK: Portrait: a column against the right edge, the scale vertical.

  private func portraitContent() throws -> [Image.Layer] {
    let pad = pt(14)
    let inner = width - 2 * pad - pt(6)
    var layers: [Image.Layer] = []
    if let glyph = SymbolGlyph.glyph(for: content.symbolName) {
      layers.append(Image.Layer(try text(glyph, size: 12, color: Self.grey), x: pad, y: pt(10)))
    }
    // Title and value stack by their drawn heights, so a title that wraps pushes the value down.
    let title = try text(content.title, size: 16, bold: true, color: Self.white, wrap: inner)
    layers.append(Image.Layer(title, x: pad, y: pt(28)))
    let valueY = pt(28) + title.height + pt(2)
    let value = try text(content.valueText, size: 22, bold: true, color: Self.yellow, wrap: inner)
    layers.append(Image.Layer(value, x: pad, y: valueY))
    let top = max(pt(96), valueY + value.height + pt(14))
    let bottom = height - pt(16)
    switch content.body {
    case .scale(let slider):
      layers += try verticalScale(slider, top: top, bottom: bottom, lineX: width - pt(40))
    case .options(let options, let selected):
      layers += try verticalOptions(options, selected: selected, top: top, bottom: bottom, x: pad)
    }
    return layers
  }

  private func verticalScale(_ slider: OverlayContent.Scale, top: Int, bottom: Int, lineX: Int)
    throws -> [Image.Layer]
  {
    var layers: [Image.Layer] = []
    let length = bottom - top
    func y(_ position: Double) -> Int { bottom - Int((Double(length) * position).rounded()) }
    layers.append(
      try rect(width: pt(2), height: length, color: Self.white + [110], x: lineX, y: top))
    for tick in 0...20 {
      let ty = y(Double(tick) / 20)
      layers.append(
        try rect(
          width: pt(8), height: pt(1), color: Self.white + [150],
          x: lineX - pt(8), y: ty))
    }
    // Labels from the top down, each beside its mark; one that would overlap its neighbour moves to a
    // second lane further out, so every prominent value keeps its label.
    let labels = try slider.marks.reversed().map { try text($0.label, size: 11, color: Self.white) }
    let marksY = slider.marks.reversed().map { y(slider.position(of: $0.value)) }
    for markY in marksY {
      layers.append(
        try rect(
          width: pt(16), height: pt(2), color: Self.white + [255], x: lineX - pt(16),
          y: markY - pt(1)))
    }
    let starts = zip(labels, marksY).map { label, markY in markY - label.height / 2 }
    let lanes = LabelLanes.assign(
      spans: zip(starts, labels).map { $0...($0 + $1.height) }, gap: pt(2))
    let laneWidth = (labels.map(\.width).max() ?? 0) + pt(8)
    for (index, lane) in lanes.enumerated() {
      guard let lane else { continue }
      let right = lineX - pt(22) - lane * laneWidth
      layers.append(
        Image.Layer(labels[index], x: max(0, right - labels[index].width), y: starts[index]))
    }
    let vy = y(slider.position(of: slider.value))
    layers.append(
      try rect(
        width: pt(30), height: pt(3), color: Self.yellow + [255], x: lineX - pt(14), y: vy - pt(1)))
    return layers
  }

  private func verticalOptions(
    _ options: [String], selected: Int, top: Int, bottom: Int, x: Int
  ) throws -> [Image.Layer] {
    let row = pt(20)
    let rows = max(1, (bottom - top) / row)
    let first = min(max(0, selected - rows / 2), max(0, options.count - rows))
    var layers: [Image.Layer] = []
    for (offset, index) in (first..<min(options.count, first + rows)).enumerated() {
      let chosen = index == selected
      let label = try text(
        (chosen ? "› " : "  ") + options[index], size: 13, bold: chosen,
        color: chosen ? Self.yellow : Self.grey)
      layers.append(Image.Layer(label, x: x, y: top + offset * row))
    }
    return layers
  }

  // MARK: Landscape: a band against the top edge, the scale horizontal.

  private func landscapeContent() throws -> [Image.Layer] {
    let pad = pt(16)
    var layers: [Image.Layer] = []
    let title = try text(content.title, size: 16, bold: true, color: Self.white)
    layers.append(Image.Layer(title, x: pad, y: pt(12)))
    if let glyph = SymbolGlyph.glyph(for: content.symbolName) {
      let symbol = try text(glyph, size: 12, color: Self.grey)
      layers.append(Image.Layer(symbol, x: width - pad - symbol.width, y: pt(14)))
    }
    let value = try text(content.valueText, size: 22, bold: true, color: Self.yellow)
    layers.append(Image.Layer(value, x: pad, y: pt(34)))
    switch content.body {
    case .scale(let slider):
      layers += try horizontalScale(
        slider, left: pad + pt(6), right: width - pad - pt(6), lineY: pt(90))
    case .options(let options, let selected):
      layers += try horizontalOptions(options, selected: selected, y: pt(86))
    }
    return layers
  }

  private func horizontalScale(_ slider: OverlayContent.Scale, left: Int, right: Int, lineY: Int)
    throws -> [Image.Layer]
  {
    var layers: [Image.Layer] = []
    let length = right - left
    func x(_ position: Double) -> Int { left + Int((Double(length) * position).rounded()) }
    layers.append(
      try rect(width: length, height: pt(2), color: Self.white + [110], x: left, y: lineY))
    for tick in 0...20 {
      layers.append(
        try rect(
          width: pt(1), height: pt(8), color: Self.white + [150],
          x: x(Double(tick) / 20), y: lineY - pt(8)))
    }
    // Labels left to right under their marks, on a common baseline (bottom-aligned in their row); one
    // that would overlap its neighbour moves to a second row, so every prominent value keeps its label.
    let labels = try slider.marks.map { try text($0.label, size: 11, color: Self.white) }
    let marksX = slider.marks.map { x(slider.position(of: $0.value)) }
    for markX in marksX {
      layers.append(
        try rect(
          width: pt(2), height: pt(16), color: Self.white + [255], x: markX - pt(1),
          y: lineY - pt(16)))
    }
    let starts = zip(labels, marksX).map { label, markX in
      min(max(0, markX - label.width / 2), width - label.width)
    }
    let lanes = LabelLanes.assign(
      spans: zip(starts, labels).map { $0...($0 + $1.width) }, gap: pt(4), lanes: 3)
    let rowHeight = (labels.map(\.height).max() ?? 0) + pt(2)
    let baselines = [lineY + pt(4) + rowHeight, lineY - pt(19), lineY + pt(4) + 2 * rowHeight]
    for (index, lane) in lanes.enumerated() {
      guard let lane else { continue }
      layers.append(
        Image.Layer(labels[index], x: starts[index], y: baselines[lane] - labels[index].height))
    }
    let vx = x(slider.position(of: slider.value))
    layers.append(
      try rect(
        width: pt(3), height: pt(30), color: Self.yellow + [255], x: vx - pt(1), y: lineY - pt(20)))
    return layers
  }

  private func horizontalOptions(_ options: [String], selected: Int, y: Int) throws -> [Image.Layer]
  {
    let gap = pt(14)
    let labels = try options.indices.map { index in
      try text(
        options[index], size: 13, bold: index == selected,
        color: index == selected ? Self.yellow : Self.grey)
    }
    guard labels.indices.contains(selected) else { return [] }
    var layers: [Image.Layer] = []
    let centre = width / 2
    var placed = [(selected, centre - labels[selected].width / 2)]
    var leftEdge = placed[0].1
    var rightEdge = placed[0].1 + labels[selected].width
    var offset = 1
    while selected - offset >= 0 || selected + offset < labels.count {
      if selected - offset >= 0 {
        let candidate = leftEdge - gap - labels[selected - offset].width
        if candidate >= pt(12) {
          placed.append((selected - offset, candidate))
          leftEdge = candidate
        }
      }
      if selected + offset < labels.count {
        let candidate = rightEdge + gap
        if candidate + labels[selected + offset].width <= width - pt(12) {
          placed.append((selected + offset, candidate))
          rightEdge = candidate + labels[selected + offset].width
        }
      }
      offset += 1
    }
    for (index, x) in placed { layers.append(Image.Layer(labels[index], x: x, y: y)) }
    return layers
  }

  // MARK: Shapes and text.

  /// The translucent panel: square on the bezel side, rounded on the others.
  private func panel() throws -> Image.Layer {
    let radius = pt(22)
    var alpha = [UInt8](repeating: 168, count: width * height)
    for py in 0..<height {
      for px in 0..<width {
        // Distance into a corner that is rounded: the two corners away from the bezel edge.
        let cx: Int?
        let cy: Int?
        switch orientation {
        case .portrait:
          cx = px < radius ? radius - px : nil
          cy =
            py < radius ? radius - py : (py >= height - radius ? py - (height - radius - 1) : nil)
        case .landscape:
          cy = py >= height - radius ? py - (height - radius - 1) : nil
          cx = px < radius ? radius - px : (px >= width - radius ? px - (width - radius - 1) : nil)
        }
        if let cx, let cy, cx * cx + cy * cy > radius * radius {
          alpha[py * width + px] = 0
        }
      }
    }
    let mask = try Image.fromPixels(alpha, width: width, height: height, bands: 1)
    let fill = try mask.linear([0, 0, 0], [18, 18, 20], uchar: true)
    return Image.Layer(try Image.joinBands([fill, mask]).interpreted(as: "srgb"), x: 0, y: 0)
  }

  /// A bright capsule on the bezel edge where the control is: the overlay "extends from the bezel".
  private func bezelMark() throws -> Image.Layer {
    switch orientation {
    case .portrait:
      return try rect(
        width: pt(4), height: pt(64), color: Self.white + [230], x: width - pt(4),
        y: height / 2 - pt(32))
    case .landscape:
      return try rect(
        width: pt(64), height: pt(4), color: Self.white + [230], x: width / 2 - pt(32), y: 0)
    }
  }

  private func rect(width: Int, height: Int, color: [Double], x: Int, y: Int) throws -> Image.Layer
  {
    Image.Layer(
      try Image.solid(width: max(1, width), height: max(1, height), color: color), x: x, y: y)
  }

  private func text(
    _ string: String, size: Int, bold: Bool = false, color: [Double], wrap: Int? = nil
  ) throws -> Image {
    try Image.text(
      PangoMarkup.escaped(string), font: "\(bold ? Self.bold : Self.regular) \(size)",
      dpi: 72 * scale,
      color: color, wrapWidth: wrap)
  }

  private func pt(_ points: Int) -> Int { points * scale }
}

/// Escapes text for libvips's `text` operation, which reads Pango markup.
enum PangoMarkup {
  /// `text` with `&`, `<` and `>` written as entities.
  static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;")
  }
}
