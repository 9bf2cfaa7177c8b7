import Controls
import Foundation
import FrameDial
import FrameDialFullCLI
import Measurement
import RowKernels
import Video
import Vips

/// One order of `framedial studio`'s work on a frame of HDR video: milliseconds per frame.
struct StudioHDRResult: Sendable, Codable {
  /// What the row measures (see ``StudioHDRBenchmark/Order``).
  var order: String
  /// The viewfinder's size, the page's picture.
  var width: Int
  var height: Int
  /// libvips's threads and the one pass's (nil: one, in runs before this was recorded).
  var threads: Int?
  /// Milliseconds per frame.
  var milliseconds: Summary
  /// This median over the tone-map-first order's median.
  var ratioToToneMapFirst: Double
}

/// `framedial studio`'s work per frame of the video section's 1080p HLG clip, from the frame the
/// player decodes to the page's 8-bit picture at the iPhone 16 Pro viewfinder's size, with the colour
/// + mixing state, in orders that take turns frame by frame: the studio's (the decoded 10-bit planes
/// scaled, converted to rgb48le HLG codes at the viewfinder's size, then rendered in HLG and
/// tone-mapped in one pass over the rows, ``ViewfinderPlaneScaler``) and the two it replaced, which
/// start from the frame converted to rgb48le at the coded size (scaled, then the same one pass; and
/// tone-mapped at the coded size, scaled, rendered in sRGB), all with one libvips thread, and the
/// studio's order again on every core, as the studio runs it. The decode, and the coded-size
/// conversion the replaced orders start from, are timed on their own.
struct StudioHDRBenchmark {
  let options: BenchmarkOptions
  let progress: (String) -> Void

  /// The orders compared, the replaced one first.
  enum Order: String, CaseIterable {
    /// Tone-mapped to SDR at the coded size, scaled to the viewfinder, the controls in sRGB.
    case toneMapFirst = "tone-mapped at 1080p, scaled, controls in sRGB (before)"
    /// Scaled to the viewfinder as rgb48le codes, the controls in HLG, tone-mapped at that size.
    case controlsFirst =
      "scaled as rgb48le, controls in HLG, tone-mapped at the viewfinder's size (before)"
    /// The decoded planes scaled to the viewfinder and converted there, the controls in HLG,
    /// tone-mapped at that size.
    case planesFirst =
      "planes scaled, converted at the viewfinder's size, controls in HLG, tone-mapped (studio)"
    /// The studio's order on every core, as `framedial studio` runs it (libvips's default threads).
    case everyCore = "the studio's order on every core, as `framedial studio` runs it"

    /// Whether the order runs on one thread (libvips's and the one pass's).
    var oneThread: Bool { self != .everyCore }
    /// Whether the order starts from the frame converted to rgb48le at the coded size.
    var startsFromRGB: Bool { self == .toneMapFirst || self == .controlsFirst }
  }

  /// The player's decode and the coded-size rgb48le conversion, and every order, over `clip` looped
  /// until enough frames are timed.
  func run(clip: String) throws -> (decode: Summary, orders: [StudioHDRResult]) {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    try Vips.setThreads(1)
    defer { try? Vips.setThreads(cores) }
    let transcoder = try VideoTranscoder(path: clip)
    // Played as the studio's player plays HDR video (StudioVideoPlayer): the decoded planes.
    transcoder.playsPlanes = true
    let video = transcoder.source
    let shape = VideoFrameShape(
      codedWidth: video.width, codedHeight: video.height, rotation: video.rotation,
      sampleAspect: video.sampleAspect)
    let device = try ScreenCatalog.named("iphone-16-pro")
    let live = LiveControlState(FrameState.colourState)
    let wanted = options.warmupFrames + (options.quick ? 100 : 300)
    progress("hdr: studio frames of \(clip), \(wanted) frames in every order")
    let wholeMapper = try transcoder.rgbToneMapper(width: video.width, height: video.height)
    var whole = [UInt8](repeating: 0, count: video.width * video.height * 3)
    // The frame as rgb48le at the coded size, converted as the player converted it before.
    var coded = [UInt8](repeating: 0, count: video.width * video.height * 6)
    var conversion: PlanarConversion?
    var prepared: Prepared?
    var times = [[Double]](repeating: [], count: Order.allCases.count)
    var decodeTimes: [Double] = []
    var frames = 0
    var lastShown = ContinuousClock.now
    while frames < wanted {
      _ = try transcoder.play(
        choose: { _ in frames < wanted ? .show : .stop },
        show: { frame in
          guard let planes = frame.planes else {
            throw VipsError("the HLG clip's frames are not 10-bit 4:2:0 planes")
          }
          if conversion == nil { conversion = VideoPlanarConversion.make(planes.format) }
          guard let conversion else { throw VipsError("no conversion of the HLG clip's planes") }
          coded.withUnsafeMutableBytes { rgb in
            guard let base = rgb.baseAddress else { return }
            conversion.toRGB(
              planes: planes.planes, strides: planes.strides, into: base,
              rgbStride: video.width * 6)
          }
          let decoded = Timing.seconds(from: lastShown, to: .now)
          if prepared == nil {
            prepared = try coded.withUnsafeBytes { input in
              try Prepared(
                frame: input, planes: planes, shape: shape, device: device, live: live,
                whole: &whole, wholeMapper: wholeMapper, transcoder: transcoder)
            }
          }
          guard let prepared else { return }
          for turn in 0..<Order.allCases.count {
            let which = Order.allCases[(frames + turn) % Order.allCases.count]
            try Vips.setThreads(which.oneThread ? 1 : cores)
            let seconds = try coded.withUnsafeBytes { input in
              try Timing.measure {
                try prepared.run(
                  which, input, planes: planes, whole: &whole, wholeMapper: wholeMapper)
              }
            }
            if frames >= options.warmupFrames {
              times[Order.allCases.firstIndex(of: which) ?? 0].append(seconds)
            }
          }
          if frames >= options.warmupFrames, frames > 0 { decodeTimes.append(decoded) }
          frames += 1
          lastShown = .now
        })
    }
    let summaries = try times.map { values in
      guard let summary = Summary(values) else { throw VipsError("no frames were timed") }
      return summary.scaled(by: 1000)
    }
    guard let decode = Summary(decodeTimes), let prepared else {
      throw VipsError("no frames were timed")
    }
    return (
      decode.scaled(by: 1000),
      zip(Order.allCases, summaries).map { order, summary in
        StudioHDRResult(
          order: order.rawValue, width: prepared.hdr.width, height: prepared.hdr.height,
          threads: order.oneThread ? 1 : cores,
          milliseconds: summary, ratioToToneMapFirst: summary.median / summaries[0].median)
      }
    )
  }

