import Foundation

extension ControlState: CustomStringConvertible {
  /// The state in the `--set` vocabulary, only the keys that differ from the identity, e.g.
  /// `exposure-bias=0.5 white-balance=tungsten contrast=1.2`; the identity prints as `identity`.
  public var description: String {
    let identity = ControlState.identity
    var parts: [String] = []
    func add(_ key: ControlKey, _ value: String) { parts.append("\(key.cliName)=\(value)") }
    if exposureBias != identity.exposureBias {
      add(.exposureBias, NumberText.shortest(exposureBias))
    }
    if zoom != identity.zoom { add(.zoom, NumberText.shortest(zoom)) }
    if zoomCenter != identity.zoomCenter { add(.zoomCenter, zoomCenter.description) }
    if contrast != identity.contrast { add(.contrast, NumberText.shortest(contrast)) }
    if saturation != identity.saturation { add(.saturation, NumberText.shortest(saturation)) }
    if whiteBalance != identity.whiteBalance { add(.whiteBalance, whiteBalance.description) }
    if tint != identity.tint { add(.tint, NumberText.shortest(tint)) }
    if filter != identity.filter { add(.filter, filter.description) }
    if grid != identity.grid { add(.grid, grid ? "on" : "off") }
    return parts.isEmpty ? "identity" : parts.joined(separator: " ")
  }
}

extension ZoomCenter: CustomStringConvertible {
  /// `x,y`, as `--set zoom-center=` takes it.
  public var description: String { "\(NumberText.shortest(x)),\(NumberText.shortest(y))" }
}

extension WhiteBalance: CustomStringConvertible {
  /// The text form (`none`, `auto`, a preset name, `4500K`), as `--set white-balance=` takes it.
  public var description: String { text }
}

extension Filter: CustomStringConvertible {
  /// The filter's name, as `--set filter=` takes it.
  public var description: String { rawValue }
}
