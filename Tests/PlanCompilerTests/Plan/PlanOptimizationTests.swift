import Controls
import ImageMathContract
import Testing

@testable import PlanCompiler

@Suite struct PlanOptimizationTests {
  @Test func identityStateHasNoColourProgramAndPassesPixelsThrough() {
    let plan = Plan(compiling: .identity)
    #expect(plan.recipe.isIdentity)
    #expect(plan.zoom == nil && plan.pipeline == nil)
    guard case .identity = plan.colorProgram else {
      Issue.record("expected the identity program")
      return
    }
    var buffer: [UInt8] = [1, 2, 3, 4, 250, 251, 252, 253]
    plan.apply(to: &buffer, layout: .rgba8)
    #expect(buffer == [1, 2, 3, 4, 250, 251, 252, 253])
    #expect(plan.treatsChannelsAlike && !plan.needsAutoWhiteBalance)
  }

  @Test func thePipelineIsAFoldOfTheRecipesStagesAlone() throws {
    let curve = try #require(Curve(points: [SIMD2(0, 0.1), SIMD2(1, 0.9)]))
    let recipe = Recipe(stages: [
      .zoom(factor: 2, center: .center), .decode(.sRGB), .exposure(ev: 1),
      .gains(SIMD3(1, 2, 4), name: "a"), .matrix(Matrix3(diagonal: SIMD3(0.5, 0.25, 3)), name: "b"),
      .encode(.sRGB), .curve(curve, name: "c"), .contrast(1.5, pivot: 0.5),
    ])
    let pipeline = try #require(ColourPipeline(folding: recipe, encoding: .sRGB))
    #expect(pipeline.domain == .linear && pipeline.matrix == nil && !pipeline.usesAutoGains)
    #expect(pipeline.gains == SIMD3(1, 1, 24))
    #expect(pipeline.curve == curve && pipeline.contrast == 1.5)
    let mixing = Matrix3(SIMD3(0.5, 0.5, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
    let mixed = try #require(
      ColourPipeline(
        folding: Recipe(stages: [
          .decode(.hlg), .autoWhiteBalance, .matrix(mixing, name: "m"), .encode(.hlg),
        ]), encoding: .bt2100HLG))
    #expect(mixed.domain == .linear && mixed.usesAutoGains && mixed.matrix == mixing)
    #expect(mixed.gains == SIMD3(1, 1, 1) && mixed.curve == nil && mixed.contrast == 1)
    let encoded = try #require(
      ColourPipeline(folding: Recipe(stages: [.contrast(0.5, pivot: 0.5)]), encoding: .sRGB))
    #expect(encoded.domain == .encoded && encoded.contrast == 0.5 && encoded.treatsChannelsAlike)
    #expect(
      ColourPipeline(folding: Recipe(stages: [.zoom(factor: 3, center: .center)]), encoding: .sRGB)
        == nil)
  }

  @Test func zoomAloneKeepsTheIdentityColourProgram() {
    let plan = Plan(compiling: ControlState(zoom: 2.5, zoomCenter: ZoomCenter(x: 0.2, y: 0.9)))
    #expect(plan.zoom == PlanZoom(factor: 2.5, center: ZoomCenter(x: 0.2, y: 0.9)))
    #expect(
      plan.zoom?.window(imageWidth: 100, imageHeight: 100)
        == ZoomWindow(
          imageWidth: 100, imageHeight: 100, zoom: 2.5, center: ZoomCenter(x: 0.2, y: 0.9)))
    guard case .identity = plan.colorProgram else {
      Issue.record("expected the identity program")
      return
    }
  }

  @Test func exposureAndWhiteBalanceFoldIntoPerChannelGains() throws {
    let plan = Plan(compiling: ControlState(exposureBias: 1, whiteBalance: .kelvin(3000), tint: 20))
    let pipeline = try #require(plan.pipeline)
    let expected = ContractFormulas.whiteBalanceGains(kelvin: 3000, tint: 20) * 2
    #expect(largestDifference(pipeline.gains, expected) < 1e-9)
    #expect(pipeline.matrix == nil)
    guard case .perChannel(let tables) = plan.colorProgram else {
      Issue.record("expected a per-channel program")
      return
    }
    #expect(tables.table8.count == 768)
    #expect(!plan.treatsChannelsAlike)
  }

  @Test func diagonalLookMatrixFoldsIntoGains() throws {
    let plan = Plan(compiling: ControlState(exposureBias: -0.5, filter: .process))
    let pipeline = try #require(plan.pipeline)
    #expect(pipeline.matrix == nil)
    let diagonal = try #require(FilterLook(.process).matrix).diagonal
    #expect(largestDifference(pipeline.gains, diagonal * 0.5.squareRoot()) < 1e-12)
    guard case .perChannel = plan.colorProgram else {
      Issue.record("expected a per-channel program")
      return
    }
  }

  @Test func consecutiveMatricesMergeIntoOne() throws {
    let plan = Plan(compiling: ControlState(saturation: 1.3, filter: .chrome))
    let pipeline = try #require(plan.pipeline)
    let merged = try #require(pipeline.matrix)
    let look = try #require(FilterLook(.chrome).matrix)
    let expected = look * SaturationMatrix.matrix(saturation: 1.3)
    for (a, b) in zip(merged.rowMajor, expected.rowMajor) { #expect(abs(a - b) < 1e-12) }
    guard case .mixing(let tables) = plan.colorProgram else {
      Issue.record("expected a mixing program")
      return
    }
    #expect(tables.matrix.count == 9 && tables.input8.count == 768)
    #expect(tables.output8.values.count == 3 * tables.output8.count)
    #expect(tables.output8.indexing == .linear)
  }

  @Test func contrastAloneTreatsChannelsAlike() {
    let plan = Plan(compiling: ControlState(contrast: 1.4))
    #expect(plan.treatsChannelsAlike)
    guard case .perChannel(let tables) = plan.colorProgram else {
      Issue.record("expected a per-channel program")
      return
    }
    #expect(Array(tables.table8[0..<256]) == Array(tables.table8[256..<512]))
    #expect(tables.table16.count == 3 * 65536)
  }

  @Test func outputTableIndexFollowsTheDocumentedFormula() {
    guard case .mixing(let tables) = Plan(compiling: ControlState(saturation: 1.5)).colorProgram
    else {
      Issue.record("expected a mixing program")
      return
    }
    let table = tables.output8
    #expect(table.index(-3) == 0)
    #expect(table.index(.nan) == 0)
    #expect(table.index(.infinity) == table.count - 1)
    #expect(table.index(100) == table.count - 1)
    let l: Float = 0.2
    #expect(table.index(l) == Int(l * table.scale + 0.5))
    #expect(table.values[table.count - 1] == 255)
    let square = tables.output16
    #expect(square.indexing == .squareRoot)
    #expect(square.index(l) == Int(l.squareRoot() * square.scale + 0.5))
  }

  @Test func autoWhiteBalanceBuildsTablesForMeasuredGains() {
    let plan = Plan(compiling: ControlState(saturation: 1.2, whiteBalance: .auto))
    #expect(plan.needsAutoWhiteBalance && !plan.treatsChannelsAlike)
    let gains = SIMD3<Double>(1.3, 1, 0.7)
    let program = plan.colorProgram(autoGains: gains)
    for pixel in [SIMD3<UInt8>(128, 128, 128), SIMD3(30, 200, 90), SIMD3(250, 10, 128)] {
      let exact = plan.recipe.evaluate(
        SIMD3(Double(pixel.x), Double(pixel.y), Double(pixel.z)) / 255, autoGains: gains)
      let got = program.apply(pixel)
      #expect(abs(Int(got.x) - ContractFormulas.code8(exact.x)) <= 1)
      #expect(abs(Int(got.y) - ContractFormulas.code8(exact.y)) <= 1)
      #expect(abs(Int(got.z) - ContractFormulas.code8(exact.z)) <= 1)
    }
    let grey = plan.apply(SIMD3(128, 128, 128), autoGains: gains)
    #expect(grey.x > grey.z)
  }

  @Test func packedBufferApplyLeavesAlphaAndTrailingBytes() {
    let plan = Plan(compiling: ControlState(exposureBias: 1, saturation: 0.5))
    var rgba: [UInt8] = [118, 118, 118, 7, 10, 20, 30, 200, 99]
    plan.apply(to: &rgba, layout: .rgba8)
    let first = plan.apply(SIMD3(118, 118, 118))
    let second = plan.apply(SIMD3(10, 20, 30))
    #expect(rgba == [first.x, first.y, first.z, 7, second.x, second.y, second.z, 200, 99])
    var rgb: [UInt8] = [118, 118, 118, 10, 20, 30]
    plan.apply(to: &rgb, layout: .rgb8)
    #expect(rgb == [first.x, first.y, first.z, second.x, second.y, second.z])
  }
}
