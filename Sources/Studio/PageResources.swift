import Foundation

/// The page's files (plain HTML, CSS and JavaScript, shipped as the Studio target's resources), read once.
public struct PageResources: Sendable {
  /// One file: its bytes and content type.
  public struct File: Sendable {
    /// The bytes served.
    public var body: Data
    /// The `Content-Type` served.
    public var contentType: String
  }

  /// `index.html`.
  public var page: File
  /// `studio.js`.
  public var script: File
  /// `studio.css`.
  public var styleSheet: File

  /// Reads the files from the package's resource bundle (`FrameDial_Studio.resources` beside the
  /// executable, as SwiftPM builds and installs it), else from the source tree the binary was built
  /// from. SwiftPM's own `Bundle.module` is not used: it stops the process when the bundle is missing.
  ///
  /// - Throws: ``StudioError`` naming the places searched when the page's files are in none of them.
  public static func bundled() throws -> PageResources {
    let folders = pageFolders()
    guard
      let folder = folders.first(where: {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path)
      })
    else {
      throw StudioError(
        "the studio page's files (Page/index.html, studio.js, studio.css) are in none of: "
          + folders.map(\.path).joined(separator: ", ")
          + " (keep FrameDial_Studio.resources beside the framedial binary)")
    }
    func file(_ name: String, _ type: String) throws -> File {
      let url = folder.appendingPathComponent(name)
      guard let body = try? Data(contentsOf: url) else {
        throw StudioError("the studio page's file \(url.path) cannot be read")
      }
      return File(body: body, contentType: type)
    }
    return PageResources(
      page: try file("index.html", "text/html; charset=utf-8"),
      script: try file("studio.js", "text/javascript; charset=utf-8"),
      styleSheet: try file("studio.css", "text/css; charset=utf-8"))
  }

  /// Where the page's folder may be: in the resource bundle beside the running executable (links
  /// followed) or beside the main bundle, then in this source file's own folder.
  static func pageFolders() -> [URL] {
    let bundle = "FrameDial_Studio.resources"
    let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      .deletingLastPathComponent()
    var folders = [
      executable.appendingPathComponent(bundle).appendingPathComponent("Page"),
      Bundle.main.bundleURL.appendingPathComponent(bundle).appendingPathComponent("Page"),
      URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Page"),
    ]
    var seen = Set<String>()
    folders.removeAll { !seen.insert($0.standardizedFileURL.path).inserted }
    return folders
  }
}
