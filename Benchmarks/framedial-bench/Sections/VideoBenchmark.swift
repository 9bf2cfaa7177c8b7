import Foundation
import Measurement

/// One way of processing the benchmark's 1080p clip: its wall time and frames per second.
struct VideoResult: Sendable, Codable {
  /// What the row measures (see ``VideoBenchmark/Case``).
  var role: String
  /// Frames in the clip.
  var frames: Int
  /// The median wall time of the runs in seconds.
  var seconds: Double
  /// Frames per second: the median over the runs.
  var framesPerSecond: Double
  /// How many times the case ran (the cases take turns, one run of each a round).
  var runs: Int
  /// The wall time of each run in seconds, in round order.
  var runSeconds: [Double]
  /// The command line.
  var method: String
}

/// `framedial video` against ffmpeg itself on a generated 1080p H.264 + AAC clip: the re-encode with
/// the same x264 settings (the decode + encode floor) at preset medium, and the manual's frames pipe and
/// the plain re-encode at preset ultrafast; and on two generated 1080p HLG clips (HEVC Main 10, the
/// pan's grainy picture and ffmpeg's `testsrc2` pattern): kept HDR against ffmpeg's libx265 re-encode
/// of the clip (without controls) and ffmpeg's libx265 encode of FrameDial's own kept picture beside a
/// decode of the clip (with controls), and tone-mapped to SDR H.264 against ffmpeg's zscale + tonemap
/// chain into the same libx264 settings, with ffmpeg's libx264 encode of FrameDial's own SDR picture
/// beside a decode of the clip as that case's floor, all at CRF 18, preset medium.
struct VideoBenchmark {
  var options: BenchmarkOptions
  var progress: (String) -> Void

  /// The clip: size, frame rate and seconds (fewer in a quick run).
  static let (width, height, rate) = (1920, 1080, 25)
  var clipSeconds: Int { options.quick ? 3 : 5 }
  /// The `testsrc2` clip's seconds.
  static let patternSeconds = 2

  /// The clips the cases run on.
  enum Clip: String, CaseIterable {
    /// The sample photo panned, with grain, H.264 (the SDR cases).
    case pan
    /// The same pan as HLG, HEVC Main 10.
    case hlgPan
    /// ffmpeg's `testsrc2` pattern as HLG, HEVC Main 10: little to encode, so the HDR work shows.
    case hlgPattern
  }

  /// One way through the clip.
  enum Case: String, CaseIterable {
    /// `ffmpeg -i IN -c:v libx264 -crf 18 -preset medium -c:a copy OUT`: decode and encode alone.
    case floor = "ffmpeg floor, medium"
    /// `framedial video` with the colour state at the default preset, medium.
    case colour = "framedial video, medium"
    /// The same at `--encoder-preset ultrafast`.
    case colourFast = "framedial video, ultrafast"
    /// The frames pipe of docs/cli/frames.md: ffmpeg → `framedial frames` → ffmpeg at `-preset ultrafast`.
    case pipe = "README pipe, ultrafast"
    /// ffmpeg's plain re-encode at `-preset ultrafast`: the most any processing of the clip at that
    /// preset can reach.
    case floorFast = "ffmpeg floor, ultrafast"
    /// `ffmpeg -i HLG -c:v libx265 -crf 18 -preset medium`: the HDR clip's decode and encode alone.
    case hdrFloor = "HLG: ffmpeg x265 re-encode"
    /// `framedial video` on the HLG clip without controls, kept HDR: the identity state writes the
    /// decoded pixels unchanged, so this is FrameDial's own cost over the re-encode.
    case hdrKeepPlain = "HLG: framedial --hdr keep, no controls"
    /// `framedial video` on the HLG clip with the colour state, kept HDR (HEVC Main 10), compared with
    /// the re-encode (the target). Its brighter, higher-contrast picture carries stronger
    /// grain, which costs x265 more bits and time, so the row without controls is shown beside it.
    case hdrKeep = "HLG: framedial --hdr keep"
    /// ffmpeg decoding the clip (to nothing) while it encodes FrameDial's own kept picture, exactly
    /// (raw 10-bit frames from `framedial frames`, made once before the rounds), with the same x265
    /// settings: the decoder's and the encoder's work on FrameDial's picture, the floor of
    /// ``hdrKeep``. A re-encode of FrameDial's encoded output would be cheaper than this: its first
    /// encode has already smoothed some of the grain away (at ultrafast, 12 % less time).
    case hdrKeepFloor = "HLG: ffmpeg x265 encode of framedial's kept picture"
    /// ffmpeg's zscale + tonemap chain to SDR BT.709 (npl=203, mobius, as FrameDial), then x264.
    case hdrToneMapFloor = "HLG: ffmpeg zscale+tonemap"
    /// `framedial video --hdr sdr` on the HLG clip without controls: the same picture as ffmpeg's
    /// chain (up to the HLG decoding), so the same work for the encoder.
    case hdrSDRPlain = "HLG: framedial --hdr sdr, no controls"
    /// `framedial video --hdr sdr` on the HLG clip with the colour state, compared with the chain (the
    /// issue's target). Its brighter, higher-contrast picture also changes x265's work, so the row
    /// without controls is shown beside it.
    case hdrSDR = "HLG: framedial --hdr sdr"
    /// ffmpeg decoding the clip (to nothing) while it encodes FrameDial's own SDR picture with the
    /// controls, exactly (raw 8-bit frames, made once before the rounds from a lossless encode by
    /// `framedial video`), with the same x264 settings: the decoder's and the encoder's work on that
    /// picture, which ``hdrSDR`` cannot go below however fast its tone mapping.
    case hdrSDRFloor = "HLG: ffmpeg x264 encode of framedial's SDR picture"

