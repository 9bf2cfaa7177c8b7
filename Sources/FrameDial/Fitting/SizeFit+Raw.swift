import Raw

extension SizeFit {
  /// The size as `RawStill.rendered8(_:_:colour:options:size:)` asks it of a raw: the output size of
  /// the raw's upright size, and the shrink on load it allows, without a zoom.
  var rawOutputSize: RawStill.OutputSize {
    RawStill.OutputSize(
      output: { outputSize(inputWidth: $0, inputHeight: $1) },
      loadShrink: { loadShrink(imageWidth: $0, imageHeight: $1) })
  }
}
