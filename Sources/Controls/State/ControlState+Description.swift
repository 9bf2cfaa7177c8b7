import Foundation

extension ControlState: CustomStringConvertible {
  /// The state in the `--set` vocabulary, only the keys that differ from the identity, e.g.
  /// `exposure-bias=0.5 white-balance=tungsten contrast=1.2`; the identity prints as `identity`.
  public var description: String {
    let parts = ControlKey.allCases.compactMap { key in
      differs(from: .identity, in: key) ? "\(key.cliName)=\(shortText(for: key))" : nil
    }
    return parts.isEmpty ? "identity" : parts.joined(separator: " ")
  }

  /// Whether `key` has another value in `other` (numbers compared as numbers: −0 is 0).
  func differs(from other: ControlState, in key: ControlKey) -> Bool {
    switch key.descriptor.kind {
    case .number(_, _, let value): self[keyPath: value] != other[keyPath: value]
    case .point: zoomCenter != other.zoomCenter
    case .whiteBalance: whiteBalance != other.whiteBalance
    case .filter: filter != other.filter
    case .toggle(let value): self[keyPath: value] != other[keyPath: value]
    }
  }

  /// The value of `key` as a description writes it: numbers with the fewest digits that read back.
  private func shortText(for key: ControlKey) -> String {
    switch key.descriptor.kind {
    case .number(_, _, let value): NumberText.shortest(self[keyPath: value])
    case .point: zoomCenter.description
    case .whiteBalance, .filter, .toggle: text(for: key)
    }
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