    /// True for the cases on the HLG clips.
    var isHDR: Bool {
      [
        .hdrFloor, .hdrKeepPlain, .hdrKeep, .hdrKeepFloor, .hdrToneMapFloor, .hdrSDRPlain, .hdrSDR,
        .hdrSDRFloor,
      ].contains(self)
    }

    /// FrameDial's picture that the case encodes (PICTURE in its command), if any.
    var picture: Picture? {
      switch self {
      case .hdrKeepFloor: .kept
      case .hdrSDRFloor: .sdr
      default: nil
      }
    }

    /// The clips the case runs on.
    var clips: [Clip] { isHDR ? [.hlgPan, .hlgPattern] : [.pan] }
  }

  /// FrameDial's own picture of an HLG clip with the controls, written once as raw frames for an
  /// encoder's floor.
  enum Picture: CaseIterable {
    /// Kept HDR, yuv420p10le (``VideoBenchmark/pictureMethod(binary:)``).
    case kept
    /// Tone-mapped to SDR, yuv420p (``VideoBenchmark/sdrPictureMethod(binary:)``).
    case sdr

    var name: String { self == .kept ? "kept" : "SDR" }
    /// Bytes a 1080p frame.
    var frameBytes: Int {
      let pixels = VideoBenchmark.width * VideoBenchmark.height
      return self == .kept ? pixels * 3 : pixels * 3 / 2
    }
  }

  /// A row's name: the case's, with "HLG testsrc2:" in place of "HLG:" on the pattern clip.
  static func role(_ which: Case, on clip: Clip) -> String {
    guard clip == .hlgPattern, which.rawValue.hasPrefix("HLG: ") else { return which.rawValue }
    return "HLG testsrc2: " + which.rawValue.dropFirst("HLG: ".count)
  }

  /// One case on one clip.
  private struct Run: Hashable {
    let which: Case
    let clip: Clip
  }

  func run() throws -> [VideoResult] {
    let binary = try BatchBenchmark.framedialBinary()
    let inputs: [Clip: String] = [
      .pan: try generateClip(), .hlgPan: try generateHLGClip(),
      .hlgPattern: try generatePatternClip(),
    ]
    let frames: [Clip: Int] = [
      .pan: Self.rate * clipSeconds, .hlgPan: Self.rate * clipSeconds,
      .hlgPattern: Self.rate * Self.patternSeconds,
    ]
    var pictures: [Clip: [Picture: String]] = [:]
    defer {
      for picture in pictures.values.flatMap(\.values) {
        try? FileManager.default.removeItem(atPath: picture)
      }
    }
    for clip in [Clip.hlgPan, .hlgPattern] {
      for kind in Picture.allCases {
        pictures[clip, default: [:]][kind] = try picture(
          kind, binary, inputs[clip] ?? "", frames: frames[clip] ?? 0)
      }
    }
    let all = Case.allCases.flatMap { which in which.clips.map { Run(which: which, clip: $0) } }
    let rounds = options.quick ? 2 : 3
    var seconds: [Run: [Double]] = [:]
    // The cases take turns, each round in a new order, so a busy moment on the shared machine falls
    // on all of them alike.
    for round in 0..<rounds {
      for index in all.indices {
        let run = all[(index + round) % all.count]
        let role = Self.role(run.which, on: run.clip)
        progress("video: round \(round + 1) of \(rounds), \(role)")
        seconds[run, default: []].append(
          try measure(
            run.which, binary, inputs[run.clip] ?? "",
            picture: run.which.picture.flatMap { pictures[run.clip]?[$0] } ?? ""))
      }
    }
    return all.map { run in
      let times = seconds[run] ?? []
      let count = frames[run.clip] ?? 0
      return VideoResult(
        role: Self.role(run.which, on: run.clip), frames: count,
        seconds: Statistics.median(sorted: times.sorted()),
        framesPerSecond: Statistics.median(sorted: times.map { Double(count) / $0 }.sorted()),
        runs: times.count, runSeconds: times, method: Self.method(run.which, binary: "framedial"))
    }
  }

