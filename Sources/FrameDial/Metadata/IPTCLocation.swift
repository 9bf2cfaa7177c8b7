import Foundation

/// Removes where a photo was taken from IPTC data as libvips holds it (a JPEG's APP13: `Photoshop 3.0`,
/// then `8BIM` image resources): in the IPTC-NAA resource (0x0404), the IIM datasets 2:26 and 2:27
/// (content location code and name), 2:90 (city), 2:92 (sub-location), 2:95 (province or state), 2:100
/// (country code) and 2:101 (country name). Other resources and datasets are kept byte for byte.
enum IPTCLocation {
  /// The application-record datasets removed.
  static let datasets: Set<UInt8> = [26, 27, 90, 92, 95, 100, 101]

  /// `iptc` without the location datasets; nil when it cannot be read (the caller then drops it whole,
  /// rather than keep a location it could not find).
  static func removingLocation(from iptc: Data) -> Data? {
    let bytes = [UInt8](iptc)
    let header = Array("Photoshop 3.0\0".utf8)
    var position = bytes.starts(with: header) ? header.count : 0
    var output = Array(bytes[0..<position])
    while position < bytes.count {
      guard position + 12 <= bytes.count,
        bytes[position..<(position + 4)].elementsEqual("8BIM".utf8)
      else { return nil }
      let id = Int(bytes[position + 4]) << 8 | Int(bytes[position + 5])
      let nameLength = Int(bytes[position + 6])
      let nameEnd = position + 6 + ((nameLength + 2) & ~1)  // the length byte and name, padded even
      guard nameEnd + 4 <= bytes.count else { return nil }
      let size = bytes[nameEnd..<(nameEnd + 4)].reduce(0) { $0 << 8 | Int($1) }
      let dataStart = nameEnd + 4
      guard dataStart + size <= bytes.count else { return nil }
      var data = Array(bytes[dataStart..<(dataStart + size)])
      if id == 0x0404 {
        guard let filtered = filteredRecords(data) else { return nil }
        data = filtered
      }
      output += bytes[position..<nameEnd]
      output += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: data.count >> $0) }
      output += data
      if data.count % 2 == 1 { output.append(0) }
      position = dataStart + size + size % 2
    }
    return Data(output)
  }

  /// IIM records without the location datasets; nil when they cannot be read.
  private static func filteredRecords(_ records: [UInt8]) -> [UInt8]? {
    var output: [UInt8] = []
    var position = 0
    while position < records.count {
      // Padding after the last record.
      if records[position] == 0 && records[position...].allSatisfy({ $0 == 0 }) {
        output += records[position...]
        break
      }
      guard records[position] == 0x1C, position + 5 <= records.count else { return nil }
      let length = Int(records[position + 3]) << 8 | Int(records[position + 4])
      guard length & 0x8000 == 0, position + 5 + length <= records.count else { return nil }
      let end = position + 5 + length
      if !(records[position + 1] == 2 && datasets.contains(records[position + 2])) {
        output += records[position..<end]
      }
      position = end
    }
    return output
  }
}
