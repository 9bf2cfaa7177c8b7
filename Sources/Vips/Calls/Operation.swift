import CVips
import Foundation

/// The generic call of any libvips operation by name.
///
/// Argument types come from libvips's own introspection, so one tested path serves every operation:
/// unknown operations and arguments, values of the wrong type and failed builds become ``VipsError``s that
/// carry libvips's message.
public enum Operation {
  /// Runs the libvips operation `name` with `arguments` (required and optional inputs, by argument name)
  /// and returns every output it set.
  ///
  /// ```swift
  /// let brighter = try Operation.call("linear", ["in": .image(photo), "a": 1.2, "b": 0]).image()
  /// ```
  public static func call(_ name: String, _ arguments: [String: Argument]) throws -> OperationResult
  {
    try call(name, arguments, source: nil)
  }

  /// ``call(_:_:)`` with, for a loader that reads a libvips source, that source as its "source" input.
  static func call(
    _ name: String, _ arguments: [String: Argument], source: UnsafeMutablePointer<VipsSource>?
  ) throws -> OperationResult {
    try Vips.ensureStarted()
    guard let operation = newInstance(name) else {
      throw VipsError.fromLibvips("libvips has no operation named '\(name)'")
    }
    var built: UnsafeMutablePointer<VipsOperation>? = operation
    defer {
      if let built {
        vips_object_unref_outputs(fd_operation_object(built))
        g_object_unref(built)
      }
    }
    let object = fd_operation_object(operation)
    // Sorted so that a failure names the same argument every time.
    for (argumentName, value) in arguments.sorted(by: { $0.key < $1.key }) {
      try set(argumentName, to: value, on: object, operation: name)
    }
    if let source {
      var value = GValue()
      g_value_init(&value, fd_type_source())
      defer { g_value_unset(&value) }
      g_value_set_object(&value, source)
      g_object_set_property(fd_gobject(object), "source", &value)
    }
    guard vips_cache_operation_buildp(&built) == 0 else {
      throw VipsError.fromLibvips("libvips operation \(name) failed")
    }
    guard let result = built else {
      throw VipsError("libvips operation \(name) returned nothing")
    }
    return OperationResult(operation: name, values: try outputs(of: fd_operation_object(result)))
  }

  /// A new, unbuilt instance of the operation `name`, nil when libvips has none. An operation only a
  /// format module has (`heifsave`, `jxlload`, …) loads the modules first.
  private static func newInstance(_ name: String) -> UnsafeMutablePointer<VipsOperation>? {
    if FormatModules.areDeferred, vips_type_find("VipsOperation", name) == 0 {
      FormatModules.loadIfDeferred()
    }
    return vips_operation_new(name)
  }

  /// True when libvips refuses to run `operation` (an untrusted loader while those are blocked).
  /// Checked before a loader is handed a file, so a blocked loader never parses a byte of it.
  public static func isBlocked(_ operation: String) throws -> Bool {
    try Vips.ensureStarted()
    guard let instance = newInstance(operation) else {
      throw VipsError.fromLibvips("libvips has no operation named '\(operation)'")
    }
    defer { g_object_unref(instance) }
    return vips_operation_get_flags(instance).rawValue & VIPS_OPERATION_BLOCKED.rawValue != 0
  }

  /// The names of the arguments `operation` declares, with whether each is an input, an output, required.
  public static func arguments(of operation: String) throws -> [ArgumentInfo] {
    try Vips.ensureStarted()
    guard let instance = newInstance(operation) else {
      throw VipsError.fromLibvips("libvips has no operation named '\(operation)'")
    }
    defer { g_object_unref(instance) }
    return argumentList(of: fd_operation_object(instance))
  }

  /// One argument an operation declares.
  public struct ArgumentInfo: Sendable, Equatable {
    /// The argument's name.
    public let name: String
    /// True for inputs, false for outputs.
    public let isInput: Bool
    /// True when the operation cannot run without it.
    public let isRequired: Bool
  }

  private static func argumentList(of object: UnsafeMutablePointer<VipsObject>) -> [ArgumentInfo] {
    var names: UnsafeMutablePointer<UnsafePointer<CChar>?>?
    var flags: UnsafeMutablePointer<Int32>?
    var count: Int32 = 0
    guard vips_object_get_args(object, &names, &flags, &count) == 0, let names, let flags else {
      return []
    }
    var list: [ArgumentInfo] = []
    for index in 0..<Int(count) {
      guard let cName = names[index] else { continue }
      let flag = UInt32(bitPattern: flags[index])
      if flag & VIPS_ARGUMENT_DEPRECATED.rawValue != 0 { continue }
      list.append(
        ArgumentInfo(
          name: String(cString: cName),
          isInput: flag & VIPS_ARGUMENT_INPUT.rawValue != 0,
          isRequired: flag & VIPS_ARGUMENT_REQUIRED.rawValue != 0))
    }
    return list
  }

  private static func set(
    _ name: String, to argument: Argument, on object: UnsafeMutablePointer<VipsObject>,
    operation: String
  ) throws {
    var spec: UnsafeMutablePointer<GParamSpec>?
    var argumentClass: UnsafeMutablePointer<VipsArgumentClass>?
    var argumentInstance: UnsafeMutablePointer<VipsArgumentInstance>?
    guard vips_object_get_argument(object, name, &spec, &argumentClass, &argumentInstance) == 0,
      let spec, let argumentClass
    else {
      _ = VipsError.takeLibvipsMessage()
      throw VipsError("libvips operation \(operation) has no argument '\(name)'")
    }
    let flags = argumentClass.pointee.flags.rawValue
    guard flags & VIPS_ARGUMENT_INPUT.rawValue != 0 else {
      throw VipsError(
        "argument '\(name)' of libvips operation \(operation) is an output, not an input")
    }
    let type = fd_param_spec_value_type(spec)
    var value = GValue()
    g_value_init(&value, type)
    defer { g_value_unset(&value) }
    try GValueCoding.store(argument, in: &value, type: type) { expected in
      VipsError(
        "argument '\(name)' of libvips operation \(operation) expects \(expected), got \(argument.kindName)"
      )
    }
    // GObject prints a warning and ignores a value outside the argument's range; refuse it instead.
    if g_param_value_validate(spec, &value) != 0 {
      throw VipsError("argument '\(name)' of libvips operation \(operation) is out of range")
    }
    g_object_set_property(fd_gobject(object), name, &value)
  }

  private static func outputs(of object: UnsafeMutablePointer<VipsObject>) throws -> [String:
    Argument]
  {
    var values: [String: Argument] = [:]
    // "nickname" and "description" describe the operation itself; they are not results.
    for argument in argumentList(of: object)
    where !argument.isInput && argument.name != "nickname" && argument.name != "description" {
      guard vips_object_argument_isset(object, argument.name) != 0 else { continue }
      var spec: UnsafeMutablePointer<GParamSpec>?
      var argumentClass: UnsafeMutablePointer<VipsArgumentClass>?
      var argumentInstance: UnsafeMutablePointer<VipsArgumentInstance>?
      guard
        vips_object_get_argument(object, argument.name, &spec, &argumentClass, &argumentInstance)
          == 0,
        let spec
      else { continue }
      let type = fd_param_spec_value_type(spec)
      var value = GValue()
      g_value_init(&value, type)
      defer { g_value_unset(&value) }
      g_object_get_property(fd_gobject(object), argument.name, &value)
      if let decoded = GValueCoding.load(&value, type: type) {
        values[argument.name] = decoded
      }
    }
    return values
  }
}
