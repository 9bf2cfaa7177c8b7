import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// Every built-in preset does what its name and summary say, measured on a neutral grey and on a photo:
/// the promises are read from the words of the name and the summary, so a preset whose values contradict
/// its words (a "warm" look that cools) fails, and so does a new preset whose words this test does not
/// know how to check.
@Suite struct PresetPromiseTests {
  /// What a preset's words promise, each measured in `check`.
  enum Promise: String, CaseIterable {
    case warmer, cooler, brighter, monochrome, faded, moreSaturated, moreContrast, lessContrast
    case neutralisesACast
  }

  /// The words that make each promise. A preset whose name and summary hold none of these words fails.
  static let words: [(word: String, promise: Promise)] = [
    ("warm", .warmer), ("cool", .cooler), ("lift exposure", .brighter), ("bright", .brighter),
    ("black and white", .monochrome), ("noir", .monochrome), ("fade", .faded),
    ("richer colour", .moreSaturated), ("vivid", .moreSaturated), ("and colour", .moreSaturated),
    ("softer contrast", .lessContrast), ("high-contrast", .moreContrast),
    ("touch of contrast", .moreContrast), ("little contrast", .moreContrast),
    ("automatic white balance", .neutralisesACast),
  ]

  static func promises(of preset: Preset) -> Set<Promise> {
    let text = (preset.name + " " + preset.summary).lowercased()
    return Set(words.filter { text.contains($0.word) }.map(\.promise))
  }

  @Test func everyPresetPromisesSomethingThisTestChecks() throws {
    for preset in Preset.all {
      #expect(!Self.promises(of: preset).isEmpty, "\(preset.name): \(preset.summary)")
    }
    // The words are read as intended: the two presets named for their light promise that light.
    #expect(Self.promises(of: try Preset.named("warm-evening")).contains(.warmer))
    #expect(Self.promises(of: try Preset.named("cool-morning")).contains(.cooler))
    #expect(Self.promises(of: try Preset.named("film-fade")) == [.faded, .warmer])
  }

  @Test(arguments: Preset.all.map(\.name))
  func presetKeepsThePromisesOfItsWords(name: String) throws {
    let preset = try Preset.named(name)
    let promises = Self.promises(of: preset)
    let photo = try Image(
      contentsOf: RenderFixtures.sample("rocket.jpg"), options: LoadOptions(autoRotate: true))
    let original = try photo.pixelBytes()
    let before = Measures(original, neutralIn: original)
    let after = Measures(
      try StillRenderer().render(photo, state: preset.state).pixelBytes(), neutralIn: original)
    let grey = try StillRenderer().render(
      RenderFixtures.patch([128, 128, 128]), state: preset.state
    )
    .pixelBytes()
    let (r, b) = (Int(grey[0]), Int(grey[2]))
    for promise in promises {
      switch promise {
      case .warmer:
        #expect(r - b >= 4, "\(name) on grey: \(Array(grey.prefix(3)))")
        #expect(after.neutralRedMinusBlue >= before.neutralRedMinusBlue + 3, "\(name) on the photo")
      case .cooler:
        #expect(b - r >= 4, "\(name) on grey: \(Array(grey.prefix(3)))")
        #expect(after.neutralRedMinusBlue <= before.neutralRedMinusBlue - 3, "\(name) on the photo")
      case .brighter:
        #expect(
          after.meanLuma >= before.meanLuma + 5, "\(name): \(before.meanLuma) → \(after.meanLuma)")
      case .monochrome:
        #expect(after.largestChroma <= 1, "\(name) leaves colour: \(after.largestChroma)")
      case .faded:
        let black = try StillRenderer().render(
          RenderFixtures.patch([0, 0, 0]), state: preset.state
        )
        .pixelBytes()
        #expect(
          black.prefix(3).allSatisfy { $0 >= 6 }, "\(name) on black: \(Array(black.prefix(3)))")
        #expect(after.colourSpread < before.colourSpread, "\(name) is not faded")
      case .moreSaturated:
        #expect(
          after.colourSpread >= before.colourSpread * 1.05, "\(name): colour \(after.colourSpread)")
      case .moreContrast:
        #expect(after.lumaSpread >= before.lumaSpread * 1.03, "\(name): spread \(after.lumaSpread)")
      case .lessContrast:
        #expect(after.lumaSpread <= before.lumaSpread * 0.99, "\(name): spread \(after.lumaSpread)")
      case .neutralisesACast:
        let cast = try StillRenderer().render(
          RenderFixtures.patch([150, 128, 100]), state: preset.state
        ).pixelBytes()
        #expect(abs(Int(cast[0]) - Int(cast[2])) <= 3, "\(name) on a warm cast: \(cast.prefix(3))")
      }
    }
    if !promises.contains(.warmer) && !promises.contains(.cooler)
      && !promises.contains(.neutralisesACast)
    {
      // A look that promises no colour temperature leaves a grey neutral.
      #expect(abs(r - b) <= 1, "\(name) tints a grey: \(Array(grey.prefix(3)))")
    }
  }

  /// Averages over an RGB picture's code values.
  struct Measures {
    var meanLuma = 0.0
    var lumaSpread = 0.0
    /// The mean of red minus blue over the pixels that are nearly neutral in the original: how warm
    /// the light looks, apart from the scene's own colours (which saturation pushes further apart).
    var neutralRedMinusBlue = 0.0
    /// The spread of the opponent colours (red − green, yellow − blue) around their means: how
    /// colourful the picture is, whatever its overall cast.
    var colourSpread = 0.0
    var largestChroma = 0

    init(_ bytes: [UInt8], neutralIn original: [UInt8]) {
      let count = Double(bytes.count / 3)
      var lumaSquares = 0.0
      var neutralCount = 0.0
      var (rg, rgSquares, yb, ybSquares) = (0.0, 0.0, 0.0, 0.0)
      for index in stride(from: 0, to: bytes.count - 2, by: 3) {
        let (r, g, b) = (Int(bytes[index]), Int(bytes[index + 1]), Int(bytes[index + 2]))
        let luma = 0.2126 * Double(r) + 0.7152 * Double(g) + 0.0722 * Double(b)
        meanLuma += luma
        lumaSquares += luma * luma
        let opponents = (Double(r - g), Double(r + g) / 2 - Double(b))
        rg += opponents.0
        rgSquares += opponents.0 * opponents.0
        yb += opponents.1
        ybSquares += opponents.1 * opponents.1
        largestChroma = max(largestChroma, max(r, g, b) - min(r, g, b))
        let source = original[index..<(index + 3)]
        if let high = source.max(), let low = source.min(), high - low <= 12 {
          neutralRedMinusBlue += Double(r - b)
          neutralCount += 1
        }
      }
      meanLuma /= count
      lumaSpread = (lumaSquares / count - meanLuma * meanLuma).squareRoot()
      neutralRedMinusBlue /= max(1, neutralCount)
      let (meanRG, meanYB) = (rg / count, yb / count)
      colourSpread = (rgSquares / count - meanRG * meanRG + ybSquares / count - meanYB * meanYB)
        .squareRoot()
    }
  }
}
