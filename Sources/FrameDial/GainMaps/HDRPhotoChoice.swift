/// What becomes of an HDR photo's gain map in the outputs that can keep it (`--hdr-photo`).
public enum HDRPhotoChoice: String, Sendable, Equatable, CaseIterable, Encodable {
  /// Keep it where the output can (a HEIC of a render that changes no light or colour), and say
  /// so where it cannot: FrameDial's default.
  case keep
  /// Leave it out on purpose: every output is the SDR picture alone, with no warning.
  case drop
}
