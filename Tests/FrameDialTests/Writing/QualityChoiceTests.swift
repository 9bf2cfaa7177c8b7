import Controls
import Foundation
import JPEG
import Testing
import Vips

@testable import FrameDial

@Suite struct QualityChoiceTests {
  /// astronaut.png saved by libvips as a JPEG of `quality`, 4:4:4 or 4:2:0, at `path`.
  func writeJPEG(_ path: String, quality: Int, subsampled: Bool) throws {
    try Image(contentsOf: RenderFixtures.sample("astronaut.png")).write(
      to: path,
      options: SaveOptions(quality: quality, chromaSubsampling: subsampled ? .on : .off))
  }

  @Test func theRulesPickTheInputsOwnTheRequestedOrTheFormatsDefault() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let fine = folder.appendingPathComponent("fine.jpg").path
    let coarse = folder.appendingPathComponent("coarse.jpg").path
    try writeJPEG(fine, quality: 95, subsampled: false)
    try writeJPEG(coarse, quality: 60, subsampled: true)
    let fineImage = try Image(contentsOf: fine)
    let coarseImage = try Image(contentsOf: coarse)
    let png = try Image(contentsOf: RenderFixtures.sample("coffee.png"))

    #expect(
      QualityChoice(format: .jpeg, requested: nil, input: fineImage)
        == QualityChoice(quality: 95, chromaSubsampling: .off))
    #expect(
      QualityChoice(format: .jpeg, requested: nil, input: coarseImage)
        == QualityChoice(quality: 60, chromaSubsampling: .on))
    // --quality wins, and chroma is then libvips's choice.
    #expect(
      QualityChoice(format: .jpeg, requested: 50, input: fineImage)
        == QualityChoice(quality: 50, chromaSubsampling: .auto))
    // From a non-JPEG, or to another format: the format's default.
    #expect(
      QualityChoice(format: .jpeg, requested: nil, input: png)
        == QualityChoice(quality: 90, chromaSubsampling: .off))
    #expect(QualityChoice(format: .webp, requested: nil, input: fineImage).quality == 90)
    #expect(QualityChoice(format: .heic, requested: nil, input: fineImage).quality == 60)
    #expect(QualityChoice(format: .avif, requested: nil).quality == 80)
    #expect(QualityChoice(format: .png, requested: 40, input: fineImage).quality == nil)
    #expect(QualityChoice(format: .tiff, requested: nil).quality == nil)
    #expect(QualityChoice(format: .tiff, requested: 70).quality == 70)
    // A grey JPEG keeps its quality (libvips calls its single component 4:4:4).
    let grey = folder.appendingPathComponent("grey.jpg").path
    try png.colourspace("b-w").write(to: grey, options: SaveOptions(quality: 85))
    #expect(
      QualityChoice(format: .jpeg, requested: nil, input: try Image(contentsOf: grey))
        == QualityChoice(quality: 85, chromaSubsampling: .off))
    #expect(QualityChoice.defaultsSummary.contains("JPEG 90 4:4:4, WebP 90, HEIC 60, AVIF 80"))
  }

  @Test(arguments: [(95, false), (60, true)])
  func aJPEGRenderedToAJPEGKeepsItsQualityChromaAndSize(quality: Int, subsampled: Bool) throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.jpg").path
    try writeJPEG(input, quality: quality, subsampled: subsampled)
    for (name, state) in [
      ("same.jpg", ControlState.identity), ("warm.jpg", ControlState(exposureBias: 0.5)),
    ] {
      let output = folder.appendingPathComponent(name).path
      try StillRenderer().renderFile(at: input, to: output, state: state)
      #expect(abs(try JPEGHeader(contentsOf: output).estimatedQuality - quality) <= 1)
      #expect(
        try Image(contentsOf: output).jpegChromaSubsampling == (subsampled ? "4:2:0" : "4:4:4"))
      if state == .identity {
        let ratio = Double(try fileSize(output)) / Double(try fileSize(input))
        #expect((0.7...1.4).contains(ratio), "output is \(ratio) × the input")
      }
    }
    let overridden = folder.appendingPathComponent("q50.jpg").path
    try StillRenderer().renderFile(
      at: input, to: overridden, state: .identity, options: StillOptions(quality: 50))
    #expect(try JPEGHeader(contentsOf: overridden).estimatedQuality == 50)
    #expect(try Image(contentsOf: overridden).jpegChromaSubsampling == "4:2:0")
  }

  @Test func aPNGRenderedToAJPEGGetsQuality90With444() throws {
    let folder = try RenderFixtures.scratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("coffee.jpg").path
    try StillRenderer().renderFile(
      at: RenderFixtures.sample("coffee.png"), to: output, state: .identity)
    #expect(try JPEGHeader(contentsOf: output).estimatedQuality == 90)
    #expect(try JPEGHeader(contentsOf: output).chromaSubsampling == "4:4:4")
  }

  func fileSize(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  }
}
