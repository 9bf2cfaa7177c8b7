import Controls
import Foundation
import FrameDial
import TestSupport
import Vips

/// Raw frames for the `frames` command's tests, the command run over them, and the same frames rendered
/// in-process by `FrameRenderer` for comparison.
enum FramePipe {
  /// What one run of `framedial frames` did.
  struct Run {
    var status: Int32
    var reason: Process.TerminationReason
    var output: [UInt8]
    var standardError: String
  }

  static let width = 64
  static let height = 48

  /// `count` different 64×48 frames in `format`: a sample image scaled down, shifted by a few pixels
  /// per frame, with alpha varying across each row for rgba, bgra and rgba64le; 16-bit formats get low
  /// bytes that vary from pixel to pixel (little-endian samples).
  static func frames(_ count: Int, format: PixelFormat = .rgb24) throws -> [[UInt8]] {
    let sample = try Image(contentsOf: CLIRunner.sample("coffee.png"))
      .resizedBilinear(width: width, height: height).pixelBytes()
    return (0..<count).map { index in
      let shift = index * 5 * 3
      let rgb = Array(sample[shift...] + sample[..<shift])
      guard format != .rgb24 else { return rgb }
      if format.sampleBytes == 2 { return sixteenBit(rgb, alpha: format.bands == 4, index: index) }
      var pixels: [UInt8] = []
      pixels.reserveCapacity(width * height * 4)
      for pixel in 0..<(width * height) {
        let (red, green, blue) = (rgb[pixel * 3], rgb[pixel * 3 + 1], rgb[pixel * 3 + 2])
        let alpha = UInt8(truncatingIfNeeded: pixel * 7 + index)
        pixels += format == .bgra ? [blue, green, red, alpha] : [red, green, blue, alpha]
      }
      return pixels
    }
  }

  /// 8-bit RGB pixels as 16-bit little-endian RGB (or RGBA) samples: each 8-bit value the high byte,
  /// a low byte varying with the pixel and `index`.
  private static func sixteenBit(_ rgb: [UInt8], alpha: Bool, index: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    for pixel in 0..<(width * height) {
      for channel in 0..<3 {
        bytes += [
          UInt8(truncatingIfNeeded: pixel * 13 + channel * 71 + index), rgb[pixel * 3 + channel],
        ]
      }
      if alpha {
        bytes += [UInt8(truncatingIfNeeded: pixel), UInt8(truncatingIfNeeded: pixel * 7 + index)]
      }
    }
    return bytes
  }

  /// The frames rendered in-process, in order, by one renderer following `state`.
  static func rendered(_ frames: [[UInt8]], format: PixelFormat = .rgb24, state: ControlState)
    throws -> [[UInt8]]
  {
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: format, controls: LiveControlState(state))
    return try frames.map { frame in
      var output = [UInt8](repeating: 0, count: frame.count)
      try frame.withUnsafeBytes { input in
        try output.withUnsafeMutableBytes { _ = try renderer.render(input, into: $0) }
      }
      return output
    }
  }

  /// Runs `framedial frames arguments…` with `input` on standard input (from a file, so the command
  /// reads at its own pace) and collects standard output and standard error.
  static func run(_ arguments: [String], input: [UInt8]) throws -> Run {
    let inputFile = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-frames-\(UUID().uuidString).raw")
    try Data(input).write(to: inputFile)
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let process = Process()
    process.executableURL = CLIRunner.binary
    process.arguments = ["frames"] + arguments
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, reason: process.terminationReason,
      output: Array(outData), standardError: String(decoding: errData, as: UTF8.self))
  }

  /// `bytes` cut into frames of `frameBytes` (a last partial piece is kept as it is).
  static func split(_ bytes: [UInt8], frameBytes: Int) -> [[UInt8]] {
    stride(from: 0, to: bytes.count, by: frameBytes).map {
      Array(bytes[$0..<min($0 + frameBytes, bytes.count)])
    }
  }
}
