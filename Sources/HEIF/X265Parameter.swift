/// One x265 option changed from its preset, by the name `x265_param_parse` (and x265's command line,
/// without the dashes) knows it: libheif passes it on as its encoder parameter `x265:NAME`.
public struct X265Parameter: Sendable, Equatable {
  /// The option's name, e.g. `min-cu-size`.
  public var name: String
  /// Its value as x265 parses it, e.g. `8`.
  public var value: String

  /// Creates an option.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}
