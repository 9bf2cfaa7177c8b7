import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `framedial-full`: the program that has every command, beside the light `framedial`.
///
/// The light `framedial` links neither FFmpeg (about 90 shared libraries, some 40 ms of every start on a
/// 2-core machine) nor libsoup, so a run of `framedial --version` or of `apply` on a small photo costs
/// about what libvips's own tools cost (the benchmark's startup section). What needs them — `info`, `studio`, `video`, the help that lists every
/// command, and any input or output that may be HEIC, AVIF or a video — it hands over: the process
/// becomes `framedial-full` with the same arguments (`execv`), so its process id, standard streams,
/// held signals and exit code are those of the one run the caller started.
package enum FullCommand {
  /// The file name of the program with every command, in the light `framedial`'s folder.
  package static let programName = "framedial-full"

  /// True when `arguments` (the program name first) need `framedial-full`: no command or an unknown one,
  /// one of `framedial-full`'s own, `batch` (whose folders may hold anything), standard input (`-`),
  /// a file that is no JPEG, PNG, GIF, WebP or TIFF (raws built on TIFF included), or a name or
  /// format that may be HEIC or AVIF. Only `--version` and the core commands on such photos are run
  /// by the light `framedial` itself.
  package static func isNeeded(for arguments: [String]) -> Bool {
    let words = arguments.dropFirst()
    guard let first = words.first else { return true }
    if first == "--version" || first == "-V" { return false }
    guard let command = CLI.coreCommands.first(where: { $0.name == first }),
      !(command is BatchCommand.Type)
    else { return true }
    return words.dropFirst().contains(where: needsFull(word:))
  }

  /// True when `word`, an argument of a core command, may bring in what needs FFmpeg: standard input
  /// (`-`), a HEIC or AVIF name or format, or an existing file that is not a photo the light binary
  /// reads (``StillMagic``).
  static func needsFull(word: String) -> Bool {
    if word == "-" { return true }
    // A word as given, or the value of `--option=value`.
    for text in [word, word.split(separator: "=", maxSplits: 1).last.map(String.init) ?? word] {
      let lower = text.lowercased()
      if ["heic", "heif", "avif", "hif"].contains(lower)
        || [".heic", ".heif", ".avif", ".hif"].contains(where: { lower.hasSuffix($0) })
      {
        return true
      }
    }
    var status = stat()
    guard stat(word, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
    return !StillMagic.isLightPhoto(path: word)
  }

  /// Replaces this process with `framedial-full` from the same folder as this program, with the same
  /// arguments (their bytes as given, the program's name first). Returns only when it could not, with
  /// why.
  package static func become() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else {
      return "cannot find \(programName): /proc/self/exe: \(String(cString: strerror(errno)))"
    }
    let me = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let full = URL(fileURLWithPath: me).deletingLastPathComponent()
      .appendingPathComponent(programName).path
    let arguments = CommandLine.unsafeArgv
    let count = Int(CommandLine.argc)
    return full.withCString { path -> String in
      var argv = [UnsafeMutablePointer<CChar>?](repeating: nil, count: count + 1)
      argv[0] = UnsafeMutablePointer(mutating: path)
      for index in 1..<max(count, 1) { argv[index] = arguments[index] }
      execv(path, argv)
      let failure = errno
      return "cannot run \(full) (it runs info, studio, video, HEIC and every input but JPEG, "
        + "PNG, GIF, WebP and TIFF, and must sit beside framedial): \(String(cString: strerror(failure)))"
        + (failure == ENOENT ? Self.buildHint : "")
    }
  }

  /// How to build `framedial-full` from the package, for a run that found it missing: `swift run
  /// framedial` and `swift build --product framedial` build the light program alone.
  static let buildHint =
    "; build it with `swift build --product framedial-full` (add `-c release` for a release build),"
    + " or with `swift build`, which builds both"
}

/// The first bytes of the photos the light `framedial` reads itself.
enum StillMagic {
  /// True when the file at `path` starts as a JPEG, PNG, GIF, WebP or TIFF (a classic or big TIFF, and
  /// so the camera raws built on it: DNG, NEF, CR2, ARW, PEF …) does; false for anything else or a file
  /// that cannot be read (`framedial-full` then reports it as it always has).
  static func isLightPhoto(path: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let head = try? handle.read(upToCount: 12) else { return false }
    return isLightPhoto(head: [UInt8](head))
  }

  /// ``isLightPhoto(path:)`` on a file's first bytes (12 are enough).
  static func isLightPhoto(head: [UInt8]) -> Bool {
    func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
      head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
    }
    return starts([0xFF, 0xD8, 0xFF])  // JPEG
      || starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])  // PNG
      || starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8))
      || (starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8))
      || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A])  // TIFF
      || starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B])  // BigTIFF
  }
}
