import Foundation

/// The checks every command that writes makes on its output path before reading anything.
public enum OutputTarget {
  /// Throws when `output` is `input` (the same file after following links, a hard link included), or
  /// exists and is not a regular file (a FIFO, a device such as /dev/null, a folder): renaming a finished
  /// file over such a path would replace it.
  public static func check(_ output: String, input: String) throws {
    guard let target = FileStatus(output) else { return }
    if let source = FileStatus(input), source.identity == target.identity {
      throw RenderError("\(output): refusing to write onto the input file")
    }
    if !target.isRegularFile {
      throw RenderError("\(output): not a regular file; refusing to replace it")
    }
  }

  /// Throws "`output` exists; `hint`" when something is at `output` (a file, or a link, even one that
  /// leads nowhere): an output is replaced only when the caller asked for it (`--overwrite`, the C
  /// API's `"overwrite": true`, Python's `overwrite=True`), as `hint` says.
  public static func refuseExisting(_ output: String, hint: String) throws {
    var status = stat()
    guard lstat(output, &status) == 0 else { return }
    throw RenderError("\(output) exists; \(hint)")
  }
}
