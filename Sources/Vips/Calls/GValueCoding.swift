import CVips
import Foundation

/// Conversion between ``Argument`` values and GLib's `GValue`, driven by the type libvips declares.
enum GValueCoding {
  /// Stores `argument` in `value` (already initialised to `type`); `mismatch` makes the error for a value
  /// of the wrong kind from a description of what was expected.
  static func store(
    _ argument: Argument, in value: inout GValue, type: GType, mismatch: (String) -> VipsError
  ) throws {
    let fundamental = fd_type_fundamental(type)
    switch type {
    case fd_type_int():
      guard let number = integer(argument) else { throw mismatch("an integer") }
      guard let narrow = Int32(exactly: number) else { throw mismatch("an integer in 32 bits") }
      g_value_set_int(&value, narrow)
    case fd_type_uint64():
      guard let number = integer(argument), number >= 0 else {
        throw mismatch("a non-negative integer")
      }
      g_value_set_uint64(&value, guint64(number))
    case fd_type_double():
      guard let number = double(argument) else { throw mismatch("a number") }
      g_value_set_double(&value, number)
    case fd_type_boolean():
      guard case .bool(let flag) = argument else { throw mismatch("a boolean") }
      g_value_set_boolean(&value, flag ? 1 : 0)
    case fd_type_string():
      guard case .string(let text) = argument else { throw mismatch("a string") }
      g_value_set_string(&value, text)
    case fd_type_image():
      guard case .image(let image) = argument else { throw mismatch("an image") }
      g_value_set_object(&value, image.pointer)
    case fd_type_array_double():
      let numbers: [Double]
      switch argument {
      case .doubles(let list): numbers = list
      case .ints(let list): numbers = list.map(Double.init)
      default:
        guard let number = double(argument) else { throw mismatch("an array of doubles") }
        numbers = [number]
      }
      numbers.withUnsafeBufferPointer {
        vips_value_set_array_double(&value, $0.baseAddress, Int32($0.count))
      }
    case fd_type_array_int():
      let numbers: [Int32]
      switch argument {
      case .ints(let list): numbers = list.map { Int32(clamping: $0) }
      default:
        guard let number = integer(argument) else { throw mismatch("an array of integers") }
        numbers = [Int32(clamping: number)]
      }
      numbers.withUnsafeBufferPointer {
        vips_value_set_array_int(&value, $0.baseAddress, Int32($0.count))
      }
    case fd_type_array_image():
      let images: [Image]
      switch argument {
      case .images(let list): images = list
      case .image(let single): images = [single]
      default: throw mismatch("an array of images")
      }
      vips_value_set_array_image(&value, Int32(images.count))
      if let slots = vips_value_get_array_image(&value, nil) {
        for (index, image) in images.enumerated() {
          g_object_ref(image.pointer)
          slots[index] = image.pointer
        }
      }
    case fd_type_blob():
      guard case .blob(let bytes) = argument else { throw mismatch("a blob") }
      // libvips keeps the bytes for as long as any image made from them lives: it owns this copy.
      guard let copy = g_malloc(gsize(max(bytes.count, 1))) else {
        throw mismatch("a blob it can allocate")
      }
      bytes.withUnsafeBytes { source in
        if let base = source.baseAddress { memcpy(copy, base, source.count) }
      }
      vips_value_set_blob_free(&value, copy, bytes.count)
    case fd_type_interpolate():
      guard case .string(let nickname) = argument else {
        throw mismatch("an interpolator by name (nearest, bilinear, bicubic, lbb, nohalo, vsqbs)")
      }
      guard let interpolator = vips_interpolate_new(nickname) else {
        _ = VipsError.takeLibvipsMessage()
        throw mismatch(
          "an interpolator by name (nearest, bilinear, bicubic, lbb, nohalo, vsqbs), not '\(nickname)'"
        )
      }
      g_value_set_object(&value, interpolator)
      g_object_unref(interpolator)
    default:
      if fundamental == fd_type_enum() {
        try storeNamed(argument, in: &value, type: type, flags: false, mismatch: mismatch)
      } else if fundamental == fd_type_flags() {
        try storeNamed(argument, in: &value, type: type, flags: true, mismatch: mismatch)
      } else {
        let typeName = g_type_name(type).map { String(cString: $0) } ?? "an unknown type"
        throw mismatch("a value of type \(typeName), which FrameDial cannot pass")
      }
    }
  }

