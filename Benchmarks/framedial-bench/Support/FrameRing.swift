import Foundation

/// Input and output frame buffers that frames cycle through, enough of them that together they exceed
/// the last-level cache: as with frames arriving from a camera or decoder, a frame is not in the cache
/// when it is rendered, and the memory pass is measured the same way.
final class FrameRing {
  /// Bytes each side of the ring holds at least (more than the L3 cache of the machines measured).
  static let minimumBytes = 64 << 20

  /// Buffers per side.
  let count: Int
  private let inputs: [UnsafeMutableRawBufferPointer]
  private let outputs: [UnsafeMutableRawBufferPointer]

  /// Copies `pixels` into every input buffer; the output buffers start zeroed.
  init(pixels: [UInt8]) {
    count = max(2, (Self.minimumBytes + pixels.count - 1) / max(pixels.count, 1))
    inputs = (0..<count).map { _ in
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pixels.count, alignment: 64)
      pixels.withUnsafeBytes { buffer.copyMemory(from: $0) }
      return buffer
    }
    outputs = (0..<count).map { _ in
      let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pixels.count, alignment: 64)
      buffer.initializeMemory(as: UInt8.self, repeating: 0)
      return buffer
    }
  }

  deinit {
    for buffer in inputs + outputs { buffer.deallocate() }
  }

  /// The input buffer for frame number `frame`.
  func input(_ frame: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(inputs[frame % count])
  }

  /// The output buffer for frame number `frame`.
  func output(_ frame: Int) -> UnsafeMutableRawBufferPointer { outputs[frame % count] }
}
