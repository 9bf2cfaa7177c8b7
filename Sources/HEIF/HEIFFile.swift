import CHeif
import Foundation

/// A HEIC (or other HEIF) file opened by libheif, for what libvips 8.14's reader does not show (its
/// XMP), and for its picture decoded by libheif alone (``decodePrimary(strict:)``).
public final class HEIFFile {
  /// The libheif context this object owns.
  let context: OpaquePointer
  /// The file's primary image.
  let primary: OpaquePointer
  /// The file's name in messages.
  let name: String
  /// The file's bytes, when libheif reads them from memory (freed after the context).
  private let memory: UnsafeMutableRawBufferPointer?
  /// The compatible brands of the file's `ftyp` box (``HEIFBrands``).
  let brands: [String]

  /// Opens the HEIF file at `path`, reading its boxes (not decoding its coded pictures).
  public convenience init(path: String) throws {
    let header = FileHandle(forReadingAtPath: path).map { file in
      defer { try? file.close() }
      return [UInt8]((try? file.read(upToCount: Self.headerBytes)) ?? Data())
    }
    try self.init(name: path, header: header ?? []) { context in
      heif_context_read_from_file(context, path, nil)
    }
  }

  /// Opens a HEIF file held in memory (`name` names it in errors), from a copy of `bytes`.
  public convenience init(bytes: Data, name: String) throws {
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, bytes.count), alignment: 16)
    copy.copyBytes(from: bytes)
    do {
      try self.init(name: name, header: [UInt8](bytes.prefix(Self.headerBytes)), keeping: copy) {
        context in
        heif_context_read_from_memory_without_copy(context, copy.baseAddress, bytes.count, nil)
      }
    } catch {
      copy.deallocate()
      throw error
    }
  }

  /// The bytes a file's `ftyp` box is looked for in: it comes first, and lists a few brands.
  private static let headerBytes = 4096

  private init(
    name: String, header: [UInt8], keeping memory: UnsafeMutableRawBufferPointer? = nil,
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
      brands = HEIFBrands.compatible(inHeader: header)
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
    try Self.metadata(
      of: primary, type: "mime", contentType: "application/rdf+xml", what: "XMP data")
  }

  /// The primary image's EXIF as a TIFF structure (its metadata block of type `Exif` after the
  /// offset libheif's block starts with); nil when it has none or the offset leads outside it.
  public func exif() throws -> Data? {
    guard let block = try Self.metadata(of: primary, type: "Exif", what: "EXIF data"),
      block.count >= 4
    else { return nil }
    let offset = block.prefix(4).reduce(0) { $0 << 8 | Int($1) }
    guard offset <= block.count - 4 else { return nil }
    return Data(block.dropFirst(4 + offset))
  }

  /// The first metadata block of `handle` of `type` (and of `contentType`, when given); nil when it
  /// has none.
  static func metadata(
    of handle: OpaquePointer, type: String, contentType: String? = nil, what: String
  ) throws -> Data? {
    let count = heif_image_handle_get_number_of_metadata_blocks(handle, type)
    guard count > 0 else { return nil }
    var ids = [heif_item_id](repeating: 0, count: Int(count))
    let listed = heif_image_handle_get_list_of_metadata_block_IDs(handle, type, &ids, count)
    for id in ids.prefix(Int(max(0, listed))) {
      if let contentType {
        guard let given = heif_image_handle_get_metadata_content_type(handle, id),
          String(cString: given) == contentType
        else { continue }
      }
      let size = heif_image_handle_get_metadata_size(handle, id)
      var bytes = Data(count: size)
      try bytes.withUnsafeMutableBytes { raw in
        try HEIFError.check(
          heif_image_handle_get_metadata(handle, id, raw.baseAddress), "cannot read the \(what)")
      }
      return bytes
    }
    return nil
  }
}
