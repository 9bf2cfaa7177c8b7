import FrameDial

/// The still renderer of every `framedial_apply` call; its plan cache is shared and thread-safe.
private let stillRenderer = StillRenderer()

/// `framedial_apply`: renders the image at `input` with `state` (NULL: the identity state) and writes it
/// to `output` atomically, as `framedial apply` does (the output's folder is created when missing).
@_cdecl("framedial_apply")
public func cApply(
  _ input: UnsafePointer<CChar>?, _ output: UnsafePointer<CChar>?, _ state: OpaquePointer?,
  _ options: UnsafePointer<CChar>?, _ error: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
  reporting(error) {
    let inputPath = try CString.read(input, "the input path")
    let outputPath = try CString.read(output, "the output path")
    guard !inputPath.isEmpty, !outputPath.isEmpty else {
      throw CallError(.invalidArgument, "the input and output paths must not be empty")
    }
    let controls = try StateHandle.state(state)
    let stillOptions = try StillOptionsJSON.options(options, output: outputPath)
    try Library.start()
    try AtomicFile.prepareFolder(of: outputPath)
    try stillRenderer.renderFile(
      at: inputPath, to: outputPath, state: controls, options: stillOptions)
  }
}
