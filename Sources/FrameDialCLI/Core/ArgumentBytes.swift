import FrameDial
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The arguments of the process that are not valid UTF-8, with their bytes.
///
/// `CommandLine.arguments` shows each byte that is not UTF-8 as U+FFFD, so such an argument no longer
/// names the file the shell gave; `CommandLine.unsafeArgv` keeps the bytes. FrameDial refuses such a
/// file (see ``NonUTF8Path``); the bytes tell a file that is there, refused by name, from one that is
/// not (which the command reports as missing, as any other).
package enum ArgumentBytes {
  private static let invalid = Mutex<[(text: String, bytes: [UInt8])]>([])

  /// Notes which arguments are not valid UTF-8, when `arguments` are this process's own (as
  /// `framedial`'s `main` hands them to ``CLI/run(_:)``).
  static func note(_ arguments: [String]) {
    guard arguments == CommandLine.arguments else { return }
    var found: [(text: String, bytes: [UInt8])] = []
    for index in 0..<Int(CommandLine.argc) {
      guard let pointer = CommandLine.unsafeArgv[index] else { continue }
      let bytes = Array(
        UnsafeBufferPointer(
          start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
          count: strlen(pointer)))
      if String(validating: bytes, as: UTF8.self) == nil {
        found.append((String(decoding: bytes, as: UTF8.self), bytes))
      }
    }
    invalid.withLock { $0 = found }
  }

  /// The bytes of `value`, a positional or an option's value, when the argument it came from was not
  /// valid UTF-8; nil otherwise.
  static func bytes(of value: String) -> [UInt8]? {
    guard value.unicodeScalars.contains("\u{FFFD}") else { return nil }
    return invalid.withLock { arguments in
      if let exact = arguments.first(where: { $0.text == value }) { return exact.bytes }
      // `--output=VALUE` or `-oVALUE`: what comes before the value is an option's ASCII name.
      for (text, bytes) in arguments where text.hasSuffix(value) {
        let option = text.dropLast(value.count)
        if option.hasPrefix("-") && option.allSatisfy(\.isASCII) {
          return Array(bytes.dropFirst(option.utf8.count))
        }
      }
      return nil
    }
  }

  /// Why `value` cannot be read as a path: nil when it was valid UTF-8, or when its bytes name nothing
  /// (the command reports it as missing).
  package static func problem(_ value: String) -> String? {
    guard let bytes = bytes(of: value) else { return nil }
    var status = stat()
    let found = (bytes + [0]).withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { path in
        path.baseAddress.map { lstat($0, &status) == 0 } ?? false
      }
    }
    guard found else { return nil }
    let lastName = bytes.split(separator: UInt8(ascii: "/")).last ?? []
    return NonUTF8Path.problem(
      isFolder: status.st_mode & S_IFMT == S_IFDIR,
      inFolderName: String(validating: lastName, as: UTF8.self) != nil)
  }

  /// Throws, before any work, for an argument that is not valid UTF-8 and is used as a path: the value
  /// of `--output` (which would be written under another name), and every other value and positional
  /// (but the positionals, with `exceptPositionals`: a command that reports each input of several)
  /// whose bytes name a file or folder.
  static func check(_ arguments: ParsedArguments, exceptPositionals: Bool) throws {
    for (name, values) in arguments.values {
      for value in values {
        if name == OutputOption.name, bytes(of: value) != nil {
          throw RenderError("\(value): the output's name is not valid UTF-8: give a name in UTF-8")
        }
        if let problem = problem(value) { throw RenderError("\(value): \(problem)") }
      }
    }
    guard !exceptPositionals else { return }
    for value in arguments.positionals {
      if let problem = problem(value) { throw RenderError("\(value): \(problem)") }
    }
  }
}
