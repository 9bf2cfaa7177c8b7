import Foundation
import FrameDial
import Measurement

/// What the Python section measured of batches: `framedial.batch` on a Dask `LocalCluster` of two
/// single-threaded worker processes against `framedial batch --jobs 2`, over the batch section's folder.
struct DaskBatchResult: Sendable, Codable {
  /// The interpreter used.
  var python: String
  /// Images in the folder.
  var images: Int
  /// Wall seconds of each run, in round order: the command's and Dask's.
  var commandSeconds: [Double]
  var daskSeconds: [Double]

  /// Images per second of the median run.
  var commandImagesPerSecond: Double {
    Double(images) / Statistics.median(sorted: commandSeconds.sorted())
  }
  var daskImagesPerSecond: Double {
    Double(images) / Statistics.median(sorted: daskSeconds.sorted())
  }
  /// Dask's images per second over the command's, per round.
  var roundRatios: [Double] { zip(commandSeconds, daskSeconds).map { $0 / $1 } }
  /// The median of the rounds' ratios.
  var medianRatio: Double { Statistics.median(sorted: roundRatios.sorted()) }
}

/// Runs `framedial.batch(..., client=...)` and `framedial batch --jobs 2` in turns from one Python child
/// process, which keeps its cluster running between rounds (as a user's session would).
struct DaskBatchBenchmark {
  let options: BenchmarkOptions
  let progress: (String) -> Void

  /// The measurement; nil (with a progress line) when no Python has `framedial` and Dask distributed.
  func run() throws -> DaskBatchResult? {
    guard let python = PythonBenchmark.interpreter(importing: "framedial, distributed") else {
      progress(
        "python: Dask batch skipped — no python3 imports framedial and distributed (run "
          + "FRAMEDIAL_PYTHON_EXTRAS=dask scripts/python-install.sh in a virtual environment, or set "
          + "FRAMEDIAL_BENCH_PYTHON)")
      return nil
    }
    let inputs = try BatchBenchmark(options: options, progress: progress).generateInputs()
    let folder = URL(fileURLWithPath: inputs[0]).deletingLastPathComponent().path
    let rounds = options.quick ? 2 : 5
    progress(
      "python: \(inputs.count) images, framedial.batch on LocalCluster(2 × 1 thread) and "
        + "framedial batch --jobs 2, taking turns for \(rounds) rounds")
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("framedial-bench-dask-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let script = scratch.appendingPathComponent("dask_batch.py").path
    try Self.script.write(toFile: script, atomically: true, encoding: .utf8)
    let child = try PythonBenchmark.run(
      python,
      [
        script, try BatchBenchmark.framedialBinary(), folder, scratch.path, String(rounds),
        String(BatchBenchmark.quality),
      ] + BatchBenchmark.setArguments, showErrors: true)
    guard child.status == 0,
      let json = try JSONSerialization.jsonObject(with: Data(child.output.utf8))
        as? [String: [Double]],
      let command = json["command"], let dask = json["dask"], command.count == rounds,
      dask.count == rounds
    else { throw RenderError("the Dask batch benchmark failed: \(child.output)") }
    return DaskBatchResult(
      python: python, images: inputs.count, commandSeconds: command, daskSeconds: dask)
  }

  /// The Python side: one cluster for every round; each round runs both, into new folders, in an
  /// order that alternates. Prints the wall seconds as JSON.
  static let script = """
    import json, os, subprocess, sys, time
    from distributed import Client, LocalCluster
    import framedial

    binary, folder, scratch, rounds, quality, *sets = sys.argv[1:]
    state = {}
    names = {"ev": "exposureBias", "wb": "whiteBalance", "contrast": "contrast", "saturation": "saturation"}
    for assignment in sets[1::2]:
        key, value = assignment.split("=")
        state[names[key]] = value if key == "wb" else float(value)

    def command(output):
        subprocess.run([binary, "batch", folder, "-o", output, "--jobs", "2", "--quality", quality,
                        *sets], check=True, stdout=subprocess.DEVNULL)

    if __name__ == "__main__":
        times = {"command": [], "dask": []}
        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                          silence_logs=50) as cluster, Client(cluster) as client:
            def dask(output):
                summary = framedial.batch(folder, output, state, client=client, quality=int(quality))
                assert summary["done"] == len(os.listdir(folder)), summary
            for round in range(int(rounds)):
                order = [("command", command), ("dask", dask)]
                for name, run in order if round % 2 == 0 else order[::-1]:
                    output = os.path.join(scratch, f"{name}-{round}")
                    start = time.perf_counter()
                    run(output)
                    times[name].append(time.perf_counter() - start)
        print(json.dumps(times))
    """
}
