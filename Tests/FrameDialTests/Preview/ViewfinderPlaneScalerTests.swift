import Foundation
import RowKernels
import Testing
import Vips

@testable import FrameDial

/// ``ViewfinderPlaneScaler``: an HDR video frame's decoded 10-bit planes scaled to the viewfinder and
/// converted there give the picture that converting the whole frame and scaling it gives.
@Suite struct ViewfinderPlaneScalerTests {
  /// A 10-bit BT.2020 TV-range frame of `width × height` made from 16-bit R′G′B′ ramps (red across,
  /// green down, blue a slow wave), as packed Y, U and V planes, and its converter.
  func frame(width: Int, height: Int) throws -> (yuv: [UInt8], converter: YUV420Converter) {
    var samples = [UInt16](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      for x in 0..<width {
        let index = (y * width + x) * 3
        samples[index] = UInt16(4000 + x * 56000 / (width - 1))
        samples[index + 1] = UInt16(60000 - y * 50000 / (height - 1))
        samples[index + 2] = UInt16(30000 + 20000 * sin(Double(2 * x + y) / 90))
      }
    }
    let converter = try YUV420Converter(
      YUV420Layout(width: width, height: height, depth: 10, matrix: .bt2020, range: .tv))
    let rgb = samples.withUnsafeBytes { Array($0) }
    return (try converter.packedYUV(fromRGB: rgb), converter)
  }

  /// The 16-bit samples of `bytes`.
  func samples(_ bytes: [UInt8]) -> [UInt16] {
    bytes.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
  }

  /// The frame of `width × height` turned by `rotation`, the viewfinder (at most `maxWidth` wide) made
  /// from it converted to 16-bit RGB, and the scaler of its planes to that viewfinder.
  func viewfinder(width: Int, height: Int, rotation: Double?, maxWidth: Int) throws -> (
    yuv: [UInt8], converter: YUV420Converter, source: ViewfinderSource,
    scaler: ViewfinderPlaneScaler
  ) {
    let (yuv, converter) = try frame(width: width, height: height)
    let rgb = try converter.packedRGB(fromYUV: yuv)
    let shape = VideoFrameShape(
      codedWidth: width, codedHeight: height, rotation: rotation, sampleAspect: 1)
    let source = try rgb.withUnsafeBytes {
      try ViewfinderSource(
        firstFrame: $0, shape: shape, device: try ScreenCatalog.named("iphone-16-pro"),
        maxWidth: maxWidth, encoding: .bt2100HLG)
    }
    let scaler = try ViewfinderPlaneScaler(viewfinder: source, input: converter.layout)
    return (yuv, converter, source, scaler)
  }

