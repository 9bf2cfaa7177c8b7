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

  /// Reads the files from the package's resource bundle.
  ///
  /// - Throws: ``StudioError`` naming a file that is missing.
  public static func bundled() throws -> PageResources {
    func file(_ name: String, _ ext: String, _ type: String) throws -> File {
      guard
        let url = Bundle.module.url(forResource: name, withExtension: ext, subdirectory: "Page"),
        let body = try? Data(contentsOf: url)
      else {
        throw StudioError(
          "the studio page's file Page/\(name).\(ext) is missing from \(Bundle.module.bundlePath)")
      }
      return File(body: body, contentType: type)
    }
    return PageResources(
      page: try file("index", "html", "text/html; charset=utf-8"),
      script: try file("studio", "js", "text/javascript; charset=utf-8"),
      styleSheet: try file("studio", "css", "text/css; charset=utf-8"))
  }
}
