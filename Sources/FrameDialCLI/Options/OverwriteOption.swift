import Foundation
import FrameDial

/// `--overwrite` (`-y`) for the commands that write one file (`apply`, `video`, `lut`, `preview`,
/// `sweep`): an existing output is replaced only when asked, as `batch` skips the outputs it finds.
package enum OverwriteOption {
  /// The flag, as every single-output command lists it.
  package static let option = FlagOption(
    StillOptionKey.overwrite.commandLineName, short: "y",
    "replace OUT when it exists (without it, an existing OUT is left as it is)")

  /// Throws, before any work, when `output` exists (a file, or a link, even one that leads nowhere) and
  /// `--overwrite` was not given. The checks of ``OutputTarget/check(_:input:)`` come first, so writing
  /// onto the input is refused as such, with or without the flag.
  package static func check(_ output: String, input: String?, _ arguments: ParsedArguments) throws {
    if let input { try OutputTarget.check(output, input: input) }
    guard !arguments[option] else { return }
    let short = option.spec.short.map { " (-\($0))" } ?? ""
    try OutputTarget.refuseExisting(output, hint: "add \(option)\(short) to replace it")
  }

  /// The single input and the output of a command that makes one file from one (`preview`, `sweep`),
  /// the output checked by ``check(_:input:_:)``; `command` and `outputHint` are as
  /// ``ParsedArguments/singleInputAndOutput(command:outputHint:)`` takes them.
  static func inputAndOutput(
    _ arguments: ParsedArguments, command: String, outputHint: String
  ) throws -> (input: String, output: String) {
    let (input, output) = try arguments.singleInputAndOutput(
      command: command, outputHint: outputHint)
    try check(output, input: input, arguments)
    return (input, output)
  }
}
