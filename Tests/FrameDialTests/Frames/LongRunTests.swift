import Controls
import Foundation
import Testing
import Vips

@testable import FrameDial

/// Hours of video compressed into one test: memory must stay flat.
@Suite struct LongRunTests {
  /// Resident memory of this process in bytes (from /proc/self/statm).
  func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }

  @Test func tenThousandFramesWithChangingControlsKeepMemoryFlat() throws {
    let width = 64
    let height = 48
    let input = (0..<(width * height * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    var output = [UInt8](repeating: 0, count: input.count)
    let live = LiveControlState()
    let cache = PlanCache(capacity: 16)
    let renderer = try FrameRenderer(
      width: width, height: height, pixelFormat: .rgb24, controls: live, cache: cache)
    let filters = Filter.allCases
    func run(_ frames: Range<Int>) throws {
      for frame in frames {
        if frame % 4 == 0 {
          // A new state every four frames: exposure sweeps, zoom and filters cycle, more states than fit.
          live.set(
            ControlState(
              exposureBias: Double(frame % 400) / 100 - 2, zoom: 1 + Double(frame % 7) / 4,
              saturation: 1 + Double(frame % 5) / 10,
              whiteBalance: frame % 12 == 0 ? .auto : .kelvin(3000 + Double(frame % 9) * 500),
              filter: filters[(frame / 4) % filters.count]))
        }
        try input.withUnsafeBytes { source in
          try output.withUnsafeMutableBytes { _ = try renderer.render(source, into: $0) }
        }
      }
    }
    try run(0..<1000)
    let trackedBefore = Vips.trackedMemory
    let residentBefore = residentBytes()
    try run(1000..<10_000)
    let residentAfter = residentBytes()
    // Worker threads may release buffers cached for earlier work meanwhile: the count may fall, never grow.
    #expect(Vips.trackedMemory <= trackedBefore, "libvips tracked memory grew")
    // Stated bound: resident memory grows by less than 16 MB over 9,000 frames.
    #expect(
      residentAfter - residentBefore < 16 << 20, "grew \(residentAfter - residentBefore) bytes")
    #expect(cache.count <= 16)
  }
}