  /// Stores an enum (or, with `flags`, a flags) `argument` given as a number or a nickname.
  private static func storeNamed(
    _ argument: Argument, in value: inout GValue, type: GType, flags: Bool,
    mismatch: (String) -> VipsError
  ) throws {
    func allowed() -> String {
      flags
        ? "flags by number or nickname" : "one of \(enumNicknames(type).joined(separator: ", "))"
    }
    let number: Int
    switch argument {
    case .int(let given):
      number = given
    case .string(let nickname):
      let found =
        flags
        ? vips_flags_from_nick("framedial", type, nickname)
        : vips_enum_from_nick("framedial", type, nickname)
      guard found >= 0 else {
        _ = VipsError.takeLibvipsMessage()
        throw mismatch("\(flags ? "flags by nickname" : allowed()), not '\(nickname)'")
      }
      number = Int(found)
    default:
      throw mismatch(allowed())
    }
    if flags {
      g_value_set_flags(&value, UInt32(truncatingIfNeeded: number))
    } else {
      g_value_set_enum(&value, Int32(clamping: number))
    }
  }

  /// The nicknames of an enum type, for error messages.
  static func enumNicknames(_ type: GType) -> [String] {
    guard let raw = g_type_class_ref(type) else { return [] }
    defer { g_type_class_unref(raw) }
    let enumClass = raw.assumingMemoryBound(to: GEnumClass.self)
    var names: [String] = []
    for index in 0..<Int(enumClass.pointee.n_values) {
      if let nick = enumClass.pointee.values[index].value_nick {
        let name = String(cString: nick)
        if name != "last" { names.append(name) }
      }
    }
    return names
  }

  /// Reads `value` of `type` as an ``Argument``; `nil` for types FrameDial does not read.
  static func load(_ value: inout GValue, type: GType) -> Argument? {
    let fundamental = fd_type_fundamental(type)
    switch type {
    case fd_type_int(): return .int(Int(g_value_get_int(&value)))
    case fd_type_uint64(): return .int(Int(clamping: g_value_get_uint64(&value)))
    case fd_type_double(): return .double(g_value_get_double(&value))
    case fd_type_boolean(): return .bool(g_value_get_boolean(&value) != 0)
    case fd_type_string(): return g_value_get_string(&value).map { .string(String(cString: $0)) }
    case fd_type_image():
      guard let object = g_value_get_object(&value) else { return nil }
      let image = fd_image_from_gobject(object.assumingMemoryBound(to: GObject.self))
      g_object_ref(image)
      return image.map { .image(Image(owning: $0)) }
    case fd_type_array_double():
      var count: Int32 = 0
      guard let numbers = vips_value_get_array_double(&value, &count) else { return .doubles([]) }
      return .doubles(Array(UnsafeBufferPointer(start: numbers, count: Int(count))))
    case fd_type_array_int():
      var count: Int32 = 0
      guard let numbers = vips_value_get_array_int(&value, &count) else { return .ints([]) }
      return .ints(UnsafeBufferPointer(start: numbers, count: Int(count)).map { Int($0) })
    case fd_type_blob():
      var length = 0
      guard let bytes = vips_value_get_blob(&value, &length) else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: length))
    default:
      if fundamental == fd_type_enum() { return .int(Int(g_value_get_enum(&value))) }
      if fundamental == fd_type_flags() { return .int(Int(g_value_get_flags(&value))) }
      return nil
    }
  }

  private static func integer(_ argument: Argument) -> Int? {
    switch argument {
    case .int(let number): return number
    case .double(let number): return number.rounded() == number ? Int(exactly: number) : nil
    default: return nil
    }
  }

  private static func double(_ argument: Argument) -> Double? {
    switch argument {
    case .int(let number): return Double(number)
    case .double(let number): return number
    default: return nil
    }
  }
}
