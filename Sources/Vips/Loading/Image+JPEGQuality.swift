import JPEG

extension Image {
  /// The metadata field in which a loaded JPEG carries the quality estimated from its header (see
  /// ``jpegQuality``). libvips's savers write only the fields they know, so it never reaches a file.
  public static let jpegQualityField = "framedial-jpeg-quality"
  /// libvips's metadata field for a loaded JPEG's chroma subsampling ("4:4:4", "4:2:0", …).
  public static let jpegChromaSubsampleField = "jpeg-chroma-subsample"

  /// The quality (1 … 100) the JPEG this image was read from was most likely saved with, estimated from
  /// its quantisation tables (`JPEG`'s `JPEGQuality`); nil when the image was not read from a JPEG or its
  /// header could not be read. Carried through every operation, like the rest of the metadata.
  public var jpegQuality: Int? { try? int(Image.jpegQualityField) }

  /// The chroma subsampling of the JPEG this image was read from, as libvips names it ("4:4:4",
  /// "4:2:0", …); nil when it was not read from a colour JPEG.
  public var jpegChromaSubsampling: String? { try? string(Image.jpegChromaSubsampleField) }

  /// A copy carrying `header`'s estimated quality in ``jpegQualityField`` (this image itself when there
  /// is no header).
  func noting(_ header: JPEG.JPEGHeader?) throws -> Image {
    guard let header else { return self }
    return try editingMetadata { $0.setInt(Image.jpegQualityField, header.estimatedQuality) }
  }
}
