import CVips
import Foundation

extension Image {
  /// True when the image has a metadata field called `name`.
  public func hasField(_ name: String) -> Bool {
    vips_image_get_typeof(pointer, name) != 0
  }

  /// The names of every metadata field.
  public var fieldNames: [String] {
    guard let fields = vips_image_get_fields(pointer) else { return [] }
    defer { g_strfreev(fields) }
    var names: [String] = []
    var index = 0
    while let field = fields[index] {
      names.append(String(cString: field))
      index += 1
    }
    return names
  }

  /// The integer metadata field `name`.
  public func int(_ name: String) throws -> Int {
    var value: Int32 = 0
    guard hasField(name), vips_image_get_int(pointer, name, &value) == 0 else {
      _ = VipsError.takeLibvipsMessage()
      throw VipsError("the image has no integer field '\(name)'")
    }
    return Int(value)
  }

  /// The string metadata field `name`.
  public func string(_ name: String) throws -> String {
    var value: UnsafePointer<CChar>?
    guard hasField(name), vips_image_get_string(pointer, name, &value) == 0, let value else {
      _ = VipsError.takeLibvipsMessage()
      throw VipsError("the image has no string field '\(name)'")
    }
    return String(cString: value)
  }

  /// The binary metadata field `name` (an ICC profile, EXIF or XMP data).
  public func blob(_ name: String) throws -> Data {
    var bytes: UnsafeRawPointer?
    var length = 0
    guard hasField(name), vips_image_get_blob(pointer, name, &bytes, &length) == 0, let bytes else {
      _ = VipsError.takeLibvipsMessage()
      throw VipsError("the image has no binary field '\(name)'")
    }
    return Data(bytes: bytes, count: length)
  }

  /// A new image that shares these pixels and whose metadata `edit` has changed.
  /// (libvips images are shared between pipelines, so metadata is never edited in place.)
  public func editingMetadata(_ edit: (MetadataEditor) -> Void) throws -> Image {
    let copy = try Operation.call("copy", ["in": .image(self)]).image()
    edit(MetadataEditor(pointer: copy.pointer))
    return copy
  }

  /// A copy with EXIF orientation `value`.
  public func settingOrientation(_ value: Int) throws -> Image {
    try editingMetadata { $0.setInt("orientation", value) }
  }

  /// A copy without the metadata fields `names`.
  public func removingFields(_ names: [String]) throws -> Image {
    try editingMetadata { editor in
      for name in names { editor.remove(name) }
    }
  }
}

/// Changes the metadata of an image that nothing else shares yet (see ``Image/editingMetadata(_:)``).
public struct MetadataEditor {
  let pointer: UnsafeMutablePointer<VipsImage>

  /// Sets the integer field `name`.
  public func setInt(_ name: String, _ value: Int) {
    vips_image_set_int(pointer, name, Int32(clamping: value))
  }

  /// Sets the string field `name`.
  public func setString(_ name: String, _ value: String) {
    vips_image_set_string(pointer, name, value)
  }

  /// Sets the binary field `name` to a copy of `bytes`.
  public func setBlob(_ name: String, _ bytes: Data) {
    bytes.withUnsafeBytes { raw in
      vips_image_set_blob_copy(pointer, name, raw.baseAddress, raw.count)
    }
  }

  /// Removes the field `name`, if present.
  public func remove(_ name: String) {
    _ = vips_image_remove(pointer, name)
  }
}

extension Vips {
  /// The bytes of one of libvips's built-in ICC profiles ("srgb", "p3", "cmyk"), as it attaches them
  /// when it converts to that profile.
  public static func builtinICCProfile(_ name: String) throws -> Data {
    let pixel = try Image.fromPixels([128, 128, 128], width: 1, height: 1, bands: 3)
    let converted = try Operation.call(
      "icc_transform",
      [
        "in": .image(pixel), "input-profile": "srgb", "output-profile": .string(name),
        "embedded": false,
      ]
    ).image()
    return try converted.blob(Image.iccProfileField)
  }
}
