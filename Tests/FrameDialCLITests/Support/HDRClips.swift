import Foundation
import TestSupport

/// HDR clips for the tests, made with the `ffmpeg` command and libx265 (tagged in the stream's VUI and
/// the container, as phones write them), and the BT.2100 formulas that give the codes of known light.
enum HDRClips {
  /// The transfers of HDR video: FFmpeg's name and what x265 calls it (the same).
  enum Transfer: String, CaseIterable {
    case hlg = "arib-std-b67"
    case pq = "smpte2084"
  }

  /// libx265 HDR 10-bit tagged `transfer` over BT.2020 (stream and container), plus `x265` extras
  /// (`lossless=1`, `master-display=…`), as ffmpeg output arguments.
  static func encoding(_ transfer: Transfer, x265: [String] = []) -> [String] {
    [
      "-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-x265-params",
      ([
        "log-level=error", "colorprim=bt2020", "transfer=\(transfer.rawValue)",
        "colormatrix=bt2020nc",
      ]
        + x265).joined(separator: ":"),
      "-color_primaries", "bt2020", "-color_trc", transfer.rawValue, "-colorspace", "bt2020nc",
    ]
  }

  /// The mastering display and content light level of the PQ clips (a P3 D65 1000 cd/m² display).
  static let masterDisplay = [
    "hdr10=1",
    "master-display=G(13250,34500)B(7500,3000)R(34000,16000)WP(15635,16450)L(10000000,50)",
    "max-cll=1000,400",
  ]

  /// A `testsrc2` clip of `size`, `seconds` long, encoded HDR (`transfer`), into `url`.
  static func moving(
    _ url: URL, _ transfer: Transfer, size: String = "160x90", seconds: Double = 0.4,
    x265: [String] = []
  ) throws {
    try VideoClips.make(
      url,
      VideoClips.testSource(size: size, rate: 10, seconds: seconds)
        + encoding(transfer, x265: x265))
  }

  /// A lossless HDR clip of `frames` frames, `width × height`, whose 10-bit TV-range Y′CbCr codes are
  /// `codes(x, y)` (one (Y, Cb, Cr) per 2×2 block: chroma is 4:2:0), encoded with libx265's lossless
  /// mode so the codes decode as given.
  static func patch(
    _ url: URL, _ transfer: Transfer, width: Int = 64, height: Int = 64, frames: Int = 3,
    fullRange: Bool = false, codes: (Int, Int) -> (Int, Int, Int)
  ) throws {
    var luma = [UInt16](repeating: 0, count: width * height)
    var blue = [UInt16](repeating: 0, count: width * height / 4)
    var red = blue
    for y in 0..<height {
      for x in 0..<width {
        let (code, cb, cr) = codes(x, y)
        luma[y * width + x] = UInt16(code)
        if x % 2 == 0, y % 2 == 0 {
          blue[(y / 2) * (width / 2) + x / 2] = UInt16(cb)
          red[(y / 2) * (width / 2) + x / 2] = UInt16(cr)
        }
      }
    }
    var frame = Data()
    for plane in [luma, blue, red] {
      plane.withUnsafeBytes { frame.append(contentsOf: $0) }
    }
    let raw = url.deletingPathExtension().appendingPathExtension("yuv")
    try Data((0..<frames).flatMap { _ in frame }).write(to: raw)
    defer { try? FileManager.default.removeItem(at: raw) }
    try VideoClips.make(
      url,
      [
        "-f", "rawvideo", "-pix_fmt", "yuv420p10le", "-s", "\(width)x\(height)", "-r", "10", "-i",
        raw.path,
      ]
        + encoding(transfer, x265: ["lossless=1"] + (fullRange ? ["range=full"] : []))
        + ["-color_range", fullRange ? "pc" : "tv"])
  }

  /// The HLG signal (0 … 1) of scene light `light` (0 … 1), BT.2100's OETF.
  static func hlg(_ light: Double) -> Double {
    let (a, b, c) = (0.17883277, 0.28466892, 0.55991073)
    return light <= 1.0 / 12 ? (3 * light).squareRoot() : a * log(12 * light - b) + c
  }

  /// The PQ signal (0 … 1) of display light `nits` cd/m², SMPTE ST 2084's inverse EOTF.
  static func pq(nits: Double) -> Double {
    let (m1, m2) = (2610.0 / 16384, 2523.0 / 4096 * 128)
    let (c1, c2, c3) = (3424.0 / 4096, 2413.0 / 4096 * 32, 2392.0 / 4096 * 32)
    let y = pow(nits / 10_000, m1)
    return pow((c1 + c2 * y) / (1 + c3 * y), m2)
  }

  /// The 10-bit BT.2020 non-constant-luminance Y′CbCr codes of R′G′B′ signals (0 … 1), TV range or
  /// full range.
  static func codes(red: Double, green: Double, blue: Double, fullRange: Bool = false) -> (
    Int, Int, Int
  ) {
    let luma = 0.2627 * red + 0.6780 * green + 0.0593 * blue
    let (cb, cr) = ((blue - luma) / 1.8814, (red - luma) / 1.4746)
    let (lumaScale, chromaScale, black) = fullRange ? (1023.0, 1023.0, 0.0) : (876.0, 896.0, 64.0)
    return (
      Int((black + lumaScale * luma).rounded()), Int((512 + chromaScale * cb).rounded()),
      Int((512 + chromaScale * cr).rounded())
    )
  }

