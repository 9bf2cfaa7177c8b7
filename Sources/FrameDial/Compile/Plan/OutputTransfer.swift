/// The shared tail of every colour program: the look's curve and contrast on encoded values.
struct OutputTransfer: Hashable {
  var curve: Curve?
  var contrast: Double

  /// The largest slope of `curve` then contrast, in encoded units per encoded unit.
  var maximumSlope: Double { contrast * (curve?.maximumSlope ?? 1) }
}
