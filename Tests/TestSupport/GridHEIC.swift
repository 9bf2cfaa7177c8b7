import Foundation

/// A HEIC whose primary image is a grid of coded tiles (as an iPhone writes its photos), assembled from
/// single-picture HEICs written by libheif: libheif 1.15 reads grids but does not write them.
package enum GridHEIC {
  /// Writes to `url` a grid of `columns` × `rows` tiles, `tiles` in row order: each a HEIC file of one
  /// coded picture and no metadata (its `hvcC` box and its `mdat` payload are taken over), all of one
  /// size. The grid's output size is `width` × `height` (at most the tiles' total, which libheif crops).
  package static func write(
    _ url: URL, tiles: [URL], columns: Int, rows: Int, tileSize: (Int, Int), size: (Int, Int)
  ) throws {
    let coded = try tiles.map { tile -> (hvcC: Data, data: Data) in
      let bytes = try Data(contentsOf: tile)
      return (try box("hvcC", in: bytes), try payload("mdat", in: bytes))
    }
    let descriptor =
      Data([0, 0, UInt8(rows - 1), UInt8(columns - 1)]) + be16(size.0) + be16(size.1)
    let ftyp = box("ftyp", Data("heic".utf8) + be32(0) + Data("mif1heic".utf8))
    // Items: 1 the grid, 2… the tiles. Properties: 1 … n the tiles' hvcC, n+1 the tiles' ispe, n+2
    // the grid's ispe.
    func meta(dataStart: Int) -> Data {
      let hdlr = fullBox("hdlr", be32(0) + Data("pict".utf8) + Data(count: 12) + Data([0]))
      let pitm = fullBox("pitm", be16(1))
      var entries = fullBox("infe", be16(1) + be16(0) + Data("grid".utf8) + Data([0]), version: 2)
      for index in coded.indices {
        entries += fullBox(
          "infe", be16(index + 2) + be16(0) + Data("hvc1".utf8) + Data([0]), version: 2, flags: 1)
      }
      let iinf = fullBox("iinf", be16(coded.count + 1) + entries)
      let references = coded.indices.reduce(be16(1) + be16(coded.count)) { $0 + be16($1 + 2) }
      let iref = fullBox("iref", box("dimg", references))
      var properties = coded.reduce(Data()) { $0 + $1.hvcC }
      properties += fullBox("ispe", be32(tileSize.0) + be32(tileSize.1))
      properties += fullBox("ispe", be32(size.0) + be32(size.1))
      var associations = be32(coded.count + 1) + be16(1) + Data([1, UInt8(coded.count + 2)])
      for index in coded.indices {
        associations +=
          be16(index + 2) + Data([2, 0x80 | UInt8(index + 1), UInt8(coded.count + 1)])
      }
      let iprp = box("iprp", box("ipco", properties) + fullBox("ipma", associations))
      var locations = Data([0x44, 0x40]) + be16(coded.count + 1)
      var offset = dataStart
      for (id, length) in [(1, descriptor.count)]
        + coded.indices.map({ ($0 + 2, coded[$0].data.count) })
      {
        locations += be16(id) + be16(0) + be32(0) + be16(1) + be32(offset) + be32(length)
        offset += length
      }
      let iloc = fullBox("iloc", locations)
      return fullBox("meta", hdlr + pitm + iloc + iinf + iref + iprp)
    }
    let metaSize = meta(dataStart: 0).count
    let mdat = box("mdat", coded.reduce(descriptor) { $0 + $1.data })
    try (ftyp + meta(dataStart: ftyp.count + metaSize + 8) + mdat).write(to: url)
  }

  /// The whole box of type `type` (header included) found in `bytes`.
  package static func box(_ type: String, in bytes: Data) throws -> Data {
    let (start, size) = try find(type, in: bytes)
    return bytes.subdata(in: start..<start + size)
  }

  /// The contents of the box of type `type` in `bytes` (its 8-byte header left out).
  package static func payload(_ type: String, in bytes: Data) throws -> Data {
    let (start, size) = try find(type, in: bytes)
    return bytes.subdata(in: start + 8..<start + size)
  }

  /// The offset and size of the first box of type `type` in `bytes` (a search for its 4 letters).
  package static func find(_ type: String, in bytes: Data) throws -> (start: Int, size: Int) {
    guard let found = bytes.range(of: Data(type.utf8)), found.lowerBound >= bytes.startIndex + 4
    else { throw CocoaError(.fileReadCorruptFile) }
    let start = found.lowerBound - 4
    let size = bytes[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
    guard size >= 8, start + size <= bytes.endIndex else { throw CocoaError(.fileReadCorruptFile) }
    return (start - bytes.startIndex, size)
  }

  static func box(_ type: String, _ contents: Data) -> Data {
    be32(contents.count + 8) + Data(type.utf8) + contents
  }

  static func fullBox(_ type: String, _ contents: Data, version: UInt8 = 0, flags: UInt8 = 0)
    -> Data
  {
    box(type, Data([version, 0, 0, flags]) + contents)
  }

  static func be16(_ value: Int) -> Data { Data([UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]) }

  static func be32(_ value: Int) -> Data { be16(value >> 16) + be16(value & 0xffff) }
}
