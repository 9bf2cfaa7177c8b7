/// A simple stand-in glyph for the SF Symbols the standard controls use, drawn from DejaVu Sans (FrameDial
/// has no SF Symbols font). An unknown symbol draws nothing: a symbol's name is never shown as text.
public enum SymbolGlyph {
  /// The standard controls' symbol names and the glyphs drawn for them.
  public static let glyphs: [String: String] = [
    "plusminus.circle": "±",  // exposure bias
    "plus.magnifyingglass": "⊕",  // zoom
    "circle.lefthalf.filled": "◐",  // contrast
    "drop.fill": "◉",  // saturation
    "thermometer.sun": "☀",  // white balance
    "thermometer.medium": "☀",  // temperature
    "paintpalette": "◈",  // tint
    "camera.filters": "◎",  // filter
    "grid": "▦",  // grid
  ]

  /// The glyph for `symbolName`, or nil when FrameDial has none (then nothing is drawn).
  public static func glyph(for symbolName: String) -> String? { glyphs[symbolName] }
}
