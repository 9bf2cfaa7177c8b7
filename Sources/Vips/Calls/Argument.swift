import Foundation

/// A value passed to or returned from a libvips operation.
///
/// The generic call converts each value to the type the operation declares for that argument (read through
/// libvips's introspection): an `.int` is accepted where a double or an array is expected, a `.double` where
/// an array of doubles is, a `.string` names an enum or flags value by its nickname ("lanczos3", "sequential").
public enum Argument: Sendable {
  /// An integer (also an enum or flags value by number).
  case int(Int)
  /// A double.
  case double(Double)
  /// A boolean.
  case bool(Bool)
  /// A string, or an enum / flags nickname.
  case string(String)
  /// An image.
  case image(Image)
  /// An array of images.
  case images([Image])
  /// An array of doubles.
  case doubles([Double])
  /// An array of integers.
  case ints([Int])
  /// Bytes (a libvips blob).
  case blob(Data)

  /// A short name of the value's kind, for error messages.
  var kindName: String {
    switch self {
    case .int: "an integer"
    case .double: "a double"
    case .bool: "a boolean"
    case .string: "a string"
    case .image: "an image"
    case .images: "an array of images"
    case .doubles: "an array of doubles"
    case .ints: "an array of integers"
    case .blob: "a blob"
    }
  }
}

extension Argument: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral,
  ExpressibleByStringLiteral
{
  /// An `.int` from an integer literal.
  public init(integerLiteral value: Int) { self = .int(value) }
  /// A `.double` from a float literal.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A `.bool` from a boolean literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// A `.string` from a string literal.
  public init(stringLiteral value: String) { self = .string(value) }
}

/// The outputs of one libvips operation, by argument name.
public struct OperationResult: Sendable {
  /// The operation's nickname.
  public let operation: String
  /// Every output the operation set.
  public let values: [String: Argument]

  /// The image output `name` (most operations call their result "out").
  public func image(_ name: String = "out") throws -> Image {
    guard case .image(let image)? = values[name] else { throw missing(name, "an image") }
    return image
  }

  /// The numeric output `name` as a double.
  public func double(_ name: String = "out") throws -> Double {
    switch values[name] {
    case .double(let value)?: return value
    case .int(let value)?: return Double(value)
    default: throw missing(name, "a number")
    }
  }

  /// The integer output `name`.
  public func int(_ name: String) throws -> Int {
    guard case .int(let value)? = values[name] else { throw missing(name, "an integer") }
    return value
  }

  /// The array-of-doubles output `name`.
  public func doubles(_ name: String) throws -> [Double] {
    guard case .doubles(let value)? = values[name] else {
      throw missing(name, "an array of doubles")
    }
    return value
  }

  /// The blob output `name`.
  public func blob(_ name: String = "buffer") throws -> Data {
    guard case .blob(let value)? = values[name] else { throw missing(name, "a blob") }
    return value
  }

  private func missing(_ name: String, _ kind: String) -> VipsError {
    VipsError("libvips operation \(operation) gave no output '\(name)' that is \(kind)")
  }
}
