import CJPEGHeader
import Foundation

/// How a JPEG file was compressed, read from its header with libjpeg: its size, its components'
/// sampling factors and its quantisation tables. Nothing past the header is read.
public struct JPEGHeader: Sendable, Equatable {
  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// The components' sampling factors, in file order (one component for grey, three for YCbCr).
  public var sampling: [Sampling]
  /// The quantisation table of the first component (luminance), 64 entries in natural order.
  public var luminanceTable: [Int]
  /// The table of the second component (chrominance), when the file has one apart from the
  /// luminance table.
  public var chrominanceTable: [Int]?

  /// Reads the header of the JPEG in `bytes`; throws ``JPEGError`` naming `name` for data that is not a
  /// JPEG or is damaged.
  public init(bytes: Data, name: String = "JPEG data") throws(JPEGError) {
    var raw = FDJPEGHeader()
    var message = [CChar](repeating: 0, count: 256)
    let status = bytes.withUnsafeBytes { buffer in
      fd_jpeg_read_header_memory(buffer.baseAddress, buffer.count, &raw, &message, message.count)
    }
    try self.init(raw, status: status, message: message, name: name)
  }

  /// Reads the header of the JPEG open in `descriptor` (a regular file), without moving its read
  /// position; throws ``JPEGError`` naming `name` for a file that is not a JPEG or is damaged.
  public init(descriptor: Int32, name: String) throws(JPEGError) {
    var raw = FDJPEGHeader()
    var message = [CChar](repeating: 0, count: 256)
    let status = fd_jpeg_read_header_descriptor(descriptor, &raw, &message, message.count)
    try self.init(raw, status: status, message: message, name: name)
  }

  private init(_ raw: FDJPEGHeader, status: Int32, message: [CChar], name: String)
    throws(JPEGError)
  {
    guard status == 0 else {
      throw JPEGError("\(name): not a readable JPEG header: \(JPEGError.text(message))")
    }
    var header = raw
    let count = Int(min(max(raw.component_count, 0), FD_JPEG_MAX_COMPONENTS))
    let horizontal = withUnsafeBytes(of: &header.horizontal_sampling) {
      Array($0.bindMemory(to: Int32.self))
    }
    let vertical = withUnsafeBytes(of: &header.vertical_sampling) {
      Array($0.bindMemory(to: Int32.self))
    }
    let slots = withUnsafeBytes(of: &header.table_slot) { Array($0.bindMemory(to: Int32.self)) }
    let present = withUnsafeBytes(of: &header.table_present) {
      Array($0.bindMemory(to: Int32.self))
    }
    let tables = withUnsafeBytes(of: &header.tables) { Array($0.bindMemory(to: UInt16.self)) }
    func table(ofComponent index: Int) -> [Int]? {
      guard index < count else { return nil }
      let slot = Int(slots[index])
      guard (0..<Int(FD_JPEG_MAX_TABLES)).contains(slot), present[slot] != 0 else { return nil }
      return tables[(slot * 64)..<(slot * 64 + 64)].map(Int.init)
    }
    guard let luminance = table(ofComponent: 0) else {
      throw JPEGError("\(name): not a readable JPEG header: no quantisation table")
    }
    width = Int(raw.width)
    height = Int(raw.height)
    sampling = (0..<count).map {
      Sampling(horizontal: Int(horizontal[$0]), vertical: Int(vertical[$0]))
    }
    luminanceTable = luminance
    // A file whose colour components share the luminance table has no chrominance table of its own.
    chrominanceTable = count > 1 && slots[1] != slots[0] ? table(ofComponent: 1) : nil
  }

  /// The IJG quality (1 … 100) the file was most likely saved with (see ``JPEGQuality``).
  public var estimatedQuality: Int {
    JPEGQuality.estimate(luminance: luminanceTable, chrominance: chrominanceTable)
  }

  /// The chroma subsampling as libvips names it ("4:4:4", "4:2:2", "4:2:0", "4:4:0", "4:1:1"), from the
  /// first two components' sampling factors; nil for a grey (one-component) file.
  public var chromaSubsampling: String? {
    guard sampling.count >= 2, sampling[1].horizontal > 0, sampling[1].vertical > 0 else {
      return nil
    }
    let across = sampling[0].horizontal / sampling[1].horizontal
    let down = sampling[0].vertical / sampling[1].vertical
    switch (across, down) {
    case (1, 1): return "4:4:4"
    case (2, 1): return "4:2:2"
    case (2, 2): return "4:2:0"
    case (1, 2): return "4:4:0"
    case (4, 1): return "4:1:1"
    default:
      return "\(sampling[0].horizontal)x\(sampling[0].vertical)"
        + ",\(sampling[1].horizontal)x\(sampling[1].vertical)"
    }
  }

  /// How many samples of a component lie across and down one block group (its sampling factors).
  public struct Sampling: Sendable, Equatable {
    /// Horizontal sampling factor, 1 … 4.
    public var horizontal: Int
    /// Vertical sampling factor, 1 … 4.
    public var vertical: Int
  }
}
