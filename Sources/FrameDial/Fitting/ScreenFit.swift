import Vips

/// Sizes an output for a device screen (`--fit DEVICE[:orientation]`), keeping the aspect ratio. With
/// ``turnsToMatch`` the screen is held the way each picture is (a landscape photo on a landscape screen).
public struct ScreenFit: Sendable, Equatable, Encodable {
  /// How the picture meets the screen.
  public enum Mode: String, Sendable, Equatable, CaseIterable, Encodable {
    /// Scale to cover the screen, then crop the overflow evenly from both sides: exactly the screen's
    /// pixels.
    case cover
    /// Scale to fit inside the screen: one side equals the screen's, the other is no larger; no padding
    /// is added, so the output can be narrower or shorter than the screen.
    case contain
  }

  /// The screen's width in pixels, in the chosen orientation.
  public var width: Int
  /// The screen's height in pixels.
  public var height: Int
  /// Cover or contain.
  public var mode: Mode
  /// True turns the screen a quarter for each picture whose orientation differs from it (landscape
  /// wider than high, portrait higher than wide); a square picture keeps the screen as given.
  public var turnsToMatch: Bool

  /// A fit to `width × height` pixels, turned to match each picture when `turnsToMatch` is true.
  public init(width: Int, height: Int, mode: Mode = .cover, turnsToMatch: Bool = false) {
    self.width = width
    self.height = height
    self.mode = mode
    self.turnsToMatch = turnsToMatch
  }

  /// A fit to `device`'s screen held in `orientation`, or turned to match each picture when
  /// `orientation` is nil (`--fit DEVICE` and `--fit DEVICE:auto`).
  public init(device: ScreenDevice, orientation: ScreenOrientation?, mode: Mode = .cover) {
    let size = device.pixels(in: orientation ?? .portrait)
    self.init(
      width: size.width, height: size.height, mode: mode, turnsToMatch: orientation == nil)
  }

  /// The screen held for an input of `inputWidth × inputHeight`: as given, or turned a quarter when
  /// ``turnsToMatch`` is set and the input's orientation differs from the screen's.
  public func held(inputWidth: Int, inputHeight: Int) -> ScreenFit {
    let differs =
      (inputWidth > inputHeight && width < height)
      || (inputWidth < inputHeight && width > height)
    guard turnsToMatch, differs else { return self }
    return ScreenFit(width: height, height: width, mode: mode, turnsToMatch: true)
  }

  /// The size an input of `inputWidth × inputHeight` is scaled to before any crop: the screen's size on
  /// the side that decides, the other side scaled by the same factor and rounded (at least 1).
  public func scaledSize(inputWidth: Int, inputHeight: Int) -> (width: Int, height: Int) {
    let screen = held(inputWidth: inputWidth, inputHeight: inputHeight)
    let (width, height) = (screen.width, screen.height)
    let wide = inputWidth * height > width * inputHeight  // the input is wider than the screen
    let widthDecides = (mode == .contain) == wide
    if widthDecides {
      let scaled = (Double(inputHeight) * Double(width) / Double(inputWidth)).rounded()
      return (width, max(1, Int(scaled)))
    }
    let scaled = (Double(inputWidth) * Double(height) / Double(inputHeight)).rounded()
    return (max(1, Int(scaled)), height)
  }

  /// The output size for an input of `inputWidth × inputHeight`: the screen's size for cover, the
  /// scaled size for contain.
  public func outputSize(inputWidth: Int, inputHeight: Int) -> (width: Int, height: Int) {
    let scaled = scaledSize(inputWidth: inputWidth, inputHeight: inputHeight)
    let screen = held(inputWidth: inputWidth, inputHeight: inputHeight)
    return mode == .contain
      ? scaled : (min(screen.width, scaled.width), min(screen.height, scaled.height))
  }

  /// The longest side a cover fit scales an input to before it crops. An input of a more extreme aspect
  /// ratio (a 4000×1 strip for a portrait screen) is cropped to the screen's aspect ratio first: libvips
  /// cannot make an image over 10 million pixels wide or high, and it would be wasted work anyway.
  static let maximumScaledSide = 100_000

  /// `image` scaled (and for cover, centre-cropped) to this fit.
  public func applied(to image: Image) throws -> Image {
    let scaled = scaledSize(inputWidth: image.width, inputHeight: image.height)
    if max(scaled.width, scaled.height) > Self.maximumScaledSide {
      return try croppedThenScaled(image)
    }
    var result = try image.thumbnailed(width: scaled.width, height: scaled.height)
    let output = outputSize(inputWidth: image.width, inputHeight: image.height)
    if output.width != scaled.width || output.height != scaled.height {
      result = try result.extractArea(
        left: (scaled.width - output.width) / 2, top: (scaled.height - output.height) / 2,
        width: output.width, height: output.height)
    }
    return result
  }

  /// A cover fit for an extreme aspect ratio: the input's centre with the screen's aspect ratio (at least
  /// one pixel each way), scaled to the screen.
  private func croppedThenScaled(_ image: Image) throws -> Image {
    let output = outputSize(inputWidth: image.width, inputHeight: image.height)
    let aspect = Double(output.width) / Double(output.height)
    let cropWidth = max(1, min(image.width, Int((Double(image.height) * aspect).rounded())))
    let cropHeight = max(1, min(image.height, Int((Double(image.width) / aspect).rounded())))
    return try image.extractArea(
      left: (image.width - cropWidth) / 2, top: (image.height - cropHeight) / 2, width: cropWidth,
      height: cropHeight
    ).thumbnailed(width: output.width, height: output.height)
  }
}
