/// The shared tail of every colour program: the encoding's transfer, then the look's curve and contrast
/// (around the transfer's pivot) on encoded values.
struct OutputTransfer: Hashable {
  var signal: ColourEncoding.Transfer
  var curve: Curve?
  var contrast: Double

  /// The signal value contrast pivots on.
  var pivot: Double { signal.contrastPivot }

  /// The largest slope of `curve` then contrast, in encoded units per encoded unit.
  var maximumSlope: Double { contrast * (curve?.maximumSlope ?? 1) }
}
