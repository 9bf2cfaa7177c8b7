import Vips

extension RenderError {
  /// The error for `output`, rendered from `input`, failing while it was written to `temporary`.
  ///
  /// Pixels are decoded while the output is written, so a damaged or truncated input fails there too. The
  /// input is then decoded again on its own, on one thread (see ``DecodeVerdict``): if that fails, the
  /// error says the input cannot be decoded (libvips's message from the decoder alone); otherwise it says
  /// the output could not be rendered. The real output path is named, never the temporary one.
  static func writing(
    _ output: String, from input: String, temporary: String, failure: VipsError, load: LoadOptions
  ) -> RenderError {
    if let damage = DecodeVerdict.damage(of: input, load: load) { return damage }
    let detail = failure.reason.replacingOccurrences(of: "\(temporary): cannot write: ", with: "")
      .replacingOccurrences(of: temporary, with: output)
    return RenderError("\(input): cannot render to \(output): \(detail)")
  }
}
