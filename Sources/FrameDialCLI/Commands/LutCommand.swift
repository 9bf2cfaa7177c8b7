import Controls
import Foundation
import FrameDial
import Vips

/// `framedial lut -o look.cube`: the control values' colour as a 3D LUT other tools load (a `.cube`
/// file, or a Hald CLUT image with `--hald`).
package enum LutCommand: Command {
  package static let name = "lut"
  package static let summary =
    "Write the colour of the control values as a .cube 3D LUT or a Hald CLUT image for other tools."
  /// `-o FILE`.
  static let output = OutputOption.option(
    "FILE",
    "the LUT to write: .cube (Resolve, ffmpeg lut3d, OBS, darktable) or, with \(hald), .png/.tif")
  /// `--size`: nodes per axis of a `.cube`.
  static let size = ValueOption.wholeNumber(
    "size", "N", "nodes per axis of the .cube (default \(defaultSize); 65 for the smallest error)",
    in: ColourLUT.sizes)
  /// `--hald`.
  static let hald = FlagOption(
    "hald", "write a 16-bit Hald CLUT image instead (ffmpeg haldclut, ImageMagick, G'MIC)")
  /// `--level`: the Hald CLUT's level.
  static let level = ValueOption.wholeNumber(
    "level", "L",
    "Hald CLUT level: L² nodes per axis in an L³×L³ image (default \(defaultLevel): 64 nodes)",
    in: ColourLUT.haldLevels)
  package static let synopsis = Usage(
    [
      .oneOf(
        [.option(output, "LOOK.cube", short: true), .optional(size)],
        [.option(output, "LOOK.png", short: true), .option(hald), .optional(level)])
    ] + StateOptions.usage)
  package static let parser = ArgumentParser(
    options: [output, size, hald, level, OverwriteOption.option] + StateOptions.options)

  /// Nodes per axis of a `.cube` by default: the size most tools expect.
  package static let defaultSize = 33
  /// The Hald CLUT level by default: 64 nodes per axis, a 512 × 512 image.
  static let defaultLevel = 8

  package static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
    guard arguments.positionals.isEmpty else {
      throw UsageError("lut takes no input files, only control values and -o FILE")
    }
    guard let output = try arguments[Self.output] else {
      throw UsageError("no output given (-o LOOK.cube)")
    }
    let hald = arguments[Self.hald]
    let extensionName = URL(fileURLWithPath: output).pathExtension.lowercased()
    let format = ImageFormat(path: output)
    if hald {
      guard format == .png || format == .tiff else {
        throw UsageError("a Hald CLUT is an image: name the output .png or .tif, not '\(output)'")
      }
      if arguments.given(Self.size) {
        throw UsageError("\(Self.size) is for .cube; use \(Self.level)")
      }
    } else {
      guard extensionName == "cube" else {
        throw UsageError(
          "name the output .cube (or add \(Self.hald) for a .png Hald CLUT), not '\(output)'")
      }
      if arguments.given(Self.level) { throw UsageError("\(Self.level) needs \(Self.hald)") }
    }
    let state = try StateOptions.controlState(from: arguments)
    let lut: ColourLUT
    do {
      if hald {
        let level = try arguments[Self.level] ?? defaultLevel
        lut = try ColourLUT(state: state, haldLevel: level)
      } else {
        let size = try arguments[Self.size] ?? defaultSize
        lut = try ColourLUT(state: state, size: size)
      }
    } catch let error as ColourLUTError {
      throw RenderError(error.description)
    }
    try OverwriteOption.check(output, input: nil, arguments)
    try AtomicFile.prepareFolder(of: output)
    try AtomicFile.write(to: output) { temporary in
      if hald, let format {
        try lut.haldImage().write(to: temporary, format: format)
      } else {
        try Data(cubeText(lut, state: state).utf8).write(to: URL(fileURLWithPath: temporary))
      }
    }
    let shape = "\(lut.size)×\(lut.size)×\(lut.size)"
    console.out("\(output): \(shape) \(hald ? "Hald CLUT" : "LUT") of \(state)")
    if state.zoom != 1 { console.err("framedial \(name): note: the zoom is left out of a LUT") }
    return ExitCode.success
  }

  /// The `.cube` text of `lut`, titled and commented with the state it was made from (also served by
  /// `studio` as `/look.cube`).
  package static func cubeText(_ lut: ColourLUT, state: ControlState) -> String {
    lut.cubeText(
      title: "FrameDial \(state)",
      comments: ["FrameDial \(FrameDialVersion.string): \(state) (zoom left out)"])
  }
}
