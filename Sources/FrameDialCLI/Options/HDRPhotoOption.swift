import FrameDial

/// `--hdr-photo keep|drop` for `apply` and `batch`: whether an HDR photo's gain map is kept where the
/// output can hold it.
package enum HDRPhotoOption {
  /// The option; a name that is neither is refused naming both.
  package static let option = ValueOption<HDRPhotoChoice>.choice(
    StillOptionKey.hdrPhoto.commandLineName, value: "keep|drop", usage: "keep|drop",
    "an HDR photo's gain map: keep (default: in a HEIC output, edited with the photo; other outputs "
      + "say it was not kept) or drop (every output its SDR picture, without a warning)",
    message: .oneOf)
}