  /// FrameDial's `kind` of picture of an HLG clip of `frames` frames with the controls, as raw frames
  /// (``pictureMethod(binary:)``, ``sdrPictureMethod(binary:)``), written once (untimed) for the
  /// case that encodes it (``Case/picture``).
  private func picture(_ kind: Picture, _ binary: String, _ clip: String, frames: Int) throws
    -> String
  {
    let folder = FileManager.default.temporaryDirectory
    let path = folder.appendingPathComponent(
      "framedial-bench-video-picture-\(UUID().uuidString).yuv"
    ).path
    // The SDR picture's lossless encode, deleted once decoded.
    let lossless = folder.appendingPathComponent(
      "framedial-bench-video-lossless-\(UUID().uuidString).mp4"
    ).path
    defer { try? FileManager.default.removeItem(atPath: lossless) }
    progress("video: writing framedial's \(kind.name) picture of \(clip) for the encoder's floor")
    let script = (kind == .kept ? Self.pictureMethod : Self.sdrPictureMethod)(binary)
      .replacingOccurrences(of: "PICTURE", with: ChildProcess.quoted(path))
      .replacingOccurrences(of: "LOSSLESS", with: ChildProcess.quoted(lossless))
      .replacingOccurrences(of: "IN", with: ChildProcess.quoted(clip))
    let exit = try ChildProcess.run("/bin/sh", ["-c", script])
    let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    guard exit.code == 0, let bytes, bytes == kind.frameBytes * frames else {
      try? FileManager.default.removeItem(atPath: path)
      throw ChildProcessError(
        "video: framedial could not write its \(kind.name) picture (exit \(exit.code)): \(script)")
    }
    return path
  }

  /// The command that writes FrameDial's kept picture of the HLG clip IN, with the controls, to
  /// PICTURE: the clip's frames decoded by ffmpeg and rendered by `framedial frames` as `framedial
  /// video` renders them (the same renderer; x265 gives both the same bitstream).
  static func pictureMethod(binary: String) -> String {
    let colour = BatchBenchmark.setArguments.joined(separator: " ")
    return "ffmpeg -v error -i IN -f rawvideo -pix_fmt yuv420p10le - | \(binary) frames "
      + "--size \(width)x\(height) --pix-fmt yuv420p10le --transfer hlg --primaries bt2020 "
      + "--colour-matrix bt2020 --range tv \(colour) > PICTURE"
  }

  /// The wall seconds of one run of `which` on `input` (and FrameDial's `picture`, for the cases
  /// that read it), writing into a new temporary folder.
  private func measure(_ which: Case, _ binary: String, _ input: String, picture: String) throws
    -> Double
  {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-video-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("out.mp4").path
    let script = Self.method(which, binary: binary)
      .replacingOccurrences(of: "PICTURE", with: ChildProcess.quoted(picture))
      .replacingOccurrences(of: "IN", with: ChildProcess.quoted(input))
      .replacingOccurrences(of: "OUT", with: ChildProcess.quoted(output))
    let exit = try ChildProcess.runMeasuringPeak("/bin/sh", ["-c", script])
    guard exit.code == 0, let seconds = exit.seconds,
      FileManager.default.fileExists(atPath: output)
    else {
      throw ChildProcessError("video: \(which.rawValue) failed (exit \(exit.code)): \(script)")
    }
    return seconds
  }

