import Foundation

/// Short clips made with the `ffmpeg` command's test sources, and what `ffprobe` says of a file, for the
/// `video` command's tests.
package enum VideoClips {
  /// Runs `tool` (`ffmpeg`, `ffprobe`) with `arguments` and returns standard output and standard error.
  @discardableResult
  package static func run(_ tool: String, _ arguments: [String]) throws -> (
    status: Int32, output: String, errors: String
  ) {
    let result = try runForData(tool, arguments)
    return (result.status, String(decoding: result.output, as: UTF8.self), result.errors)
  }

  /// Runs `tool` with `arguments` and returns standard output as bytes and standard error as text.
  package static func runForData(_ tool: String, _ arguments: [String]) throws -> (
    status: Int32, output: Data, errors: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [tool] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Standard error is small; read standard output to its end first so a large JSON cannot block.
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, outData, String(decoding: errData, as: UTF8.self))
  }

  /// Makes `url` with `ffmpeg -y -v error` and `arguments` (inputs, filters, codecs); throws when
  /// ffmpeg fails.
  package static func make(_ url: URL, _ arguments: [String]) throws {
    let result = try run("ffmpeg", ["-v", "error", "-y"] + arguments + [url.path])
    guard result.status == 0 else {
      throw CocoaError(
        .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "ffmpeg: \(result.errors)"])
    }
  }

  /// `testsrc2` of `size` at `rate` for `seconds`, as an ffmpeg input.
  package static func testSource(size: String = "320x240", rate: Int = 25, seconds: Double = 1)
    -> [String]
  {
    ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate):duration=\(seconds)"]
  }

  /// A 440 Hz tone for `seconds`, as an ffmpeg input.
  package static func tone(seconds: Double = 1) -> [String] {
    ["-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)"]
  }

  /// ffprobe's streams of `url`, as JSON objects.
  package static func streams(_ url: URL) throws -> [[String: Any]] {
    let result = try run(
      "ffprobe", ["-v", "error", "-show_streams", "-of", "json", url.path])
    let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    return json?["streams"] as? [[String: Any]] ?? []
  }

  /// The presentation times of the video frames of `url`, in seconds, as ffprobe prints them.
  package static func frameTimes(_ url: URL) throws -> [String] {
    let result = try run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries",
        "frame=best_effort_timestamp_time",
        "-of", "csv=p=0", url.path,
      ])
    return result.output.split(separator: "\n").map {
      String($0).trimmingCharacters(in: .whitespaces)
    }
    .filter { !$0.isEmpty }
  }

  /// The average PSNR (dB over Y, U and V) of `url`'s video against `reference`'s.
  package static func psnr(_ url: URL, against reference: URL) throws -> Double {
    let result = try run(
      "ffmpeg",
      [
        "-hide_banner", "-i", url.path, "-i", reference.path, "-lavfi", "[0:v][1:v]psnr", "-f",
        "null", "-",
      ])
    guard let range = result.errors.range(of: "average:") else { return -1 }
    let digits = result.errors[range.upperBound...].prefix { $0.isNumber || $0 == "." }
    return Double(digits) ?? -1
  }

  /// The mean luma (0 … 255) of `url`'s video over every frame.
  package static func meanLuma(_ url: URL) throws -> Double {
    let result = try run(
      "ffmpeg",
      [
        "-hide_banner", "-i", url.path, "-vf",
        "signalstats,metadata=print:key=lavfi.signalstats.YAVG", "-f", "null", "-",
      ])
    let values = result.errors.split(separator: "\n").compactMap { line -> Double? in
      guard let range = line.range(of: "YAVG=") else { return nil }
      return Double(line[range.upperBound...])
    }
    return values.isEmpty ? -1 : values.reduce(0, +) / Double(values.count)
  }

  /// The luma samples of `url`'s first video frame, row by row, scaled to 16 bits as ffmpeg's
  /// `gray16le` gives them (a 10-bit code `c` becomes about `c × 64`).
  package static func luma16(_ url: URL) throws -> [UInt16] {
    let result = try runForData(
      "ffmpeg",
      [
        "-v", "error", "-i", url.path, "-frames:v", "1", "-vf", "extractplanes=y", "-f", "rawvideo",
        "-pix_fmt", "gray16le", "-",
      ])
    return result.output.withUnsafeBytes { raw in
      (0..<(raw.count / 2)).map { UInt16(raw[2 * $0]) | UInt16(raw[2 * $0 + 1]) << 8 }
    }
  }
}
