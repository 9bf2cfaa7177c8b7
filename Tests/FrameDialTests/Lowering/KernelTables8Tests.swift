import Controls
import Testing
import Vips

@testable import FrameDial

/// A colour program's `ColourRows` transform gives the pixels of its libvips kernels, in both channel
/// orders, for per-channel tables and for channel mixing.
@Suite struct KernelTables8Tests {
  static let states = [
    ControlState(exposureBias: 0.5, contrast: 1.2, whiteBalance: .preset(.tungsten)),
    ControlState(saturation: 1.3), ControlState(filter: .sepia),
  ]

  @Test(arguments: states, [false, true])
  func colourRowsGiveTheKernelPixels(state: ControlState, swapRedAndBlue: Bool) throws {
    let tables = KernelTables8(
      Plan(compiling: state).colorProgram, swapRedAndBlue: swapRedAndBlue)
    let image = try Image(contentsOf: RenderFixtures.sample("coffee.png"))
    let pixels = try image.pixelBytes()
    let expected = try tables.apply(to: image).pixelBytes()
    let rows = try #require(try tables.colourRows())
    var output = [UInt8](repeating: 0, count: pixels.count)
    pixels.withUnsafeBufferPointer { input in
      output.withUnsafeMutableBufferPointer { output in
        guard let source = input.baseAddress, let target = output.baseAddress else { return }
        // Row by row, as a frame path would.
        for row in 0..<image.height {
          let offset = row * image.width * 3
          rows.apply(source + offset, target + offset, pixels: image.width)
        }
      }
    }
    let mismatches = zip(output, expected).filter { $0.0 != $0.1 }.count
    #expect(output.count == expected.count)
    #expect(mismatches == 0)
    let changed = output != pixels
    #expect(changed)
  }

  @Test func identityHasNoColourRows() throws {
    #expect(try KernelTables8.identity.colourRows() == nil)
    let program = Plan(compiling: .identity).colorProgram
    #expect(try KernelTables8(program).colourRows() == nil)
  }

  /// The states above cover both kinds of tables.
  @Test func statesCoverLookupAndMix() {
    var kinds = Set<String>()
    for state in Self.states {
      switch KernelTables8(Plan(compiling: state).colorProgram) {
      case .identity: kinds.insert("identity")
      case .lookup: kinds.insert("lookup")
      case .mix: kinds.insert("mix")
      }
    }
    #expect(kinds == ["lookup", "mix"])
  }
}
