import Foundation
import Testing

@testable import Vips

@Suite struct OperationTests {
  /// A 4 × 2 RGB image with known pixels.
  func smallImage() throws -> Image {
    let pixels: [UInt8] = (0..<24).map { UInt8($0 * 10) }
    return try Image.fromPixels(pixels, width: 4, height: 2, bands: 3)
  }

  @Test func linearComputesAPlusB() throws {
    let result = try Operation.call(
      "linear", ["in": .image(smallImage()), "a": 1.5, "b": 2, "uchar": true]
    )
    .image()
    let expected = (0..<24).map { UInt8(min(255, (Double($0 * 10) * 1.5 + 2).rounded())) }
    #expect(try result.pixelBytes() == expected)
  }

  @Test func perBandLinearUsesArrays() throws {
    let result = try smallImage().linear([1, 0, 2], [0, 5, 0], uchar: true)
    let bytes = try result.pixelBytes()
    for index in 0..<24 {
      let value = Double(index * 10)
      let expected = [value, 5, min(255, value * 2)][index % 3]
      #expect(Double(bytes[index]) == expected)
    }
  }

  @Test func extractAreaCopiesTheWindow() throws {
    let window = try smallImage().extractArea(left: 1, top: 1, width: 2, height: 1)
    #expect(window.width == 2 && window.height == 1)
    // Row 1 starts at pixel 4; columns 1 and 2 are pixels 5 and 6: bytes 15 … 20.
    #expect(try window.pixelBytes() == (15..<21).map { UInt8($0 * 10) })
  }

  @Test func maplutLooksUpEveryValue() throws {
    let inverted = try Image.fromPixels(
      (0..<256).map { UInt8(255 - $0) }, width: 256, height: 1, bands: 1)
    let result = try smallImage().mapLUT(inverted)
    #expect(try result.pixelBytes() == (0..<24).map { UInt8(255 - $0 * 10) })
  }

  @Test func recombMixesBands() throws {
    // Output R = G, G = B, B = R + G.
    let matrix = try Image.matrix(width: 3, height: 3, values: [0, 1, 0, 0, 0, 1, 1, 1, 0])
    let result = try smallImage().recombined(by: matrix).cast(to: .uchar)
    let bytes = try result.pixelBytes()
    let source = (0..<24).map { $0 * 10 }
    for pixel in 0..<8 {
      let (r, g, b) = (source[pixel * 3], source[pixel * 3 + 1], source[pixel * 3 + 2])
      #expect(bytes[pixel * 3] == UInt8(g))
      #expect(bytes[pixel * 3 + 1] == UInt8(b))
      #expect(bytes[pixel * 3 + 2] == UInt8(min(255, r + g)))
    }
  }

  @Test func resizeDoublesTheSizeAndKeepsAFlatImageFlat() throws {
    let flat = try Image.fromPixels(
      [UInt8](repeating: 77, count: 10 * 6 * 3), width: 10, height: 6, bands: 3)
    let bigger = try flat.resized(by: 2, kernel: "lanczos3")
    #expect(bigger.width == 20 && bigger.height == 12)
    #expect(try bigger.pixelBytes().allSatisfy { $0 == 77 })
    let nearest = try smallImage().resized(by: 2, kernel: "nearest")
    let bytes = try nearest.pixelBytes()
    // Nearest neighbour: output pixel (0,0) and (1,0) both repeat input pixel (0,0).
    #expect(Array(bytes[0..<3]) == [0, 10, 20])
    #expect(Array(bytes[3..<6]) == [0, 10, 20])
  }

  @Test func severalOutputsAreReturned() throws {
    let result = try Operation.call("max", ["in": .image(smallImage())])
    #expect(try result.double("out") == 230)
    #expect(try result.int("x") == 3)
    #expect(try result.int("y") == 1)
  }

  @Test func enumsByNickname() throws {
    let result = try Operation.call(
      "embed",
      ["in": .image(smallImage()), "x": 1, "y": 0, "width": 6, "height": 2, "extend": "white"]
    ).image()
    let bytes = try result.pixelBytes()
    #expect(Array(bytes[0..<3]) == [255, 255, 255])
    #expect(Array(bytes[3..<6]) == [0, 10, 20])
  }

  @Test func unknownOperationIsAnError() {
    let error = #expect(throws: VipsError.self) { try Operation.call("no_such_operation", [:]) }
    #expect(error?.message.contains("no operation named 'no_such_operation'") == true)
  }

  @Test func unknownArgumentIsAnError() throws {
    let image = try smallImage()
    #expect(throws: VipsError("libvips operation linear has no argument 'gain'")) {
      try Operation.call("linear", ["in": .image(image), "a": 1, "b": 0, "gain": 2])
    }
  }

  @Test func wrongArgumentTypeIsAnError() throws {
    let image = try smallImage()
    #expect(
      throws: VipsError(
        "argument 'a' of libvips operation linear expects an array of doubles, got a string")
    ) {
      try Operation.call("linear", ["in": .image(image), "a": "bright", "b": 0])
    }
    let error = #expect(throws: VipsError.self) {
      try Operation.call("resize", ["in": .image(image), "scale": 2, "kernel": "blurry"])
    }
    #expect(error?.message.contains("lanczos3") == true)
  }

  @Test func missingRequiredArgumentFailsTheBuildWithLibvipsMessage() throws {
    let image = try smallImage()
    let error = #expect(throws: VipsError.self) {
      try Operation.call("linear", ["in": .image(image)])
    }
    #expect(error?.message.contains("libvips operation linear failed") == true)
    #expect(error?.message.contains("parameter a not set") == true)
  }

  @Test func introspectionListsArguments() throws {
    let arguments = try Operation.arguments(of: "linear")
    #expect(arguments.contains(.init(name: "in", isInput: true, isRequired: true)))
    #expect(arguments.contains(.init(name: "out", isInput: false, isRequired: true)))
    #expect(arguments.contains(.init(name: "uchar", isInput: true, isRequired: false)))
  }

  @Test func tenThousandCallsLeaveTrackedMemoryWhereItWas() throws {
    let image = try smallImage()
    // Warm up once so one-time allocations are not counted.
    _ = try image.linear([2], [1]).pixelBytes()
    let memoryBefore = Vips.trackedMemory
    let allocationsBefore = Vips.trackedAllocations
    for index in 0..<10_000 {
      let result = try Operation.call(
        "linear", ["in": .image(image), "a": .double(Double(index % 7)), "b": 1])
      if index % 1000 == 0 { _ = try result.image().pixelBytes() }
    }
    // libvips's worker threads may release buffers they cached for earlier tests while the loop runs, so
    // the counters can fall; a leak in the generic call (10,000 calls) would make them grow.
    #expect(Vips.trackedMemory <= memoryBefore)
    #expect(Vips.trackedAllocations <= allocationsBefore)
  }
}
