/// The x265 speed presets FrameDial encodes with, from the quickest to the slowest (which gives the
/// smallest file at a given picture quality).
public enum X265Preset: String, Sendable, Equatable, CaseIterable, Encodable {
  case ultrafast, slow
}