  /// The viewfinders, renderers, tone mapper and buffers of every order, made on the first frame.
  private final class Prepared {
    /// The studio's viewfinder of the 16-bit codes, and the replaced order's of 8-bit SDR.
    let hdr: ViewfinderSource
    let sdr: ViewfinderSource
    let hdrRenderer: FrameRenderer
    let sdrRenderer: FrameRenderer
    let smallMapper: RGBToneMapper
    let planeScaler: ViewfinderPlaneScaler
    var rendered: [UInt8]
    var output: [UInt8]
    /// Each order's scaled picture, reused from frame to frame as the studio's player reuses its.
    var scaledHDR: [UInt8] = []
    var scaledSDR: [UInt8] = []

    init(
      frame: UnsafeRawBufferPointer, planes: VideoTranscoder.DecodedPlanes, shape: VideoFrameShape,
      device: ScreenDevice, live: LiveControlState, whole: inout [UInt8],
      wholeMapper: RGBToneMapper, transcoder: VideoTranscoder
    ) throws {
      hdr = try ViewfinderSource(
        firstFrame: frame, shape: shape, device: device, encoding: .bt2100HLG)
      try whole.withUnsafeMutableBytes { try wholeMapper.map(frame, into: $0) }
      sdr = try whole.withUnsafeBytes {
        try ViewfinderSource(firstFrame: $0, shape: shape, device: device)
      }
      hdrRenderer = try FrameRenderer(
        width: hdr.width, height: hdr.height, pixelFormat: .rgb48, controls: live,
        encoding: .bt2100HLG)
      sdrRenderer = try FrameRenderer(
        width: sdr.width, height: sdr.height, pixelFormat: .rgb24, controls: live)
      smallMapper = try transcoder.rgbToneMapper(width: hdr.width, height: hdr.height)
      planeScaler = try ViewfinderPlaneScaler(
        viewfinder: hdr, input: VideoPlanarConversion.layout(of: planes.format))
      rendered = [UInt8](repeating: 0, count: hdr.pixels.count)
      output = [UInt8](repeating: 0, count: sdr.pixels.count)
    }

    /// One frame through `order`, into ``output``: from `frame` (rgb48le at the coded size) or, for
    /// the studio's order, from its decoded `planes`.
    func run(
      _ order: Order, _ frame: UnsafeRawBufferPointer, planes: VideoTranscoder.DecodedPlanes,
      whole: inout [UInt8], wholeMapper: RGBToneMapper
    ) throws {
      switch order {
      case .toneMapFirst:
        try whole.withUnsafeMutableBytes { try wholeMapper.map(frame, into: $0) }
        try whole.withUnsafeBytes { try sdr.videoPixels(of: $0, into: &scaledSDR) }
        try scaledSDR.withUnsafeBytes { input in
          try output.withUnsafeMutableBytes { _ = try sdrRenderer.render(input, into: $0) }
        }
      case .controlsFirst, .planesFirst, .everyCore:
        if order.startsFromRGB {
          try hdr.videoPixels(of: frame, into: &scaledHDR)
        } else {
          try planeScaler.pixels(
            of: zip(planes.planes, planes.strides).map { YUVPlane($0, stride: $1) },
            into: &scaledHDR)
        }
        // As StudioFrameLoop: the colour state and the tone mapping in one pass over the scaled rows.
        let onePass = try scaledHDR.withUnsafeBytes { input in
          try output.withUnsafeMutableBytes {
            try hdrRenderer.renderOnePass(input, then: smallMapper, into: $0)
          }
        }
        guard onePass == nil else { return }
        try scaledHDR.withUnsafeBytes { input in
          try rendered.withUnsafeMutableBytes { _ = try hdrRenderer.render(input, into: $0) }
        }
        try rendered.withUnsafeBytes { hdr in
          try output.withUnsafeMutableBytes { try smallMapper.map(hdr, into: $0) }
        }
      }
    }
  }
}
