import Foundation
import TestSupport
import Testing

@testable import FrameDial

/// ``ISOGainMapMetadata``: the fields of ISO 21496-1's version-0 metadata, laid out byte by byte by
/// ``ISOGainMapPhotos/metadata(base:alternate:channels:baseColourSpace:writerVersion:)``, and what is
/// refused.
@Suite struct ISOGainMapMetadataTests {
  @Test func oneChannelReadsItsHeadroomsGainsGammaAndOffsets() throws {
    let bytes = ISOGainMapPhotos.metadata(
      alternate: (13, 10),
      channels: [.init(minimum: (-1, 4), maximum: (13, 10), gamma: (3, 2), baseOffset: (1, 64))])
    let metadata = try ISOGainMapMetadata(bytes: bytes)
    #expect(metadata.baseHeadroom == 0 && metadata.alternateHeadroom == 1.3)
    #expect(metadata.hdrHeadroomStops == 1.3)
    #expect(metadata.usesBaseColourSpace)
    #expect(metadata.channels.count == 1)
    let channel = try #require(metadata.channels.first)
    #expect(channel.minimum == -0.25 && channel.maximum == 1.3 && channel.gamma == 1.5)
    #expect(channel.baseOffset == 1.0 / 64 && channel.alternateOffset == 1.0 / 64)
  }

  /// Three channels, each its own; an HDR base (its headroom the larger) in the alternate's space.
  @Test func threeChannelsEachKeepTheirOwnValues() throws {
    let channels = (1...3).map { c in
      ISOGainMapPhotos.Channel(minimum: (Int32(-c), 8), maximum: (Int32(c), 1))
    }
    let metadata = try ISOGainMapMetadata(
      bytes: ISOGainMapPhotos.metadata(
        base: (5, 2), alternate: (0, 1), channels: channels, baseColourSpace: false))
    #expect(!metadata.usesBaseColourSpace)
    #expect(metadata.hdrHeadroomStops == 2.5)
    #expect(metadata.channels.map(\.minimum) == [-0.125, -0.25, -0.375])
    #expect(metadata.channels.map(\.maximum) == [1, 2, 3])
  }

  @Test func whatIsNotVersionZeroMetadataIsRefusedWithItsReason() throws {
    let good = ISOGainMapPhotos.metadata(
      alternate: (2, 1), channels: [.init(minimum: (0, 1), maximum: (2, 1))])
    func refusal(_ bytes: Data) -> String? {
      do {
        _ = try ISOGainMapMetadata(bytes: bytes)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(refusal(good) == nil)
    var version = good
    version[0] = 1
    #expect(refusal(version) == "version 1 is not 0")
    var minimum = good
    minimum[2] = 1
    #expect(refusal(minimum) == "it needs a reader of version 1")
    #expect(refusal(good.prefix(good.count - 3))?.hasPrefix("it ends after") == true)
    #expect(refusal(Data()) == "it ends after 0 bytes, inside a field")
    let zero = ISOGainMapPhotos.metadata(
      alternate: (2, 0), channels: [.init(minimum: (0, 1), maximum: (2, 1))])
    #expect(refusal(zero) == "the alternate headroom has a denominator of 0")
    #expect(refusal(good + Data([0, 0])) == "2 bytes follow the version-0 fields")
    let inverted = ISOGainMapPhotos.metadata(
      alternate: (2, 1), channels: [.init(minimum: (1, 1), maximum: (1, 2))])
    #expect(refusal(inverted) == "the greatest gain, 0.5, is below the least, 1.0")
    let flat = ISOGainMapPhotos.metadata(
      alternate: (2, 1), channels: [.init(minimum: (0, 1), maximum: (2, 1), gamma: (0, 1))])
    #expect(refusal(flat) == "the gamma is 0")
    // A later writer's extra fields are passed over by a version-0 reader.
    let later = ISOGainMapPhotos.metadata(
      alternate: (2, 1), channels: [.init(minimum: (0, 1), maximum: (2, 1))], writerVersion: 1)
    #expect(try ISOGainMapMetadata(bytes: later + Data([7, 7])).alternateHeadroom == 2)
  }
}
