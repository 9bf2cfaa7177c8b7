import Foundation
import Vips

/// Names outputs from a template: `{stem}` (the input's name without extension), `{ext}` (the input's own
/// extension, spelled as it is, when it names the output format — `JPG`, `jpeg`, `HEIC` — else the
/// output format's usual one), `{name}` (the input's full name), `{format}` (jpeg, png, …). The default
/// is `{stem}.{ext}`, so `IMG_0001.JPG` stays `IMG_0001.JPG` and `b.jpeg` stays `b.jpeg`.
public struct OutputNaming: Sendable, Equatable {
  /// The template.
  public let template: String

  /// The placeholders a template may use.
  public static let placeholders = ["{stem}", "{ext}", "{name}", "{format}"]

  /// Checks and keeps `template`: it must name something, use known placeholders only, stay in its
  /// folder (no "/"), and vary with the input (contain {stem} or {name}).
  public init(template: String = "{stem}.{ext}") throws {
    var rest = template
    for placeholder in OutputNaming.placeholders {
      rest = rest.replacingOccurrences(of: placeholder, with: "")
    }
    if rest.contains("{") || rest.contains("}") {
      throw RenderError(
        "--name template '\(template)' has an unknown placeholder; use \(OutputNaming.placeholders.joined(separator: ", "))"
      )
    }
    guard !template.contains("/") else {
      throw RenderError("--name template '\(template)' must not contain '/'")
    }
    guard template.contains("{stem}") || template.contains("{name}") else {
      throw RenderError(
        "--name template '\(template)' must contain {stem} or {name}, or every output would collide"
      )
    }
    self.template = template
  }

  /// The output file name for input file `name` written as `format`.
  public func name(for inputName: String, format: ImageFormat) -> String {
    let stem = (inputName as NSString).deletingPathExtension
    let own = (inputName as NSString).pathExtension
    let ext = ImageFormat(fileExtension: own) == format ? own : format.fileExtension
    return template.replacingOccurrences(of: "{stem}", with: stem)
      .replacingOccurrences(of: "{name}", with: inputName)
      .replacingOccurrences(of: "{ext}", with: ext)
      .replacingOccurrences(of: "{format}", with: format.rawValue)
  }
}
