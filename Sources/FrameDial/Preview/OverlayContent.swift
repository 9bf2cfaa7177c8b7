import Controls
import Foundation

/// What the Camera Control overlay shows for the selected control (HIG "Camera Control": a title, an SF
/// Symbols name, the value with its units, and for a slider a scale with its prominent values marked).
public struct OverlayContent: Sendable, Equatable {
  /// A slider's scale.
  public struct Scale: Sendable, Equatable {
    /// How values are spaced along the scale.
    public typealias Spacing = ScaleSpacing

    /// The slider's range.
    public var range: ClosedRange<Double>
    /// The current value (drawn clamped to the range).
    public var value: Double
    /// The prominent values with the overlay's labels, in ascending order.
    public var marks: [Mark]
    /// How values are spaced.
    public var spacing: Spacing

    /// Creates a scale; logarithmic and mired spacing need a range above 0 (else it is drawn linear).
    public init(
      range: ClosedRange<Double>, value: Double, marks: [Mark], spacing: Spacing = .linear
    ) {
      self.range = range
      self.value = value
      self.marks = marks.sorted { $0.value < $1.value }
      self.spacing = range.lowerBound > 0 ? spacing : .linear
    }

    /// Where `value` lies along the scale, 0 (minimum) … 1 (maximum), clamped.
    public func position(of value: Double) -> Double {
      guard value.isFinite else { return 0 }
      let clamped = min(max(value, range.lowerBound), range.upperBound)
      let (low, high, at) =
        switch spacing {
        case .linear: (range.lowerBound, range.upperBound, clamped)
        case .logarithmic: (log(range.lowerBound), log(range.upperBound), log(clamped))
        case .mired: (-1e6 / range.lowerBound, -1e6 / range.upperBound, -1e6 / clamped)
        }
      return high > low ? (at - low) / (high - low) : 0
    }
  }

  /// One labelled prominent value.
  public struct Mark: Sendable, Equatable {
    /// The value.
    public var value: Double
    /// Its label ("1×", "0.0 EV").
    public var label: String

    /// Creates a mark.
    public init(value: Double, label: String) {
      self.value = value
      self.label = label
    }
  }

  /// What sits under the title: a slider's scale or a picker's options.
  public enum Body: Sendable, Equatable {
    /// A slider.
    case scale(Scale)
    /// A picker: its option titles and the selected index.
    case options([String], selected: Int)
  }

  /// The control's title ("Exposure").
  public var title: String
  /// The control's SF Symbols name (drawn as a simple stand-in glyph, see ``SymbolGlyph``).
  public var symbolName: String
  /// The formatted value with its units ("+0.3 EV", "5500 K", "Mono").
  public var valueText: String
  /// The scale or the options.
  public var body: Body

  /// Creates overlay content.
  public init(title: String, symbolName: String, valueText: String, body: Body) {
    self.title = title
    self.symbolName = symbolName
    self.valueText = valueText
    self.body = body
  }
}