  /// The command that writes FrameDial's SDR picture of the HLG clip IN, with the controls, to
  /// PICTURE: `framedial video --hdr sdr` encoding losslessly (x264 at CRF 0) to LOSSLESS, decoded
  /// by ffmpeg to raw frames.
  static func sdrPictureMethod(binary: String) -> String {
    let colour = BatchBenchmark.setArguments.joined(separator: " ")
    return "\(binary) video IN -o LOSSLESS --hdr sdr --codec h264 --crf 0 \(colour) "
      + "&& ffmpeg -v error -i LOSSLESS -f rawvideo -pix_fmt yuv420p PICTURE"
  }

  /// The shell command of a case, with IN and OUT for the files (and PICTURE for FrameDial's
  /// picture, ``Case/picture``).
  static func method(_ which: Case, binary: String) -> String {
    let colour = BatchBenchmark.setArguments.joined(separator: " ")
    let size = "\(width)x\(height)"
    switch which {
    case .floor:
      return "ffmpeg -v error -y -i IN -c:v libx264 -crf 18 -preset medium -c:a copy OUT"
    case .floorFast:
      return "ffmpeg -v error -y -i IN -c:v libx264 -crf 18 -preset ultrafast -c:a copy OUT"
    case .colour:
      return "\(binary) video IN -o OUT \(colour)"
    case .colourFast:
      return "\(binary) video IN -o OUT \(colour) --encoder-preset ultrafast"
    case .hdrFloor:
      return "ffmpeg -v error -y -i IN -c:v libx265 -crf 18 -preset medium -pix_fmt yuv420p10le "
        + "-x265-params log-level=error -c:a copy OUT"
    case .hdrKeepFloor:
      return "ffmpeg -v error -y -i IN -f rawvideo -pix_fmt yuv420p10le -video_size \(size) "
        + "-framerate \(rate) -i PICTURE -map 1:v -c:v libx265 -crf 18 -preset medium "
        + "-pix_fmt yuv420p10le -x265-params log-level=error -map 0:a -c:a copy OUT "
        + "-map 0:v -f null -"
    case .hdrKeepPlain:
      return "\(binary) video IN -o OUT"
    case .hdrKeep:
      return "\(binary) video IN -o OUT \(colour)"
    case .hdrToneMapFloor:
      return "ffmpeg -v error -y -i IN -vf zscale=t=linear:npl=203:p=bt709,format=gbrpf32le,"
        + "tonemap=mobius:desat=0:peak=4.926,zscale=t=bt709:m=bt709:r=tv,format=yuv420p "
        + "-color_primaries bt709 -color_trc bt709 -colorspace bt709 "
        + "-c:v libx264 -crf 18 -preset medium -c:a copy OUT"
    case .hdrSDRPlain:
      return "\(binary) video IN -o OUT --hdr sdr --codec h264"
    case .hdrSDR:
      return "\(binary) video IN -o OUT --hdr sdr --codec h264 \(colour)"
    case .hdrSDRFloor:
      return "ffmpeg -v error -y -i IN -f rawvideo -pix_fmt yuv420p -video_size \(size) "
        + "-framerate \(rate) -i PICTURE -map 1:v -color_primaries bt709 -color_trc bt709 "
        + "-colorspace bt709 -color_range tv -c:v libx264 -crf 18 -preset medium -map 0:a -c:a copy "
        + "OUT -map 0:v -f null -"
    case .pipe:
      return "ffmpeg -v error -i IN -sws_flags accurate_rnd+full_chroma_int "
        + "-vf scale=in_color_matrix=bt709:in_range=tv -f rawvideo -pix_fmt rgb24 - "
        + "| \(binary) frames --size \(size) \(colour) "
        + "| ffmpeg -v error -y -f rawvideo -pixel_format rgb24 -video_size \(size) "
        + "-framerate \(rate) -i - -i IN -map 0:v -map 1:a? -c:a copy "
        + "-sws_flags accurate_rnd+full_chroma_int -vf scale=out_color_matrix=bt709:out_range=tv "
        + "-pix_fmt yuv420p -color_primaries bt709 -color_trc bt709 -colorspace bt709 "
        + "-color_range tv -c:v libx264 -crf 18 -preset ultrafast OUT"
    }
  }

  /// The clip's description for the report.
  var inputDescription: String {
    "\(Self.width)×\(Self.height), \(Self.rate) fps, \(clipSeconds) s: the sample photo "
      + "(\(URL(fileURLWithPath: options.imagePath).lastPathComponent)) enlarged 4.5× and panned "
      + "150 px/s, with temporal grain (ffmpeg noise, strength 10), H.264 (libx264 crf 20, veryfast) "
      + "yuv420p BT.709 limited range, with AAC audio"
  }

