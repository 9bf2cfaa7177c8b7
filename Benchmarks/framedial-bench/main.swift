import Foundation
import Vips

func time(_ label: String, _ n: Int = 50, _ body: () throws -> Void) rethrows {
  var samples: [Double] = []
  for _ in 0..<5 { try body() }
  for _ in 0..<n {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }
  samples.sort()
  print(label, "median", samples[n / 2], "min", samples[0])
}

try Vips.start(.init(threads: 1))
let layout = FrameLayout(width: 1920, height: 1080, bands: 3)
var input = [UInt8](repeating: 0, count: layout.requiredBytes)
for i in input.indices { input[i] = UInt8(truncatingIfNeeded: i &* 2654435761 >> 7) }
var output = [UInt8](repeating: 0, count: input.count)
let lut = (0..<768).map { UInt8(255 - $0 % 256) }
let inT = (0..<768).map { Float($0 % 256) / 255 }
let m: [Float] = [1.2, -0.1, -0.1, -0.1, 1.2, -0.1, -0.1, -0.1, 1.2]
let outT = (0..<(3 * 4096)).map { UInt8(min(255, ($0 % 4096) / 16)) }
try time("memcpy") { output.withUnsafeMutableBytes { o in input.withUnsafeBytes { o.copyMemory(from: $0) } } }
try time("identity") {
  try input.withUnsafeBytes { src in
    let img = try Image(wrapping: src, layout: layout)
    try output.withUnsafeMutableBytes { try img.render(into: $0, layout: layout) }
  }
}
try time("lut8") {
  try input.withUnsafeBytes { src in
    let img = try Image(wrapping: src, layout: layout).applyingLookupTables(lut, colourBands: 3)
    try output.withUnsafeMutableBytes { try img.render(into: $0, layout: layout) }
  }
}
try time("mix") {
  try input.withUnsafeBytes { src in
    let img = try Image(wrapping: src, layout: layout).applyingChannelMix(
      inputTables: inT, matrix: m, outputTables: outT, scale: 4095)
    try output.withUnsafeMutableBytes { try img.render(into: $0, layout: layout) }
  }
}
