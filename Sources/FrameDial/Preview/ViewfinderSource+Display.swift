import Foundation
import Vips

extension ViewfinderSource {
  /// The size frames take to show this source in a box of `width × height` pixels (the page's
  /// displayed viewfinder): the source's aspect ratio scaled to fit the box, never up (a box larger
  /// than the source gets the source's own size), at least 1 × 1.
  public func displaySize(fitting width: Int, _ height: Int) -> (width: Int, height: Int) {
    let scale = min(
      1, Double(max(1, width)) / Double(self.width),
      Double(max(1, height)) / Double(self.height))
    guard scale < 1 else { return (self.width, self.height) }
    return (
      max(1, Int((Double(self.width) * scale).rounded())),
      max(1, Int((Double(self.height) * scale).rounded()))
    )
  }

  /// This source with its pixels resized to `width × height` (Lanczos 3, as the source was made);
  /// the screen layout is kept. The size itself is returned unchanged when it is the source's.
  ///
  /// - Throws: a `VipsError` when libvips cannot resize (a size below 1 pixel).
  public func resized(toWidth width: Int, height: Int) throws -> ViewfinderSource {
    guard width != self.width || height != self.height else { return self }
    let bytes = try pixels.withUnsafeBytes { frame in
      try Image(wrapping: frame, layout: frameLayout).thumbnailed(width: width, height: height)
        .pixelBytes()
    }
    var resized = self
    resized.pixels = bytes
    resized.width = width
    resized.height = height
    return resized
  }
}
