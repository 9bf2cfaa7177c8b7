import Foundation

/// The image-math contract's formulas, written out independently of the code under test.
package enum ContractFormulas {
  package static func decode(_ v: Double) -> Double {
    v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
  }

  package static func encode(_ l: Double) -> Double {
    l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
  }

  package static func luma(_ c: SIMD3<Double>) -> Double {
    0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z
  }

  package static func code8(_ v: Double) -> Int {
    Int(floor(min(max(v, 0), 1) * 255 + 0.5))
  }

  /// White-point chromaticity: daylight locus from 4000 K, Planckian (Kim et al.) below.
  package static func xy(kelvin t: Double) -> (x: Double, y: Double) {
    if t >= 4000 {
      let x =
        t <= 7000
        ? -4.6070e9 / pow(t, 3) + 2.9678e6 / pow(t, 2) + 0.09911e3 / t + 0.244063
        : -2.0064e9 / pow(t, 3) + 1.9018e6 / pow(t, 2) + 0.24748e3 / t + 0.237040
      return (x, -3 * x * x + 2.87 * x - 0.275)
    }
    let x = -0.2661239e9 / pow(t, 3) - 0.2343589e6 / pow(t, 2) + 0.8776956e3 / t + 0.179910
    let y =
      t < 2222
      ? -1.1063814 * pow(x, 3) - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
      : -0.9549476 * pow(x, 3) - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
    return (x, y)
  }

  package static func whiteBalanceGains(kelvin: Double, tint: Double) -> SIMD3<Double> {
    let (x, y) = xy(kelvin: kelvin)
    let bigX = x / y
    let bigZ = (1 - x - y) / y
    let r = 3.2409699 * bigX - 1.5373832 - 0.4986108 * bigZ
    let g = -0.9692436 * bigX + 1.8759675 + 0.0415551 * bigZ
    let b = 0.0556301 * bigX - 0.2039770 + 1.0569715 * bigZ
    // The spec clamps the final gains to 0.25 … 4; a zero or negative light component gives 4.
    func clamped(_ gain: Double, over component: Double) -> Double {
      component <= 0 ? 4 : min(max(gain, 0.25), 4)
    }
    return SIMD3(
      clamped(g / r, over: r), clamped(pow(2, -tint / 200), over: 1), clamped(g / b, over: b))
  }

  /// BT.2100 HLG OETF: scene light 0 … 1 to signal.
  package static func hlgOETF(_ e: Double) -> Double {
    let a = 0.17883277
    let b = 0.28466892
    let c = 0.55991073
    return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
  }

  /// BT.2100 HLG inverse OETF: signal to scene light.
  package static func hlgInverseOETF(_ v: Double) -> Double {
    let a = 0.17883277
    let b = 0.28466892
    let c = 0.55991073
    return v <= 0.5 ? v * v / 3 : (exp((v - c) / a) + b) / 12
  }

  /// SMPTE ST 2084 inverse EOTF: display light in cd/m² to signal.
  package static func pqInverseEOTF(nits: Double) -> Double {
    let (m1, m2) = (2610.0 / 16384, 2523.0 / 4096 * 128)
    let (c1, c2, c3) = (3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32)
    let y = pow(nits / 10000, m1)
    return pow((c1 + c2 * y) / (1 + c3 * y), m2)
  }

  /// SMPTE ST 2084 EOTF: signal to display light in cd/m².
  package static func pqEOTF(_ v: Double) -> Double {
    let (m1, m2) = (2610.0 / 16384, 2523.0 / 4096 * 128)
    let (c1, c2, c3) = (3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32)
    let p = pow(v, 1 / m2)
    return 10000 * pow(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
  }

  /// BT.709 OETF: light 0 … 1 to signal (Apple's gain map samples).
  package static func bt709OETF(_ l: Double) -> Double {
    l < 0.018 ? 4.5 * max(l, 0) : 1.099 * pow(l, 0.45) - 0.099
  }

  /// BT.709 inverse OETF: signal to light.
  package static func bt709InverseOETF(_ v: Double) -> Double {
    v < 0.081 ? max(v, 0) / 4.5 : pow((v + 0.099) / 1.099, 1 / 0.45)
  }

  /// The luma weights of linear Display P3: the `Y` row of its published RGB → XYZ (D65) matrix.
  package static let displayP3Luma = SIMD3(0.2289746, 0.6917385, 0.0792869)

  /// An HDR photo's light (SDR white 1) from its base picture's light and its gain map's code:
  /// `sdr × (1 + (headroom − 1) × bt709⁻¹(code / 255))`.
  package static func hdrRendition(sdr: SIMD3<Double>, mapCode: Int, headroom: Double) -> SIMD3<
    Double
  > {
    sdr * (1 + (headroom - 1) * bt709InverseOETF(Double(mapCode) / 255))
  }

  /// Exposure `ev`, white-balance `gains`, saturation `s` (around the luma of `luma`) and contrast
  /// `k` (around sRGB's 0.5) on linear light, back to linear light, clipped to 0 … `top`: the SDR
  /// picture's edit with `top` 1, the HDR rendition's with `top` the headroom (the sRGB transfer and
  /// contrast continue their formulas above 1).
  package static func edited(
    _ light: SIMD3<Double>, ev: Double, gains: SIMD3<Double>, saturation s: Double,
    contrast k: Double, luma: SIMD3<Double>, top: Double
  ) -> SIMD3<Double> {
    let balanced = light * pow(2, ev) * gains
    let y = (balanced * luma).sum()
    let saturated = SIMD3(repeating: y) + s * (balanced - SIMD3(repeating: y))
    func channel(_ c: Double) -> Double {
      let contrasted = (encode(max(c, 0)) - 0.5) * k + 0.5
      return min(max(decode(max(contrasted, 0)), 0), top)
    }
    return SIMD3(channel(saturated.x), channel(saturated.y), channel(saturated.z))
  }

  /// Published XYZ (D65) → linear Display P3.
  package static let xyzToDisplayP3: [[Double]] = [
    [2.4934969, -0.9313836, -0.4027108], [-0.8294890, 1.7626641, 0.0236247],
    [0.0358458, -0.0761724, 0.9568845],
  ]

  /// Published XYZ (D65) → linear BT.2020.
  package static let xyzToBT2020: [[Double]] = [
    [1.7166512, -0.3556708, -0.2533663], [-0.6666844, 1.6164812, 0.0157685],
    [0.0176399, -0.0427706, 0.9421031],
  ]

  /// White-balance gains through a published XYZ → linear RGB matrix, clamped as the spec says.
  package static func whiteBalanceGains(kelvin: Double, tint: Double, xyzToRGB m: [[Double]])
    -> SIMD3<
      Double
    >
  {
    let (x, y) = xy(kelvin: kelvin)
    let xyz = [x / y, 1, (1 - x - y) / y]
    let rgb = m.map { row in zip(row, xyz).map(*).reduce(0, +) }
    func clamped(_ gain: Double, over component: Double) -> Double {
      component <= 0 ? 4 : min(max(gain, 0.25), 4)
    }
    return SIMD3(
      clamped(rgb[1] / rgb[0], over: rgb[0]), clamped(pow(2, -tint / 200), over: 1),
      clamped(rgb[1] / rgb[2], over: rgb[2]))
  }

  /// Encoded grey level through gains in linear light, back to an 8-bit code.
  package static func greyThroughGains(code: Int, gains: SIMD3<Double>) -> SIMD3<Int> {
    let linear = decode(Double(code) / 255)
    return SIMD3(
      code8(encode(max(linear * gains.x, 0))), code8(encode(max(linear * gains.y, 0))),
      code8(encode(max(linear * gains.z, 0))))
  }
}

/// The largest absolute difference between corresponding components.
package func largestDifference(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
  max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
}

/// The largest absolute difference between corresponding components.
package func largestDifference(_ a: SIMD3<Int>, _ b: SIMD3<Int>) -> Int {
  max(abs(a.x - b.x), abs(a.y - b.y), abs(a.z - b.z))
}
