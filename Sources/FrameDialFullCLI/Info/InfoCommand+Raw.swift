import FrameDial
import FrameDialCLI
import JSON
import Raw

extension InfoCommand {
  /// A camera raw's facts as one JSON object.
  static func jsonValue(path: String, _ raw: RawFacts) -> JSONText.Value {
    var layout: String
    switch raw.layout {
    case .bayer(let pattern): layout = pattern
    case .otherMosaic(let letters): layout = letters
    case .linear: layout = "linear"
    }
    var members: [(String, JSONText.Value)] = [
      ("path", JSONText.Value(path)), ("kind", "raw"), ("dng", JSONText.Value(raw.isDNG)),
      ("make", JSONText.Value(raw.make)), ("model", JSONText.Value(raw.model)),
      ("cfa", JSONText.Value(layout)), ("rawWidth", JSONText.Value(raw.rawWidth)),
      ("rawHeight", JSONText.Value(raw.rawHeight)), ("bits", JSONText.Value(raw.bits)),
      ("blackLevel", JSONText.Value(raw.blackLevel)),
      ("whiteLevel", JSONText.Value(raw.whiteLevel)), ("width", JSONText.Value(raw.width)),
      ("height", JSONText.Value(raw.height)), ("orientation", JSONText.Value(raw.orientation)),
      ("libraw", JSONText.Value(RawFile.libRawVersion)),
    ]
    if let wb = raw.asShotMultipliers {
      members.append(("asShotWhiteBalance", JSONText.Value([wb.x, wb.y, wb.z])))
    }
    return .object(members)
  }

  /// One line of a raw's facts: what it is (see ``RawFacts/summary``), the size it develops to and the
  /// LibRaw that develops it.
  static func describe(_ raw: RawFacts) -> String {
    "\(raw.summary); develops to \(raw.width)×\(raw.height) (LibRaw \(RawFile.libRawVersion))"
  }
}