  /// The first frame of `url` as packed 8-bit RGB, converted by ffmpeg as its tags say.
  static func rgb24(_ url: URL) throws -> [UInt8] {
    let result = try VideoClips.runForData(
      "ffmpeg",
      [
        "-v", "error", "-i", url.path, "-frames:v", "1", "-vf", "scale=out_range=pc", "-f",
        "rawvideo", "-pix_fmt", "rgb24", "-",
      ])
    return [UInt8](result.output)
  }

  /// Adds a Dolby Vision configuration box (`dvvC`: profile 8, level 4, RPU and base layer present,
  /// base-layer compatibility id 4, HLG) to the HEVC sample entry of the MP4 or MOV at `url`, as an
  /// iPhone's Dolby Vision HLG has, and grows every box around it. The file's `moov` must follow its
  /// `mdat` (ffmpeg's default), so no chunk offset moves.
  static func addDolbyVisionConfiguration(to url: URL) throws {
    var bytes = [UInt8](try Data(contentsOf: url))
    func size(at offset: Int) -> Int {
      bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
    func type(at offset: Int) -> String {
      String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
    }
    /// The offset of the first box of `name` (`hvc1` or `hev1` for "hvc1") in `start ..< end`.
    func find(_ name: String, from start: Int, to end: Int) -> Int? {
      var offset = start
      while offset + 8 <= end {
        if type(at: offset) == name || (name == "hvc1" && type(at: offset) == "hev1") {
          return offset
        }
        let length = size(at: offset)
        guard length >= 8 else { return nil }
        offset += length
      }
      return nil
    }
    // moov > trak > mdia > minf > stbl > stsd (8 bytes of its own) > hvc1.
    var path: [Int] = []
    var (start, end) = (0, bytes.count)
    for (name, skip) in [
      ("moov", 8), ("trak", 8), ("mdia", 8), ("minf", 8), ("stbl", 8), ("stsd", 16), ("hvc1", 0),
    ] {
      guard let box = find(name, from: start, to: end) else {
        throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no \(name)"])
      }
      path.append(box)
      (start, end) = (box + skip, box + size(at: box))
    }
    let profileLevelFlags = 8 << 9 | 4 << 3 | 1 << 2 | 1
    var box: [UInt8] = [0, 0, 0, 32] + Array("dvvC".utf8)
    box += [1, 0, UInt8(profileLevelFlags >> 8), UInt8(profileLevelFlags & 0xFF), 4 << 4]
    box += [UInt8](repeating: 0, count: 32 - box.count)
    guard let entry = path.last else { return }
    bytes.insert(contentsOf: box, at: entry + size(at: entry))
    for offset in path {
      let grown = size(at: offset) + box.count
      for index in 0..<4 {
        bytes[offset + index] = UInt8(truncatingIfNeeded: grown >> (24 - 8 * index))
      }
    }
    try Data(bytes).write(to: url)
  }

  /// The MD5 of each decoded video frame of `url`, in order (ffmpeg's `framemd5`).
  static func frameHashes(_ url: URL) throws -> [String] {
    let result = try VideoClips.run(
      "ffmpeg", ["-v", "error", "-i", url.path, "-map", "0:v", "-f", "framemd5", "-"])
    return result.output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  /// The first frame of `url`'s 8-bit luma codes.
  static func luma8(_ url: URL) throws -> [UInt8] {
    let result = try VideoClips.runForData(
      "ffmpeg",
      [
        "-v", "error", "-i", url.path, "-frames:v", "1", "-vf", "extractplanes=y", "-f", "rawvideo",
        "-pix_fmt", "gray", "-",
      ])
    return [UInt8](result.output)
  }

  /// The first frame of `url` as 8-bit 4:2:0 planes (Y, then Cb, then Cr): a video's as coded, a
  /// still's converted by ffmpeg to BT.709 TV range (accurate rounding).
  static func yuv420(_ url: URL) throws -> [UInt8] {
    let result = try VideoClips.runForData(
      "ffmpeg",
      [
        "-v", "error", "-i", url.path, "-frames:v", "1", "-sws_flags",
        "accurate_rnd+full_chroma_int", "-vf", "scale=out_color_matrix=bt709:out_range=tv",
        "-f", "rawvideo", "-pix_fmt", "yuv420p", "-",
      ])
    return [UInt8](result.output)
  }

  /// ffprobe's side data of `url`'s first video frame, as JSON objects.
  static func frameSideData(_ url: URL) throws -> [[String: Any]] {
    let result = try VideoClips.run(
      "ffprobe",
      [
        "-v", "error", "-select_streams", "v:0", "-read_intervals", "%+#1", "-show_frames", "-of",
        "json", url.path,
      ])
    let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
    let frames = json?["frames"] as? [[String: Any]] ?? []
    return frames.first?["side_data_list"] as? [[String: Any]] ?? []
  }

  /// The video stream of `url`'s raw HEVC bitstream (copied out of its container), as ffprobe reads
  /// it: its colour fields then come from the stream's own VUI only.
  static func bitstreamVideo(_ url: URL, in folder: URL) throws -> [String: Any] {
    let raw = folder.appendingPathComponent(url.lastPathComponent + ".hevc")
    try VideoClips.make(raw, ["-i", url.path, "-map", "0:v", "-c", "copy", "-f", "hevc"])
    return try VideoClips.streams(raw).first ?? [:]
  }
}
