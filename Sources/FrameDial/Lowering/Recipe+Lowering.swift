import ColourTransfer
import Foundation
import Vips

extension Recipe {
  /// The unoptimized libvips graph: every stage in order as generic libvips operations on float pixels
  /// (zoom on the full image first, then each colour stage over every pixel), exactly as the math is
  /// written. It is the reference the optimizer is measured against; it is never used to render by default.
  /// Floats for sRGB, doubles for HLG and PQ.
  func loweredUnoptimized(
    on image: Image, autoGains: SIMD3<Double> = SIMD3(1, 1, 1), zoomKernel: ZoomKernel
  ) throws -> Image {
    var colour = image
    for stage in stages {
      if case .zoom(let factor, let center) = stage {
        let window = ZoomWindow(
          imageWidth: image.width, imageHeight: image.height, zoom: factor, center: center)
        colour = try colour.resampled(window, to: image.width, image.height, kernel: zoomKernel)
      }
    }
    let colourStages = stages.filter { !$0.isGeometric }
    if colourStages.isEmpty { return colour }
    let maxCode: Double = image.format == .ushort ? 65535 : 255
    var alpha: Image?
    if colour.hasAlpha {
      alpha = try colour.extractBands(colour.bands - 1)
      colour = try colour.extractBands(0, count: colour.bands - 1)
    }
    if colour.bands == 1 { colour = try colour.colourspace(maxCode == 255 ? "srgb" : "rgb16") }
    // HLG and PQ run in double precision: PQ's steep black turns float rounding into several codes.
    let hdr = colourStages.contains { stage in
      if case .decode(let transfer) = stage { return transfer != .sRGB }
      return false
    }
    var value = try (hdr ? colour.cast(to: .double) : colour).linear([1 / maxCode], [0])
    for stage in colourStages {
      value = try UnoptimizedStage.apply(stage, to: value, autoGains: autoGains)
    }
    // Quantize: clip to 0 … 1, round half up.
    var result = try value.linear([maxCode], [0.5]).cast(to: maxCode == 255 ? .uchar : .ushort)
    if let alpha { result = try Image.joinBands([result, alpha]) }
    return result
  }
}

/// Each recipe stage as a chain of libvips's generic operations on a float image.
enum UnoptimizedStage {
  static func apply(_ stage: RecipeStage, to image: Image, autoGains: SIMD3<Double>) throws -> Image
  {
    switch stage {
    case .zoom:
      return image
    case .decode(.sRGB):
      let low = try image.linear([1 / 12.92], [0])
      let high = try power(image.linear([1 / 1.055], [0.055 / 1.055]), 2.4)
      return try select(image, "lesseq", 0.04045, low, high)
    case .decode(.hlg):
      let (a, b, c) = (HLGTransfer.a, HLGTransfer.b, HLGTransfer.c)
      let low = try power(image, 2).linear([1.0 / 3], [0])
      let high = try math(image.linear([1 / a], [-c / a]), "exp").linear([1.0 / 12], [b / 12])
      return try select(image, "lesseq", 0.5, low, high)
    case .decode(.pq):
      let p = try power(image, 1 / PQTransfer.m2)
      let zero = try p.linear([0], [0])
      let shifted = try p.linear([1], [-PQTransfer.c1])
      let numerator = try select(shifted, "less", 0, zero, shifted)
      let denominator = try p.linear([-PQTransfer.c3], [PQTransfer.c2])
      let ratio = try Operation.call(
        "divide", ["left": .image(numerator), "right": .image(denominator)]
      ).image()
      return try power(ratio, 1 / PQTransfer.m1).linear(
        [PQTransfer.peak / PQTransfer.referenceWhite], [0])
    case .exposure(let ev):
      return try image.linear([Double.pow2(ev)], [0])
    case .gains(let gains, _):
      return try image.linear([gains.x, gains.y, gains.z], [0])
    case .autoWhiteBalance:
      return try image.linear([autoGains.x, autoGains.y, autoGains.z], [0])
    case .matrix(let matrix, _):
      return try image.recombined(by: Image.matrix(width: 3, height: 3, values: matrix.rowMajor))
    case .encode(let transfer):
      let zero = try image.linear([0], [0])
      let positive = try select(image, "less", 0, zero, image)
      switch transfer {
      case .sRGB:
        let low = try positive.linear([12.92], [0])
        let high = try power(positive, 1 / 2.4).linear([1.055], [-0.055])
        return try select(positive, "lesseq", 0.0031308, low, high)
      case .hlg:
        let (a, b, c) = (HLGTransfer.a, HLGTransfer.b, HLGTransfer.c)
        let low = try power(positive.linear([3], [0]), 0.5)
        let high = try math(positive.linear([12], [-b]), "log").linear([a], [c])
        return try select(positive, "lesseq", 1.0 / 12, low, high)
      case .pq:
        let x = try power(
          positive.linear([PQTransfer.referenceWhite / PQTransfer.peak], [0]), PQTransfer.m1)
        let ratio = try Operation.call(
          "divide",
          [
            "left": .image(x.linear([PQTransfer.c2], [PQTransfer.c1])),
            "right": .image(x.linear([PQTransfer.c3], [1])),
          ]
        ).image()
        return try power(ratio, PQTransfer.m2)
      }
    case .curve(let curve, _):
      return try piecewiseLinear(image, curve)
    case .contrast(let k, let pivot):
      return try image.linear([k], [pivot - pivot * k])
    }
  }

  /// libvips's one-argument `math` (`exp`, `log`: natural) per band.
  private static func math(_ image: Image, _ function: String) throws -> Image {
    try Operation.call("math", ["in": .image(image), "math": .string(function)]).image()
  }

  /// `x^exponent` per band.
  private static func power(_ image: Image, _ exponent: Double) throws -> Image {
    try Operation.call(
      "math2_const", ["in": .image(image), "math2": "pow", "c": .doubles([exponent])]
    ).image()
  }

  /// Per band: `yes` where `image <relation> constant`, else `no`.
  private static func select(
    _ image: Image, _ relation: String, _ constant: Double, _ yes: Image, _ no: Image
  ) throws -> Image {
    let mask = try Operation.call(
      "relational_const",
      ["in": .image(image), "relational": .string(relation), "c": .doubles([constant])]
    ).image()
    return try Operation.call(
      "ifthenelse", ["cond": .image(mask), "in1": .image(yes), "in2": .image(no)]
    )
    .image()
  }

  /// The curve as its first segment's line plus one hinge `max(x − knot, 0)` per inner point, each
  /// weighted by the change of slope there (the curve continues its end slopes outside its points).
  private static func piecewiseLinear(_ image: Image, _ curve: Curve) throws -> Image {
    let points = curve.points
    let slopes = (0..<(points.count - 1)).map { index in
      (points[index + 1].y - points[index].y) / (points[index + 1].x - points[index].x)
    }
    var result = try image.linear([slopes[0]], [points[0].y - slopes[0] * points[0].x])
    let zero = try image.linear([0], [0])
    for index in 1..<slopes.count {
      let knot = points[index].x
      let hinge = try select(image, "more", knot, image.linear([1], [-knot]), zero)
      let weighted = try hinge.linear([slopes[index] - slopes[index - 1]], [0])
      result = try Operation.call("add", ["left": .image(result), "right": .image(weighted)])
        .image()
    }
    return result
  }
}

extension Double {
  /// 2 raised to `exponent`.
  static func pow2(_ exponent: Double) -> Double { Foundation.pow(2, exponent) }
}
