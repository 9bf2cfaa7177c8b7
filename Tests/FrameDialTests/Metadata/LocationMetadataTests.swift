import Foundation
import Testing

@testable import FrameDial

/// The editors behind `--strip-location` and the dropped thumbnail, on blocks built byte by byte:
/// the forms exiftool does not write in the command tests (big-endian EXIF, XMP attributes and other
/// prefixes, IPTC next to other Photoshop resources).
@Suite struct LocationMetadataTests {
  /// A big-endian EXIF block: IFD0 with Make (a 6-byte value stored outside the entry) and the GPS
  /// pointer, a GPS IFD with a latitude (three rationals), IFD1 with a 4-byte thumbnail.
  static func exif() -> [UInt8] {
    func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    func u32(_ value: Int) -> [UInt8] { u16(value >> 16) + u16(value & 0xFFFF) }
    func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) -> [UInt8] {
      u16(tag) + u16(type) + u32(count) + u32(value)
    }
    // Offsets from the TIFF header: IFD0 at 8 (2 entries: 2 + 24 + 4 = 30 bytes), Make's text at 38,
    // the GPS IFD at 44 (1 entry: 18 bytes), its rationals at 62 (24 bytes), IFD1 at 86 (2 entries:
    // 30 bytes), the thumbnail at 116.
    var bytes = Array("MM".utf8) + u16(42) + u32(8)
    bytes += u16(2) + entry(0x010F, 2, 6, 38) + entry(0x8825, 4, 1, 44) + u32(86)
    bytes += Array("Canon\0".utf8)
    bytes += u16(1) + entry(0x0002, 5, 3, 62) + u32(0)
    bytes += [48, 1, 51, 1, 7, 1].flatMap { u32($0) }
    bytes += u16(2) + entry(0x0201, 4, 1, 116) + entry(0x0202, 4, 1, 4) + u32(0)
    bytes += [0xFF, 0xD8, 0xFF, 0xD9]
    return Array("Exif\0\0".utf8) + bytes
  }

  @Test func gpsAndThumbnailAreUnlinkedAndZeroedAndTheRestKeepsItsPlace() throws {
    let original = Self.exif()
    var block = try #require(ExifBlock(Data(original)))
    block.removeGPS()
    block.removeThumbnail()
    let edited = [UInt8](block.data)
    #expect(edited.count == original.count)
    let base = 6
    // IFD0 now holds Make alone, its value still at 38, and links to no IFD1.
    #expect(edited[(base + 8)..<(base + 10)].elementsEqual([0, 1]))
    #expect(edited[(base + 10)..<(base + 22)].elementsEqual(original[(base + 10)..<(base + 22)]))
    #expect(edited[(base + 22)..<(base + 26)].elementsEqual([0, 0, 0, 0]))
    #expect(String(decoding: edited[(base + 38)..<(base + 43)], as: UTF8.self) == "Canon")
    // The GPS IFD, its rationals, IFD1 and the thumbnail are zeros.
    #expect(edited[(base + 44)...].allSatisfy { $0 == 0 })
  }

  @Test func aBlockWithoutGPSOrThumbnailIsUnchangedAndJunkIsRefused() throws {
    var block = try #require(ExifBlock(Data(Self.exif())))
    block.removeGPS()
    let once = block.data
    block.removeGPS()
    #expect(block.data == once)
    #expect(ExifBlock(Data("not exif".utf8)) == nil)
    var short = try #require(ExifBlock(Data(Self.exif().prefix(20))))
    short.removeGPS()
    short.removeThumbnail()
    #expect(short.data == Data(Self.exif().prefix(20)))
  }

  @Test func xmpLocationGoesWhateverItsPrefixOrForm() {
    let xmp = """
      <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description rdf:about="" xmlns:e="http://ns.adobe.com/exif/1.0/"
        xmlns:ps="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
        xmlns:ext="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"
        e:GPSLatitude="48,51.4N" e:GPSLongitude='2,21.1E' ps:City="Lutetia" ps:Headline="Launch"
        e:ExposureTime="1/250">
      <ps:Country>Gallia</ps:Country>
      <ext:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource"><ext:City>Lutetia</ext:City></rdf:li></rdf:Bag></ext:LocationShown>
      <e:GPSAltitude/>
      <dc:creator><rdf:Seq><rdf:li>Ann Example</rdf:li></rdf:Seq></dc:creator>
      </rdf:Description></rdf:RDF></x:xmpmeta>
      """
    let kept = String(decoding: XMPLocation.removingLocation(from: Data(xmp.utf8)), as: UTF8.self)
    for gone in ["GPS", "Lutetia", "Gallia", "LocationShown"] {
      #expect(!kept.contains(gone), "\(gone) left in \(kept)")
    }
    for stays in [
      "ps:Headline=\"Launch\"", "e:ExposureTime=\"1/250\"", "<rdf:li>Ann Example</rdf:li>",
    ] {
      #expect(kept.contains(stays), "\(stays) missing from \(kept)")
    }
  }

  @Test func iptcLocationDatasetsGoAndOtherResourcesStay() throws {
    func dataset(_ number: UInt8, _ text: String) -> [UInt8] {
      [0x1C, 2, number, 0, UInt8(text.utf8.count)] + Array(text.utf8)
    }
    func resource(_ id: UInt16, _ data: [UInt8]) -> [UInt8] {
      var bytes = Array("8BIM".utf8) + [UInt8(id >> 8), UInt8(id & 0xFF), 0, 0]
      bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: data.count >> $0) } + data
      return data.count % 2 == 1 ? bytes + [0] : bytes
    }
    let records =
      dataset(80, "Ann Example") + dataset(90, "Lutetia") + dataset(25, "rocket")
      + dataset(101, "Gallia") + dataset(92, "Courtyard")
    let other = resource(0x03ED, [0, 72, 0, 0])
    let block = Array("Photoshop 3.0\0".utf8) + other + resource(0x0404, records)
    let edited = try #require(IPTCLocation.removingLocation(from: Data(block)))
    let expected =
      Array("Photoshop 3.0\0".utf8) + other
      + resource(0x0404, dataset(80, "Ann Example") + dataset(25, "rocket"))
    #expect([UInt8](edited) == expected)
    #expect(IPTCLocation.removingLocation(from: Data(block.prefix(block.count - 3))) == nil)
  }
}
