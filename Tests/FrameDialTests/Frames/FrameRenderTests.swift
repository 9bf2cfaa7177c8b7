import Controls
import Foundation
import Synchronization
import Testing
import Vips

@testable import FrameDial

@Suite struct FrameRenderTests {
  /// The decoded RGB pixels of a sample, as a packed frame.
  func sampleFrame(_ name: String) throws -> (pixels: [UInt8], width: Int, height: Int) {
    let image = try Image(contentsOf: RenderFixtures.sample(name))
    return (try image.pixelBytes(), image.width, image.height)
  }

  func renderFrame(
    _ pixels: [UInt8], width: Int, height: Int, format: PixelFormat = .rgb24, state: ControlState,
    rowStride: Int? = nil
  ) throws -> [UInt8] {
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: format, rowStride: rowStride,
      controls: LiveControlState(state))
    var output = [UInt8](repeating: 0, count: pixels.count)
    try pixels.withUnsafeBytes { input in
      try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
    }
    return output
  }

  static let states = [
    ControlState(exposureBias: 0.5, contrast: 1.2, whiteBalance: .preset(.tungsten)),
    ControlState(
      exposureBias: 0.5, contrast: 1.2, saturation: 1.3, whiteBalance: .preset(.tungsten)),
    ControlState(filter: .vivid), ControlState(filter: .sepia),
    ControlState(zoom: 1.5, saturation: 1.3),
    ControlState(zoom: 2.3, zoomCenter: ZoomCenter(x: 0.8, y: 0.1)),
  ]

  @Test(arguments: states)
  func stillPathAndFramePathGiveTheSamePixels(state: ControlState) throws {
    let frame = try sampleFrame("coffee.png")
    let viaFrame = try renderFrame(
      frame.pixels, width: frame.width, height: frame.height, state: state)
    let still = try Image.fromPixels(
      frame.pixels, width: frame.width, height: frame.height, bands: 3)
    let viaStill = try StillRenderer().render(
      still, state: state, options: StillOptions(zoomKernel: .bilinear)
    ).pixelBytes()
    let identical = viaFrame == viaStill
    #expect(identical, "max difference \(RenderFixtures.maxDifference(viaFrame, viaStill))")
  }

  @Test func identityCopiesTheFrame() throws {
    let frame = try sampleFrame("rocket.jpg")
    let output = try renderFrame(
      frame.pixels, width: frame.width, height: frame.height, state: .identity)
    let identical = output == frame.pixels
    #expect(identical)
  }

  @Test(arguments: [0, 12])
  func identityCopiesLargeFramesInBandsLeavingPaddingAlone(padding: Int) throws {
    // 2 MB of pixels: copied in one band per thread.
    let (width, height) = (1023, 683)
    let stride = width * 3 + padding
    let input = RenderFixtures.sweepPixels(randomCount: stride * height / 3 - 1024)
    #expect(input.count == stride * height)
    var output = [UInt8](repeating: 0xA5, count: input.count)
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: .rgb24, rowStride: stride,
      controls: LiveControlState(.identity))
    try input.withUnsafeBytes { source in
      try output.withUnsafeMutableBytes { _ = try renderer.render(source, into: $0) }
    }
    var wrongPixels = 0
    var touchedPadding = 0
    for row in 0..<height {
      for offset in 0..<stride {
        let index = row * stride + offset
        if offset < width * 3 {
          if output[index] != input[index] { wrongPixels += 1 }
        } else if output[index] != 0xA5 {
          touchedPadding += 1
        }
      }
    }
    #expect(wrongPixels == 0 && touchedPadding == 0)
  }

  @Test func bgraAndPaddedRowsMatchPackedRGB() throws {
    let frame = try sampleFrame("chelsea.png")
    let state = ControlState(exposureBias: -0.4, saturation: 1.6, whiteBalance: .kelvin(4200))
    let rgb = try renderFrame(frame.pixels, width: frame.width, height: frame.height, state: state)
    // The same frame as BGRA with 12 bytes of padding after each row.
    let stride = frame.width * 4 + 12
    var bgra = [UInt8](repeating: 7, count: stride * frame.height)
    for y in 0..<frame.height {
      for x in 0..<frame.width {
        let source = (y * frame.width + x) * 3
        let target = y * stride + x * 4
        bgra[target] = frame.pixels[source + 2]
        bgra[target + 1] = frame.pixels[source + 1]
        bgra[target + 2] = frame.pixels[source]
        bgra[target + 3] = UInt8(truncatingIfNeeded: x)
      }
    }
    let output = try renderFrame(
      bgra, width: frame.width, height: frame.height, format: .bgra, state: state, rowStride: stride
    )
    var mismatches = 0
    for y in 0..<frame.height {
      for x in 0..<frame.width {
        let source = (y * frame.width + x) * 3
        let target = y * stride + x * 4
        if output[target] != rgb[source + 2] || output[target + 1] != rgb[source + 1]
          || output[target + 2] != rgb[source] || output[target + 3] != UInt8(truncatingIfNeeded: x)
        {
          mismatches += 1
        }
      }
    }
    #expect(mismatches == 0)
  }

  @Test func eachFrameReadsTheLatestState() throws {
    let frame = try sampleFrame("astronaut.png")
    let live = LiveControlState(.identity)
    let renderer = try FrameRenderer(
      width: frame.width, height: frame.height, pixelFormat: .rgb24, controls: live)
    var output = [UInt8](repeating: 0, count: frame.pixels.count)
    func render() throws -> UInt64 {
      try frame.pixels.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { try renderer.render(input, into: $0) }
      }
    }
    let first = try render()
    #expect(output == frame.pixels)
    live.set(ControlState(exposureBias: 1))
    let second = try render()
    #expect(second > first)
    let mean = output.reduce(0) { $0 + Int($1) } / output.count
    let originalMean = frame.pixels.reduce(0) { $0 + Int($1) } / frame.pixels.count
    #expect(mean > originalMean + 20)
  }

  @Test(arguments: [FrameRenderer.defaultRestartWindow, 0])
  func framesRenderedWhileControlsChangeAreWholeFramesOfOneValue(restartWindow: Double) throws {
    // A 1080p frame (24 strips) renders while another thread flips the controls between two states:
    // even generations hold `a`, odd ones `b`. Every frame must equal a full render of the state of the
    // generation it reports — a restarted frame leaves nothing of its abandoned attempt.
    let (width, height) = (1920, 1080)
    let pixels = RenderFixtures.sweepPixels(randomCount: width * height - 1024)
    let a = ControlState(exposureBias: 0.5, saturation: 1.3, whiteBalance: .preset(.tungsten))
    let b = ControlState(exposureBias: -0.7, saturation: 0.6, whiteBalance: .kelvin(7500))
    let expected = [
      try renderFrame(pixels, width: width, height: height, state: a),
      try renderFrame(pixels, width: width, height: height, state: b),
    ]
    let live = LiveControlState(a)
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: .rgb24, controls: live)
    renderer.restartWindow = restartWindow
    let stop = StopFlag()
    let flipper = Thread {
      var next = b
      while !stop.isSet {
        live.set(next)
        next = next == a ? b : a
        Thread.sleep(forTimeInterval: 0.0002)
      }
    }
    flipper.start()
    defer { stop.set() }
    var output = [UInt8](repeating: 0, count: pixels.count)
    var mismatches = 0
    let frames = 12
    for _ in 0..<frames {
      let generation = try pixels.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { try renderer.render(input, into: $0) }
      }
      if output != expected[Int(generation % 2)] { mismatches += 1 }
    }
    #expect(mismatches == 0)
    if restartWindow > 0 {
      // The controls change every 0.2 ms, well before any frame is half done: every frame restarts,
      // once, and then completes.
      #expect(renderer.restartedFrames >= 1 && renderer.restartedFrames <= frames)
    } else {
      #expect(renderer.restartedFrames == 0)
    }
  }

  @Test func frameAutoWhiteBalanceIsSmoothedOverFrames() throws {
    var smoother = WhiteBalanceSmoother(weight: 0.25)
    #expect(smoother.update(SIMD3(1.2, 1, 0.8)) == SIMD3(1.2, 1, 0.8))
    let second = smoother.update(SIMD3(1, 1, 1))
    // Log-space step of a quarter: 1.2^0.75 and 0.8^0.75.
    #expect(abs(second.x - pow(1.2, 0.75)) < 1e-12)
    #expect(abs(second.z - pow(0.8, 0.75)) < 1e-12)
    #expect(smoother.cuts == 0)
    // A jump of more than 1.3× between two frames' measurements is a scene cut: taken as is.
    #expect(smoother.update(SIMD3(0.5, 1, 2)) == SIMD3(0.5, 1, 2))
    #expect(smoother.cuts == 1)
    let frame = try sampleFrame("coffee.png")
    let output = try renderFrame(
      frame.pixels, width: frame.width, height: frame.height,
      state: ControlState(whiteBalance: .auto))
    #expect(output != frame.pixels)
  }

  @Test func wrongBufferSizesAreErrors() throws {
    let renderer = try FrameRenderer(
      width: 4, height: 4, pixelFormat: .rgb24,
      controls: LiveControlState(ControlState(exposureBias: 1)))
    let small = [UInt8](repeating: 0, count: 20)
    var output = [UInt8](repeating: 0, count: 48)
    #expect(throws: VipsError.self) {
      try small.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
    }
  }
}

/// A flag one thread sets and another polls.
private final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  var isSet: Bool { flag.load(ordering: .relaxed) }
  func set() { flag.store(true, ordering: .relaxed) }
}
