import CRawLayout

/// Where LibRaw's decoder will read a raw's data, as LibRaw found it on opening the file, checked
/// against the file before any of it is decoded: a raw whose data lies past the end of the file, or
/// whose strips and tiles are too small for what they promise, is damaged (cut short, or cut down as
/// ExifTool's test files are), and LibRaw 0.20 would often develop it without a word (black, or
/// stripes of whatever follows). What a check catches:
///
/// - a strip or tile of the raw directory (the one LibRaw decodes) that runs past the end of the file
///   (a file cut short inside its raw data, an offset past its end);
/// - a tiled directory that lists fewer tiles than its picture needs;
/// - a strip or tile smaller than its picture needs in its coding: exactly `bits` a sample for an
///   uncompressed DNG, 16 or 8 for the decoders that read unpacked 16- or 8-bit samples, and at least
///   one bit a sample for the lossless codings (lossless JPEG and the makers' Huffman and packed
///   codings), since no code is shorter;
/// - a lossless JPEG strip or tile where no JPEG stream starts (LibRaw 0.20 leaves it, and every tile
///   after it, black without a word);
/// - data that the decoder reads from one place (no tiles) and that needs more bytes than the file
///   has after that place, whether or not the directory lists strips (a raw found by a maker's own
///   rule: RAF, a maker's offsets).
///
/// A Panasonic RW2's strip tables are left out (`CRawLayout` does not keep them): intact ones give a
/// StripOffsets of 0xFFFFFFFF or a StripByteCounts of zero or of the unpacked size; its data is checked
/// from where LibRaw starts it. A coding whose size cannot be bounded from below (lossy DNG, Kodak's and other decoders not named
/// in ``minimumBits``) is checked only for data past the end of the file. Damage inside data of the
/// right size (flipped bits, zeroed blocks) is left to LibRaw's own reports when it decodes.
struct RawDataLayout {
  /// A strip or tile: where it starts, how many bytes the directory says it holds (nil: not said)
  /// and its first two bytes (nil where the file ends before them).
  struct Piece: Equatable {
    var offset: Int
    var count: Int?
    var start: UInt16? = nil
  }

  /// The bytes the file holds.
  var fileSize: Int
  /// Where the decoder starts reading (a tiled DNG's: its table of tile offsets).
  var dataOffset: Int
  /// The decoder LibRaw chose, as it names it ("lossless_dng_load_raw()").
  var decoder: String
  /// The raw data's size, bits a sample and samples a pixel as the decoder reads them (LibRaw says 0
  /// for some decoders: read as 1).
  var rawWidth: Int
  var rawHeight: Int
  var bits: Int
  var samples: Int
  /// True when the decoder reads tiles from a table at ``dataOffset``.
  var tiled = false
  /// The raw directory's picture size, nil when no directory holds the data.
  var directorySize: (width: Int, height: Int)?
  /// The raw directory's tile size, nil for strips or when no directory holds the data.
  var tileSize: (width: Int, length: Int)?
  /// The raw directory's strips or tiles; empty when it lists none or no directory holds the data.
  var pieces: [Piece] = []

  /// The fewest bits a sample that the decoder's coding can take, and whether that is exact (the
  /// decoder reads just so many, row by row); nil for a coding with no such floor or one not known.
  var minimumBits: (bits: Int, exact: Bool)? {
    switch decoder {
    case "packed_dng_load_raw()": (bits, true)
    case "unpacked_load_raw()": (16, true)
    case "eight_bit_load_raw()": (8, true)
    case "lossless_dng_load_raw()", "lossless_jpeg_load_raw()", "nikon_load_raw()",
      "nikon_load_striped_packed_raw()", "nikon_load_padded_packed_raw()", "packed_load_raw()",
      "panasonic_load_raw()", "pentax_load_raw()", "sony_arw_load_raw()", "sony_arw2_load_raw()",
      "olympus_load_raw()":
      (1, false)
    default: nil
    }
  }

  /// True when the decoder reads each strip or tile as a lossless JPEG stream.
  private var readsLosslessJPEG: Bool {
    decoder == "lossless_dng_load_raw()" || decoder == "lossless_jpeg_load_raw()"
  }

  /// The fewest bytes that `width × height` pixels take in the decoder's coding; nil when unknown.
  func minimumBytes(width: Int, height: Int) -> Int? {
    guard let (bits, exact) = minimumBits, width > 0, height > 0 else { return nil }
    let perRow = width * max(1, samples) * bits
    // An exact coding starts each row on a byte; a Huffman coding runs on across rows.
    return exact ? height * ((perRow + 7) / 8) : (perRow * height + 7) / 8
  }

  /// "pixels in … (… bytes)": what `width × height` pixels take in the decoder's coding, for a message.
  private func need(width: Int, height: Int, bytes: Int) -> String {
    switch minimumBits {
    case (let bits, true)?:
      "\(width)×\(height) pixels of \(bits)-bit uncompressed samples (\(bytes) bytes)"
    default:
      "\(width)×\(height) pixels in a lossless coding (at least 1 bit a sample: \(bytes) bytes)"
    }
  }