  /// The picture of packed planes `yuv` by `scaler`.
  func picture(_ yuv: [UInt8], _ converter: YUV420Converter, _ scaler: ViewfinderPlaneScaler)
    throws -> [UInt8]
  {
    var pixels: [UInt8] = []
    try yuv.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      try scaler.pixels(of: converter.planes(of: base), into: &pixels)
    }
    return pixels
  }

  /// The picture of the frame of `width × height` turned by `rotation`, for a viewfinder at most
  /// `maxWidth` wide: from its planes (``ViewfinderPlaneScaler``), and from the whole frame converted
  /// to 16-bit RGB and then scaled (``ViewfinderSource/videoPixels(of:into:)``).
  func pictures(width: Int, height: Int, rotation: Double?, maxWidth: Int) throws -> (
    planes: [UInt16], whole: [UInt16], source: ViewfinderSource
  ) {
    let made = try viewfinder(
      width: width, height: height, rotation: rotation, maxWidth: maxWidth)
    let fromPlanes = try picture(made.yuv, made.converter, made.scaler)
    return (samples(fromPlanes), samples(made.source.pixels), made.source)
  }

  /// The mean and largest difference between two pictures' samples.
  func differences(_ a: [UInt16], _ b: [UInt16]) -> (mean: Double, largest: Int) {
    let differences = zip(a, b).map { abs(Int($0) - Int($1)) }
    return (
      Double(differences.reduce(0, +)) / Double(max(1, differences.count)),
      differences.max() ?? 0
    )
  }

  /// At the studio's shrink (1080p to the iPhone 16 Pro's 1206 × 678; here half of both), and for a
  /// quarter-turned video (turned after the conversion), scaling the planes first moves the picture
  /// by about half a 10-bit code on average (each scaled plane is rounded to 10 bits, and the chroma
  /// is upsampled at the smaller size); a chroma plane shifted by a pixel, swapped with the other, or
  /// scaled to the wrong size would move these ramps by thousands.
  @Test(
    arguments: [
      (960, 540, nil, 603, 603, 339),
      (320, 180, 90.0, 120, 120, 213),
    ] as [(Int, Int, Double?, Int, Int, Int)])
  func scalingThePlanesFirstGivesTheWholeFramesPicture(
    frame: (Int, Int, Double?, Int, Int, Int)
  ) throws {
    let (width, height, rotation, maxWidth, shownWidth, shownHeight) = frame
    let (planes, whole, source) = try pictures(
      width: width, height: height, rotation: rotation, maxWidth: maxWidth)
    #expect(source.width == shownWidth && source.height == shownHeight)
    #expect(planes.count == shownWidth * shownHeight * 3 && planes.count == whole.count)
    let (mean, largest) = differences(planes, whole)
    #expect(mean < 60, "mean difference \(mean)")
    #expect(largest <= 600, "largest difference \(largest)")
  }

  /// Planes whose rows are padded, as a decoder's are, give the same picture as packed ones.
  @Test func paddedRowsGiveThePackedPlanesPicture() throws {
    let (yuv, converter, source, scaler) = try viewfinder(
      width: 320, height: 180, rotation: nil, maxWidth: 200)
    let layout = converter.layout
    // Each plane's rows copied 96 bytes apart from their packed length, the padding filled.
    let rows = [
      (layout.width * 2, layout.height), (layout.chromaWidth * 2, layout.chromaHeight),
      (layout.chromaWidth * 2, layout.chromaHeight),
    ]
    var padded: [[UInt8]] = []
    var offset = 0
    for (rowBytes, count) in rows {
      var plane = [UInt8](repeating: 0xEE, count: (rowBytes + 96) * count)
      for row in 0..<count {
        plane.replaceSubrange(
          row * (rowBytes + 96)..<row * (rowBytes + 96) + rowBytes,
          with: yuv[offset + row * rowBytes..<offset + (row + 1) * rowBytes])
      }
      offset += rowBytes * count
      padded.append(plane)
    }
    var fromPadded: [UInt8] = []
    try padded[0].withUnsafeBytes { y in
      try padded[1].withUnsafeBytes { u in
        try padded[2].withUnsafeBytes { v in
          guard let yBase = y.baseAddress, let uBase = u.baseAddress, let vBase = v.baseAddress
          else { return }
          try scaler.pixels(
            of: [
              YUVPlane(yBase, stride: rows[0].0 + 96), YUVPlane(uBase, stride: rows[1].0 + 96),
              YUVPlane(vBase, stride: rows[2].0 + 96),
            ], into: &fromPadded)
        }
      }
    }
    let fromPacked = try picture(yuv, converter, scaler)
    #expect(fromPadded.count == source.width * source.height * 6)
    #expect(fromPadded == fromPacked)
  }

  /// Frames the viewfinder does not show, or planes of another size, are refused by name.
  @Test func anSDRViewfinderAndPlanesOfAnotherSizeAreRefused() throws {
    let device = try ScreenCatalog.named("iphone-16-pro")
    let shape = VideoFrameShape(codedWidth: 64, codedHeight: 32, rotation: nil, sampleAspect: 1)
    let layout = YUV420Layout(width: 64, height: 32, depth: 10, matrix: .bt2020, range: .tv)
    let sdr = try [UInt8](repeating: 90, count: 64 * 32 * 3).withUnsafeBytes {
      try ViewfinderSource(firstFrame: $0, shape: shape, device: device)
    }
    #expect(throws: RenderError("scaling decoded planes needs the viewfinder of an HDR video")) {
      try ViewfinderPlaneScaler(viewfinder: sdr, input: layout)
    }
    let hdr = try [UInt8](repeating: 90, count: 64 * 32 * 6).withUnsafeBytes {
      try ViewfinderSource(firstFrame: $0, shape: shape, device: device, encoding: .bt2100HLG)
    }
    let wider = YUV420Layout(width: 66, height: 32, depth: 10, matrix: .bt2020, range: .tv)
    #expect(
      throws: RenderError(
        "the decoded planes are 66×32 at 10 bits, not the video's 64×32 at 10")
    ) {
      try ViewfinderPlaneScaler(viewfinder: hdr, input: wider)
    }
  }
}
