import Controls
import Foundation
import FrameDial
import FrameDialCLI
import Studio
import Vips

/// What `framedial studio` makes for downloading: the full-size still a full press takes
/// (`/capture.jpg`) and the look as a `.cube` LUT (`/look.cube`).
final class StudioDownloads: Sendable {
  /// The image the studio shows (read again, at full size, for each capture).
  let input: String
  private let load: LoadOptions
  private let warn: @Sendable (String) -> Void
  private let renderer = StillRenderer()
  private let queue = DispatchQueue(label: "framedial-studio-capture")

  /// Downloads of `input`, read with `load`; `warn` gets each of a capture's warnings.
  init(input: String, load: LoadOptions, warn: @escaping @Sendable (String) -> Void) {
    self.input = input
    self.load = load
    self.warn = warn
  }

  /// Renders `input` at full size with `state` as `apply` does (same renderer, metadata kept with
  /// orientation 1, in the photo's own colour space) as a JPEG, on a queue of its own; `completion`
  /// gets the bytes, after `warn` has had what the JPEG could not carry over (as `apply` warns: an
  /// HDR photo's gain map, for one).
  func capture(_ state: ControlState, completion: @escaping @Sendable (Export) -> Void) {
    queue.async { [self] in
      do {
        let jpeg = try AtomicFile.withScratchFile(
          named: "capture.jpg", in: FileManager.default.temporaryDirectory.path
        ) { path in
          let result = try renderer.renderFile(
            at: input, to: path, state: state, options: StillOptions(format: .jpeg, load: load))
          result.warnings.forEach(warn)
          return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        completion(.file(jpeg))
      } catch {
        completion(.failed(message: "cannot take the picture: \(ErrorMessage.plain(error))"))
      }
    }
  }

  /// The colour of `state` as a `.cube` file of `LutCommand.defaultSize` nodes per axis, written by the
  /// writer `framedial lut` uses; refused for auto white balance, which measures each picture.
  func lookCube(_ state: ControlState) -> Export {
    do {
      let lut = try ColourLUT(state: state, size: LutCommand.defaultSize)
      return .file(Data(LutCommand.cubeText(lut, state: state).utf8))
    } catch {
      return .refused(message: error.description)
    }
  }
}