  /// What LibRaw 0.20 cannot decode in an intact file, as the end of a sentence ("tiled uncompressed
  /// raw data"), or nil. Its uncompressed DNG decoder reads the data from one place, as one strip:
  /// given tiles, it would read their table as samples.
  var unsupported: String? {
    decoder == "packed_dng_load_raw()" && tiled ? "tiled uncompressed raw data" : nil
  }

  /// Why the file is damaged, as the end of a sentence ("its raw strip 1 of 1 … runs past the end
  /// …"), or nil when its raw data lies where and as the file says.
  var problem: String? {
    let kind = tileSize != nil ? "tile" : "strip"
    for (index, piece) in pieces.enumerated() {
      let name = "its raw \(kind) \(index + 1) of \(pieces.count)"
      if piece.offset >= fileSize || piece.offset < 0 {
        return "\(name) starts at byte \(piece.offset), past the end of the \(fileSize)-byte file"
      }
      if let count = piece.count, piece.offset + count > fileSize {
        return
          "\(name) runs from byte \(piece.offset) to \(piece.offset + count), past the end of the "
          + "\(fileSize)-byte file (it is cut short)"
      }
    }
    if let tile = tileSize, !pieces.isEmpty {
      let needed =
        ((rawWidth + tile.width - 1) / tile.width) * ((rawHeight + tile.length - 1) / tile.length)
      if pieces.count < needed {
        return
          "its tile table lists \(pieces.count) tiles where its \(rawWidth)×\(rawHeight) picture "
          + "in \(tile.width)×\(tile.length) tiles has \(needed)"
      }
      if let floor = minimumBytes(width: tile.width, height: tile.length) {
        for (index, piece) in pieces.enumerated() {
          if let count = piece.count, count < floor {
            return
              "its raw tile \(index + 1) of \(pieces.count) holds \(count) bytes, too few for "
              + need(width: tile.width, height: tile.length, bytes: floor)
          }
        }
      }
    } else if let floor = minimumBytes(width: rawWidth, height: rawHeight),
      directorySize?.width == rawWidth, directorySize?.height == rawHeight
    {
      // Strips are held to the picture only where the directory's picture is the one decoded (a
      // maker's rule can make the decoder read more or less than its directory says).
      let counts = pieces.compactMap(\.count)
      if !pieces.isEmpty, counts.count == pieces.count, counts.reduce(0, +) < floor {
        let total = counts.reduce(0, +)
        let what = pieces.count == 1 ? "its raw strip holds" : "its \(pieces.count) raw strips hold"
        return
          "\(what) \(total) bytes, too few for "
          + need(width: rawWidth, height: rawHeight, bytes: floor)
      }
    }
    if readsLosslessJPEG {
      // LibRaw leaves a tile that does not start a JPEG stream, and every one after it, black
      // without a word, as it does the whole picture when its data does not (it reads one stream from
      // the first strip on); it looks for the start-of-image marker's second byte.
      for (index, piece) in pieces.prefix(tiled ? pieces.count : 1).enumerated()
      where (piece.start ?? 0) & 0xFF != 0xD8 {
        return
          "its raw \(kind) \(index + 1) of \(pieces.count) does not start a lossless JPEG stream"
      }
    }
    if dataOffset > 0, dataOffset >= fileSize {
      return "its raw data starts at byte \(dataOffset), past the end of the \(fileSize)-byte file"
    }
    if !tiled, dataOffset > 0, let floor = minimumBytes(width: rawWidth, height: rawHeight),
      dataOffset + floor > fileSize
    {
      return
        "its raw data from byte \(dataOffset) has \(fileSize - dataOffset) bytes before the end of "
        + "the file, too few for \(need(width: rawWidth, height: rawHeight, bytes: floor)) (it is "
        + "cut short)"
    }
    return nil
  }
}

extension RawDataLayout {
  /// The layout of the file `raw` opened, with the tags `tags` kept while it did.
  init?(_ raw: UnsafeMutableRawPointer, tags: OpaquePointer?, decoder: String) {
    var layout = fd_raw_layout()
    guard fd_raw_read_layout(raw, tags, &layout) == 0 else { return nil }
    fileSize = Int(layout.file_size)
    dataOffset = Int(layout.data_offset)
    self.decoder = decoder
    rawWidth = Int(layout.raw_width)
    rawHeight = Int(layout.raw_height)
    bits = Int(layout.bits)
    samples = Int(layout.samples)
    tiled = layout.tiled != 0
    directorySize = layout.directory >= 0 ? (Int(layout.width), Int(layout.height)) : nil
    tileSize =
      layout.tile_width > 0 && layout.tile_length > 0
      ? (Int(layout.tile_width), Int(layout.tile_length)) : nil
    let count = Int(layout.pieces)
    var offsets = [Int64](repeating: 0, count: count)
    var counts = [Int64](repeating: 0, count: count)
    var starts = [Int32](repeating: 0, count: count)
    let read =
      count == 0
      ? 0 : Int(fd_raw_read_pieces(raw, tags, &offsets, &counts, &starts, Int32(count)))
    pieces = (0..<read).map {
      Piece(
        offset: Int(offsets[$0]), count: counts[$0] < 0 ? nil : Int(counts[$0]),
        start: starts[$0] < 0 ? nil : UInt16(starts[$0]))
    }
  }
}
