import CHeif
import Foundation

/// A HEIC (or other HEIF) file opened by libheif, for what libvips 8.14's reader does not show.
public final class HEIFFile {
  /// The libheif context this object owns.
  private let context: OpaquePointer
  /// The file's primary image.
  private let primary: OpaquePointer

  /// Opens the HEIF file at `path`, reading its boxes (not its coded pictures).
  public init(path: String) throws {
    guard let context = heif_context_alloc() else { throw HEIFError("libheif is out of memory") }
    do {
      try HEIFError.check(
        heif_context_read_from_file(context, path, nil), "\(path): cannot read as HEIF")
      var handle: OpaquePointer?
      try HEIFError.check(
        heif_context_get_primary_image_handle(context, &handle),
        "\(path): the HEIF file has no primary image")
      guard let handle else { throw HEIFError("\(path): the HEIF file has no primary image") }
      self.context = context
      primary = handle
    } catch {
      heif_context_free(context)
      throw error
    }
  }

  deinit {
    heif_image_handle_release(primary)
    heif_context_free(context)
  }

  /// The primary image's size in pixels, as displayed (after any rotation the file asks for).
  public var size: (width: Int, height: Int) {
    (Int(heif_image_handle_get_width(primary)), Int(heif_image_handle_get_height(primary)))
  }

  /// The primary image's XMP packet: its first metadata block of type `mime` and content type
  /// `application/rdf+xml`; nil when it has none.
  public func xmp() throws -> Data? {
    let count = heif_image_handle_get_number_of_metadata_blocks(primary, "mime")
    guard count > 0 else { return nil }
    var ids = [heif_item_id](repeating: 0, count: Int(count))
    let listed = heif_image_handle_get_list_of_metadata_block_IDs(primary, "mime", &ids, count)
    for id in ids.prefix(Int(max(0, listed))) {
      guard let type = heif_image_handle_get_metadata_content_type(primary, id),
        String(cString: type) == "application/rdf+xml"
      else { continue }
      let size = heif_image_handle_get_metadata_size(primary, id)
      var bytes = Data(count: size)
      try bytes.withUnsafeMutableBytes { raw in
        try HEIFError.check(
          heif_image_handle_get_metadata(primary, id, raw.baseAddress), "cannot read the XMP data")
      }
      return bytes
    }
    return nil
  }
}
