import Foundation
import Measurement
import Vips

/// What the browser section measured: `framedial studio` on a 1080p source, its page in headless
/// Chromium moved with real key presses, each latency measured by the page (input event → the frame
/// showing the change on screen), and the server's render times of the same run.
struct BrowserResult: Sendable, Codable {
  /// The browser and the interpreter that drove it.
  var browser: String
  var python: String
  /// The image served, and the size of the frames the studio rendered from it (the size the page
  /// shows its viewfinder at, in device pixels).
  var source: String
  var frameWidth: Int
  var frameHeight: Int
  /// Key presses sent after the warm-up, and the rate they went at.
  var events: Int
  var eventsPerSecond: Double
  /// Slider-to-displayed-frame latency in milliseconds, one sample per frame that showed a key press.
  var latency: Summary
  /// Key presses no frame showed (a change the server found equal to its state makes no frame).
  var unshownChanges: Int
  /// The studio's frame render times in milliseconds (`/stats`: the pixels alone), nearest rank.
  var renderP50: Double
  var renderP99: Double
  var renderSamples: Int
  /// The studio's frame times in milliseconds (`/stats`: the pixels and their RGBA copy, the frame the
  /// page gets), nearest rank.
  var frameP50: Double
  var frameP99: Double

  /// The target's limit in milliseconds: three median frame times (render and RGBA copy) plus one
  /// display frame (16 ms).
  var latencyLimit: Double { Targets.browserRenderTimes * frameP50 + Targets.displayFrameMs }
  /// The limit counting the render alone (the pixels, no copy), reported beside it.
  var renderOnlyLimit: Double { Targets.browserRenderTimes * renderP50 + Targets.displayFrameMs }
}

/// Runs Benchmarks/browser/studio_latency.py: a Python with Selenium drives Debian's chromium through
/// chromedriver against the `framedial` built beside this benchmark.
struct BrowserBenchmark {
  let options: BenchmarkOptions
  let progress: (String) -> Void

  /// Key presses a second: a person sliding steadily.
  static let eventsPerSecond = 40.0

  private static var repository: URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  }

  /// The driver script.
  static var script: String {
    repository.appendingPathComponent("Benchmarks/browser/studio_latency.py").path
  }

  /// The `framedial` beside this executable (`swift build` builds both).
  static var framedial: String {
    URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("framedial").path
  }

  /// Why the section cannot run here, or nil when it can.
  static func missing(python: String?) -> String? {
    var missing: [String] = []
    for command in ["chromium", "chromedriver"] where !onPath(command) {
      missing.append("no \(command) on PATH")
    }
    if python == nil { missing.append("no python3 imports selenium") }
    if !FileManager.default.isExecutableFile(atPath: framedial) {
      missing.append("no framedial beside framedial-bench (\(framedial))")
    }
    guard !missing.isEmpty else { return nil }
    return missing.joined(separator: ", ")
      + " (scripts/ensure-chromium.sh installs chromium and chromium-driver, scripts/python-venv.sh "
      + "makes .build/python-venv with selenium; FRAMEDIAL_BENCH_PYTHON names another python)"
  }

  private static func onPath(_ command: String) -> Bool {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return path.split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/\(command)")
    }
  }

  /// Measures the studio on the options' photo enlarged to 1920×1080; nil (with a progress line
  /// saying why) when the browser, Selenium or the `framedial` binary is not there, or when the driver
  /// failed (a browser that crashes does not take the other sections' results with it).
  func run() throws -> BrowserResult? {
    let python = PythonBenchmark.interpreter(importing: "selenium")
    if let missing = Self.missing(python: python) {
      progress("browser: skipped — \(missing)")
      return nil
    }
    guard let python else { return nil }
    let events = options.quick ? 120 : 300
    progress(
      "browser: \(events) key presses at \(Format.number(Self.eventsPerSecond))/s on "
        + "framedial studio's page in headless chromium (\(python))")
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let source = scratch.appendingPathComponent("1080p.png").path
    try SampleFrame.enlargedPhoto(options.imagePath, width: 1920, height: 1080).write(to: source)
    let child = try PythonBenchmark.run(
      python,
      [
        Self.script, Self.framedial, source, String(events),
        String(Self.eventsPerSecond),
      ], showErrors: true)
    guard child.status == 0,
      let json = try? JSONSerialization.jsonObject(with: Data(child.output.utf8)) as? [String: Any],
      let latencies = json["latenciesMs"] as? [Double], let latency = Summary(latencies),
      let renderP50 = json["renderP50Ms"] as? Double,
      let renderP99 = json["renderP99Ms"] as? Double,
      let frameP50 = json["frameP50Ms"] as? Double, let frameP99 = json["frameP99Ms"] as? Double
    else {
      progress(
        "browser: failed — \(Self.script) exited with \(child.status) (its errors are above)"
          + (child.output.isEmpty ? "" : "; it printed: \(child.output)"))
      return nil
    }
    let photo = URL(fileURLWithPath: options.imagePath).lastPathComponent
    return BrowserResult(
      browser: "Chromium \(json["browser"] as? String ?? "?") (headless)", python: python,
      source: "\(photo) centre-cropped and enlarged to 1920×1080, PNG",
      frameWidth: json["frameWidth"] as? Int ?? 0, frameHeight: json["frameHeight"] as? Int ?? 0,
      events: json["events"] as? Int ?? events,
      eventsPerSecond: json["eventsPerSecond"] as? Double ?? .nan, latency: latency,
      unshownChanges: json["unshownChanges"] as? Int ?? 0, renderP50: renderP50,
      renderP99: renderP99, renderSamples: json["renderSamples"] as? Int ?? 0, frameP50: frameP50,
      frameP99: frameP99)
  }
}
