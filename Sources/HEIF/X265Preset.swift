/// x265's speed presets that FrameDial uses, from fastest (largest file at a quality) to slowest.
public enum X265Preset: String, Sendable, Equatable, CaseIterable, Encodable {
  case ultrafast, superfast, veryfast, faster, fast, medium, slow
}
