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
}