  /// The HLG clip's description for the report.
  var hdrInputDescription: String {
    "the same pan encoded as HLG: HEVC Main 10 (libx265 crf 20, veryfast) yuv420p10le, tagged "
      + "bt2020nc/tv/bt2020/arib-std-b67 in the stream and the container, with AAC audio"
  }

  /// The `testsrc2` clip's description for the report.
  static var patternInputDescription: String {
    "ffmpeg's `testsrc2` pattern, \(width)×\(height), \(rate) fps, \(patternSeconds) s, taken as HLG "
      + "codes and encoded as the HLG pan is (`\(patternRecipe)`)"
  }

  /// ffmpeg's arguments after its input for an HLG clip: HEVC Main 10, tagged as HLG over BT.2020.
  private static let hlgEncoding = [
    "-c:v", "libx265", "-crf", "20", "-preset", "veryfast", "-pix_fmt", "yuv420p10le",
    "-x265-params", "log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc",
    "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc",
    "-color_range", "tv", "-tag:v", "hvc1",
  ]

  /// ffmpeg's arguments that make the `testsrc2` clip (with a tone as its AAC audio) into OUT.
  private static var patternArguments: [String] {
    let size = "size=\(width)x\(height):rate=\(rate):duration=\(patternSeconds)"
    return [
      "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=\(size)", "-f", "lavfi", "-i",
      "sine=frequency=440:duration=\(patternSeconds)",
    ] + hlgEncoding + ["-c:a", "aac", "OUT"]
  }

  /// The `testsrc2` clip's command, as a user would type it.
  static var patternRecipe: String { (["ffmpeg"] + patternArguments).joined(separator: " ") }

  /// The generated HLG clip: the SDR clip's picture taken as HLG codes, made once and kept.
  func generateHLGClip() throws -> String {
    let sdr = try generateClip()
    return try generated("framedial-bench-video-hlg-\(clipSeconds)s.mp4", what: "the HLG clip") {
      ["-v", "error", "-y", "-i", sdr] + Self.hlgEncoding + ["-c:a", "copy", $0]
    }
  }

  /// The generated `testsrc2` HLG clip, made once and kept.
  func generatePatternClip() throws -> String {
    try generated(
      "framedial-bench-video-hlg-testsrc2-\(Self.patternSeconds)s.mp4", what: "the testsrc2 clip"
    ) { output in Self.patternArguments.map { $0 == "OUT" ? output : $0 } }
  }

  /// The clip `name` in the temporary folder, made by ffmpeg with `arguments(partial output path)`
  /// when it is not there yet, and moved into place only once whole.
  private func generated(_ name: String, what: String, arguments: (String) -> [String]) throws
    -> String
  {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(name).path
    if FileManager.default.fileExists(atPath: path) { return path }
    progress("video: generating \(path)")
    let partial = path + ".partial.mp4"
    let exit = try ChildProcess.run("/usr/bin/ffmpeg", arguments(partial))
    guard exit.code == 0 else {
      // What ffmpeg wrote before it failed is no clip: nothing is left behind.
      try? FileManager.default.removeItem(atPath: partial)
      throw ChildProcessError("video: ffmpeg could not generate \(what) (exit \(exit.code))")
    }
    try FileManager.default.moveItem(atPath: partial, toPath: path)
    return path
  }

  /// The generated clip (made once, kept in the temporary folder for later runs).
  private func generateClip() throws -> String {
    let pan =
      "scale=2880:-2,crop=\(Self.width):\(Self.height):x='t*150':y='(ih-\(Self.height))/2',"
      + "noise=alls=10:allf=t"
    return try generated("framedial-bench-video-v2-\(clipSeconds)s.mp4", what: "the clip") {
      [
        "-v", "error", "-y", "-loop", "1", "-framerate", String(Self.rate), "-i", options.imagePath,
        "-f", "lavfi", "-i", "sine=frequency=440:duration=\(clipSeconds)", "-vf", pan,
        "-t", String(clipSeconds),
        "-c:v", "libx264", "-crf", "20", "-preset", "veryfast", "-pix_fmt", "yuv420p",
        "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
        "-color_range", "tv", "-c:a", "aac", $0,
      ]
    }
  }
}
