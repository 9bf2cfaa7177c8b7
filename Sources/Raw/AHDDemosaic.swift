import CRowKernels
import Dispatch
import Synchronization

/// FrameDial's AHD demosaicing of LibRaw's working picture (`CRowKernels`' `RawDemosaic.h`): the same
/// samples as LibRaw 0.20's own AHD, border included, streamed by rows in bands that run on all cores.
enum AHDDemosaic {
  /// Demosaics `picture` (LibRaw's working picture after its `pre_interpolate` step: four samples a
  /// pixel, each pixel's own colour filled) in place. `filters` is LibRaw's pattern at that step,
  /// `camera` its `rgb_cam` (row-major 3 × 3); `bands` bands of rows run on as many threads (fewer
  /// for a short picture). False when the kernel does not take the pattern or size, when `bands` is
  /// less than 1, or when out of memory. The picture may then be partly demosaiced, which LibRaw's own
  /// demosaicing, run next, undoes: it reads each pixel's own colour only, which this keeps, and
  /// writes every other sample.
  static func run(
    _ picture: UnsafeMutablePointer<UInt16>, width: Int, height: Int, filters: UInt32,
    camera: [Float], bands: Int
  ) -> Bool {
    guard camera.count == 9, let widthValue = Int32(exactly: width),
      let heightValue = Int32(exactly: height),
      let ahd = camera.withUnsafeBufferPointer({
        fd_raw_ahd_prepare(
          picture, widthValue, heightValue, filters, $0.baseAddress, Int32(clamping: bands))
      })
    else { return false }
    defer { fd_raw_ahd_free(ahd) }
    // Addresses cross to the worker threads as integers; each band writes rows of its own.
    let (kernel, samples) = (Int(bitPattern: ahd), Int(bitPattern: picture))
    let failures = Atomic<Int>(0)
    DispatchQueue.concurrentPerform(iterations: Int(fd_raw_ahd_bands(ahd))) { band in
      guard let ahd = OpaquePointer(bitPattern: kernel),
        let picture = UnsafeMutablePointer<UInt16>(bitPattern: samples),
        fd_raw_ahd_run_band(ahd, picture, Int32(band)) == 0
      else {
        failures.add(1, ordering: .relaxed)
        return
      }
    }
    return failures.load(ordering: .relaxed) == 0
  }
}
