import Testing

@testable import Raw

/// The checks of a raw's data against its file, on the layouts LibRaw 0.20.2 finds in real raws (the
/// numbers as LibRaw reads them from ExifTool's cut-down test raws and from two intact ones), so that
/// each kind of damage, and each intact shape, is checked without the files.
@Suite struct RawDataLayoutTests {
  typealias Piece = RawDataLayout.Piece

  @Test func aCutDownDNGsLosslessTileOf22BytesIsTooSmallForItsPicture() {
    let layout = RawDataLayout(
      fileSize: 13662, dataOffset: 12494, decoder: "lossless_dng_load_raw()", rawWidth: 3516,
      rawHeight: 2328, bits: 16, samples: 1, directorySize: (3516, 2328),
      tileSize: (3516, 2328), pieces: [Piece(offset: 12494, count: 22, start: 0x3C44)])
    #expect(
      layout.problem
        == "its raw tile 1 of 1 holds 22 bytes, too few for 3516×2328 pixels in a lossless coding "
        + "(at least 1 bit a sample: 1023156 bytes)")
    // Of the right size, it still must start a JPEG stream: LibRaw would leave it black.
    var sized = layout
    sized.fileSize = 2_000_000
    sized.pieces[0].count = 1_500_000
    #expect(sized.problem == "its raw tile 1 of 1 does not start a lossless JPEG stream")
    sized.pieces[0].start = 0xFFD8
    #expect(sized.problem == nil)
  }

  @Test func aCutDownRW2sDataRunsPastTheEndOfTheFile() {
    // A Panasonic directory's strip tables are not read (0xFFFFFFFF offsets and unpacked or zero
    // byte counts in intact files): its data, from where LibRaw starts, is held to the picture.
    let layout = RawDataLayout(
      fileSize: 12344, dataOffset: 12322, decoder: "panasonic_load_raw()", rawWidth: 3724,
      rawHeight: 2754, bits: 12, samples: 0, directorySize: (3724, 2754))
    #expect(
      layout.problem
        == "its raw data from byte 12322 has 22 bytes before the end of the file, too few for "
        + "3724×2754 pixels in a lossless coding (at least 1 bit a sample: 1281987 bytes) (it is "
        + "cut short)")
    // Intact, 14 pixels in each 16 bytes.
    var intact = layout
    intact.fileSize = 12322 + (3724 * 2754 + 13) / 14 * 16
    #expect(intact.problem == nil)
  }

  @Test func aCutDownNEFsStripOf18BytesIsTooSmallForItsPicture() {
    let layout = RawDataLayout(
      fileSize: 6188, dataOffset: 1376, decoder: "nikon_load_raw()", rawWidth: 3040,
      rawHeight: 2014, bits: 12, samples: 1, directorySize: (3040, 2014),
      pieces: [Piece(offset: 1376, count: 18)])
    #expect(
      layout.problem
        == "its raw strip holds 18 bytes, too few for 3040×2014 pixels in a lossless coding (at "
        + "least 1 bit a sample: 765320 bytes)")
  }

  @Test func aCutDownRAFsDataFoundByFujifilmsOwnRuleIsCutShort() {
    let layout = RawDataLayout(
      fileSize: 38452, dataOffset: 38408, decoder: "unpacked_load_raw()", rawWidth: 4352,
      rawHeight: 1444, bits: 12, samples: 0)
    #expect(
      layout.problem
        == "its raw data from byte 38408 has 44 bytes before the end of the file, too few for "
        + "4352×1444 pixels of 16-bit uncompressed samples (12568576 bytes) (it is cut short)")
  }

  @Test func dataStartingPastTheEndOfTheFileIsDamagedWhateverItsDecoder() {
    let layout = RawDataLayout(
      fileSize: 5000, dataOffset: 9000, decoder: "kodak_radc_load_raw()", rawWidth: 768,
      rawHeight: 512, bits: 8, samples: 1)
    #expect(
      layout.problem == "its raw data starts at byte 9000, past the end of the 5000-byte file")
  }

  @Test func aTileTableShortOfThePicturesTilesIsDamaged() {
    let layout = RawDataLayout(
      fileSize: 1_000_000, dataOffset: 500, decoder: "lossless_dng_load_raw()", rawWidth: 512,
      rawHeight: 480, bits: 16, samples: 1, tiled: true, directorySize: (512, 480),
      tileSize: (256, 240),
      pieces: (0..<3).map { Piece(offset: 1000 + $0 * 20000, count: 20000, start: 0xFFD8) })
    #expect(
      layout.problem
        == "its tile table lists 3 tiles where its 512×480 picture in 256×240 tiles has 4")
  }

  @Test func intactRawsShapesPass() {
    // Nikon D1: 67 strips of 20 packed 12-bit rows, the last of 4.
    let d1 = RawDataLayout(
      fileSize: 4_055_474, dataOffset: 59642, decoder: "packed_load_raw()", rawWidth: 2012,
      rawHeight: 1324, bits: 12, samples: 1, directorySize: (2012, 1324),
      pieces: (0..<67).map { Piece(offset: 59642 + $0 * 60360, count: $0 < 66 ? 60360 : 12072) })
    #expect(d1.problem == nil)
    // Kodak DC50: a coding with no floor, its directory smaller than the raw data decoded.
    let kodak = RawDataLayout(
      fileSize: 92675, dataOffset: 19712, decoder: "kodak_radc_load_raw()", rawWidth: 768,
      rawHeight: 512, bits: 8, samples: 1, directorySize: (756, 504),
      pieces: [Piece(offset: 19712, count: 72963)])
    #expect(kodak.problem == nil)
    // A 14-bit uncompressed raw in 16-bit words, exactly as large as its picture.
    let unpacked = RawDataLayout(
      fileSize: 6000 * 4000 * 2 + 4096, dataOffset: 4096, decoder: "unpacked_load_raw()",
      rawWidth: 6000, rawHeight: 4000, bits: 14, samples: 1, directorySize: (6000, 4000),
      pieces: [Piece(offset: 4096, count: 6000 * 4000 * 2)])
    #expect(unpacked.problem == nil)
    // A maker's rule decodes more than the directory says: its strips are not held to it.
    let wider = RawDataLayout(
      fileSize: 3_000_000, dataOffset: 8, decoder: "packed_load_raw()", rawWidth: 4000,
      rawHeight: 3000, bits: 12, samples: 1, directorySize: (2000, 3000),
      pieces: [Piece(offset: 8, count: 1_000_000)])
    #expect(wider.problem == nil)
  }

  @Test func anUncompressedDNGIsHeldToItsExactSizeRowByRow() {
    // 12-bit samples, each row starting on a byte: 101 pixels take 152 bytes a row.
    var layout = RawDataLayout(
      fileSize: 100_000, dataOffset: 1000, decoder: "packed_dng_load_raw()", rawWidth: 101,
      rawHeight: 10, bits: 12, samples: 1, directorySize: (101, 10),
      pieces: [Piece(offset: 1000, count: 1520)])
    #expect(layout.problem == nil)
    layout.pieces[0].count = 1519
    #expect(
      layout.problem
        == "its raw strip holds 1519 bytes, too few for 101×10 pixels of 12-bit uncompressed "
        + "samples (1520 bytes)")
    layout.tiled = true
    #expect(layout.unsupported == "tiled uncompressed raw data")
  }
}
