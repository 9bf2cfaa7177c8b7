import CHeif
import Foundation

/// A HEIC (or other HEIF) file opened by libheif, for what libvips 8.14's reader does not show (its
/// XMP), and for its picture decoded by libheif alone (``decodePrimary(strict:)``).
public final class HEIFFile {
  /// The libheif context this object owns.
  private let context: OpaquePointer
  /// The file's primary image.
  let primary: OpaquePointer
  /// The file's name in messages.
  let name: String
  /// The file's bytes, when libheif reads them from memory (freed after the context).
  private let memory: UnsafeMutableRawBufferPointer?

  /// Opens the HEIF file at `path`, reading its boxes (not decoding its coded pictures).
  public convenience init(path: String) throws {
    try self.init(name: path) { context in
      heif_context_read_from_file(context, path, nil)
    }
  }

  /// Opens a HEIF file held in memory (`name` names it in errors), from a copy of `bytes`.
  public convenience init(bytes: Data, name: String) throws {
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
    copy.copyBytes(from: bytes)
    do {
      try self.init(name: name, keeping: copy) { context in
        heif_context_read_from_memory_without_copy(context, copy.baseAddress, bytes.count, nil)
      }
    } catch {
      copy.deallocate()
      throw error
    }
  }

  private init(
    name: String, keeping memory: UnsafeMutableRawBufferPointer? = nil,
    read: (OpaquePointer) -> heif_error
  ) throws {
    guard let context = heif_context_alloc() else { throw HEIFError("libheif is out of memory") }
    do {
      try HEIFError.check(read(context), "\(name): cannot read as HEIF")
      var handle: OpaquePointer?
      try HEIFError.check(
        heif_context_get_primary_image_handle(context, &handle),
        "\(name): the HEIF file has no primary image")
      guard let handle else { throw HEIFError("\(name): the HEIF file has no primary image") }
      self.context = context
      primary = handle
      self.name = name
      self.memory = memory
    } catch {
      heif_context_free(context)
      throw error
    }
  }

  deinit {
    heif_image_handle_release(primary)
    heif_context_free(context)
    memory?.deallocate()
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
