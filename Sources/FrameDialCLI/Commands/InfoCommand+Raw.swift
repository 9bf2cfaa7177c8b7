import FrameDial
import Raw

extension InfoCommand {
  /// A camera raw's facts as one JSON object.
  static func jsonObject(path: String, _ raw: RawFacts) -> [String: Any] {
    var layout: String
    switch raw.layout {
    case .bayer(let pattern): layout = pattern
    case .otherMosaic(let letters): layout = letters
    case .linear: layout = "linear"
    }
    var object: [String: Any] = [
      "path": path, "kind": "raw", "dng": raw.isDNG, "make": raw.make, "model": raw.model,
      "cfa": layout, "rawWidth": raw.rawWidth, "rawHeight": raw.rawHeight, "bits": raw.bits,
      "blackLevel": raw.blackLevel, "whiteLevel": raw.whiteLevel, "width": raw.width,
      "height": raw.height, "orientation": raw.orientation, "libraw": RawFile.libRawVersion,
    ]
    if let wb = raw.asShotMultipliers { object["asShotWhiteBalance"] = [wb.x, wb.y, wb.z] }
    return object
  }

  /// One line of a raw's facts: what it is (see ``RawFacts/summary``), the size it develops to and the
  /// LibRaw that develops it.
  static func describe(_ raw: RawFacts) -> String {
    "\(raw.summary); develops to \(raw.width)×\(raw.height) (LibRaw \(RawFile.libRawVersion))"
  }
}
