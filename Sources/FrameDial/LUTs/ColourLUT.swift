import Controls

/// A control state's colour as a 3D lookup table: the colour math evaluated exactly (in double precision,
/// not rounded to 8 bits) at every node of an N×N×N grid over encoded sRGB values 0 … 1. Other tools
/// apply it by interpolating between nodes (`.cube` files: DaVinci Resolve, ffmpeg's `lut3d`, OBS,
/// darktable; Hald CLUT images: ffmpeg's `haldclut`, ImageMagick, G'MIC).
///
/// The zoom is left out (a LUT maps colours, not places); auto white balance measures each picture, so a
/// state that uses it has no LUT.
public struct ColourLUT: Sendable, Equatable {
  /// Nodes per axis.
  public let size: Int
  /// The output of every node, red index varying fastest, then green, then blue (the `.cube` order):
  /// node (r, g, b) is at `r + g·size + b·size²`.
  public let values: [SIMD3<Double>]

  /// The sizes a table may have (2 … 256 nodes per axis).
  public static let sizes = 2...256

  /// The LUT of `state`'s colour with `size` nodes per axis.
  ///
  /// - Throws: ``ColourLUTError`` when the state uses auto white balance or the size is out of range.
  public init(state: ControlState, size: Int) throws(ColourLUTError) {
    guard Self.sizes.contains(size) else { throw .badSize(size) }
    let recipe = Recipe(stages: Recipe(compiling: state).colorStages)
    if recipe.stages.contains(.autoWhiteBalance) { throw .autoWhiteBalance }
    let step = 1 / Double(size - 1)
    var values: [SIMD3<Double>] = []
    values.reserveCapacity(size * size * size)
    for blue in 0..<size {
      for green in 0..<size {
        for red in 0..<size {
          let node = SIMD3(Double(red), Double(green), Double(blue)) * step
          values.append(recipe.evaluate(node))
        }
      }
    }
    self.size = size
    self.values = values
  }

  /// The value at node (`red`, `green`, `blue`), each 0 ..< ``size``.
  public subscript(red: Int, green: Int, blue: Int) -> SIMD3<Double> {
    values[red + green * size + blue * size * size]
  }
}

/// Why a control state has no LUT.
public enum ColourLUTError: Error, Equatable, CustomStringConvertible, Sendable {
  /// Auto white balance depends on each picture's content.
  case autoWhiteBalance
  /// Nodes per axis out of ``ColourLUT/sizes``.
  case badSize(Int)
  /// A Hald CLUT level out of ``ColourLUT/haldLevels``.
  case badHaldLevel(Int)
  /// A table whose nodes per axis are not a square cannot be laid out as a Hald CLUT.
  case notAHaldSize(Int)

  /// The message.
  public var description: String {
    switch self {
    case .autoWhiteBalance:
      "auto white balance measures each picture, so it cannot be a LUT; choose a preset or a "
        + "temperature instead (--set wb=daylight, --set wb=5600)"
    case .badSize(let size):
      "a LUT has \(ColourLUT.sizes.lowerBound) … \(ColourLUT.sizes.upperBound) nodes per axis, not \(size)"
    case .badHaldLevel(let level):
      "a Hald CLUT level is \(ColourLUT.haldLevels.lowerBound) … \(ColourLUT.haldLevels.upperBound), "
        + "not \(level)"
    case .notAHaldSize(let size):
      "a Hald CLUT needs a square number of nodes per axis (4, 9, 16, 25, 36, 49, 64 …), not \(size)"
    }
  }
}
