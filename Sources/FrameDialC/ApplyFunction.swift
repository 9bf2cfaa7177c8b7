import FrameDial
import JSON

/// The still renderer of every `framedial_apply` call; its plan cache is shared and thread-safe.
private let stillRenderer = StillRenderer()

/// `framedial_apply`: renders the image at `input` with `state` (NULL: the identity state) and writes it
/// to `output` atomically, as `framedial apply` does (the output's folder is created when missing; an
/// existing output is replaced only with `"overwrite": true` in `options`).
@_cdecl("framedial_apply")
public func cApply(
  _ input: UnsafePointer<CChar>?, _ output: UnsafePointer<CChar>?, _ state: OpaquePointer?,
  _ options: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) { _ = try applied(input, output, state, options) }
}

/// `framedial_apply_report`: ``cApply(_:_:_:_:_:)``, and `*report` set to a JSON object of what was
/// written: `output`, `width`, `height`, `format`, and `warnings`, what could not be carried over
/// (one sentence each naming the input, as `framedial apply` prints them).
@_cdecl("framedial_apply_report")
public func cApplyReport(
  _ input: UnsafePointer<CChar>?, _ output: UnsafePointer<CChar>?, _ state: OpaquePointer?,
  _ options: UnsafePointer<CChar>?, _ report: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error, into: report, named: "report") {
    let result = try applied(input, output, state, options)
    let value = JSONText.Value.object([
      ("output", .string(result.outputPath)), ("width", .number(Double(result.width))),
      ("height", .number(Double(result.height))), ("format", .string(result.format.rawValue)),
      ("warnings", .array(result.warnings.map { .string($0) })),
    ])
    return CString.copy(try JSONText.string(value, .line))
  }
}

/// The render of `framedial_apply` and `framedial_apply_report`.
private func applied(
  _ input: UnsafePointer<CChar>?, _ output: UnsafePointer<CChar>?, _ state: OpaquePointer?,
  _ options: UnsafePointer<CChar>?
) throws -> StillResult {
  let inputPath = try CString.read(input, "the input path")
  let outputPath = try CString.read(output, "the output path")
  guard !inputPath.isEmpty, !outputPath.isEmpty else {
    throw CallError(.invalidArgument, "the input and output paths must not be empty")
  }
  let controls = try StateHandle.state(state)
  let members = try StillOptionsJSON.members(options)
  let overwrite = StillOptionKey.overwrite
  let stillOptions = try StillOptionsJSON.options(
    members, output: outputPath, alsoKnown: [overwrite.jsonKey])
  // As the command line without --overwrite: writing onto the input is refused as such first.
  try OutputTarget.check(outputPath, input: inputPath)
  if try !StillOptionsJSON.flag(members, overwrite) {
    try OutputTarget.refuseExisting(
      outputPath, hint: "set \"\(overwrite.jsonKey)\": true to replace it")
  }
  try Library.start()
  try AtomicFile.prepareFolder(of: outputPath)
  return try stillRenderer.renderFile(
    at: inputPath, to: outputPath, state: controls, options: stillOptions)
}

/// The keys of the still options JSON, as a JSON array kept for the life of the process.
nonisolated(unsafe) private let stillOptionKeys = CString.copy(
  "[" + StillOptionsJSON.keys.map { "\"\($0)\"" }.joined(separator: ", ") + "]")

/// `framedial_still_option_keys`: the keys of the still options JSON of `framedial_apply` (and of a
/// batch request's `"options"`), ``StillOptionKey``'s, as a static JSON array (never freed), so that a
/// binding (Python's keyword arguments) takes its options from the same declarations.
@_cdecl("framedial_still_option_keys")
public func cStillOptionKeys(
  _ keys: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
  _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    guard let keys else {
      throw CallError(.invalidArgument, "the keys out-pointer is a null pointer")
    }
    keys.pointee = UnsafePointer(stillOptionKeys)
  }
}
