/// What every command says of a file or folder whose path is not valid UTF-8.
///
/// Linux names are bytes, but FrameDial carries paths as text from end to end: outputs are named after
/// inputs, events and records are JSON, messages are UTF-8 lines. A name that is not UTF-8 cannot pass
/// through all of them unchanged (Swift shows each bad byte as U+FFFD, and that name is another file's
/// or none), so such a file is refused, in the same words everywhere, rather than written under a name
/// that differs from its own.
public enum NonUTF8Path {
  /// The problem of a path whose last name is not valid UTF-8 (a folder's when `isFolder`), or, with
  /// `inFolderName`, one whose last name is but a folder's on the way is not.
  public static func problem(isFolder: Bool = false, inFolderName: Bool = false) -> String {
    if inFolderName { return "a folder name in the path is not valid UTF-8: rename the folder" }
    return isFolder
      ? "the folder name is not valid UTF-8: rename the folder"
      : "the file name is not valid UTF-8: rename the file"
  }
}
