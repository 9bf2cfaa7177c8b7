import Foundation

/// Removes where a photo was taken from an XMP packet: every `exif:GPS…` property (position, altitude,
/// direction, speed, destination, GPS time), `photoshop:City`, `photoshop:State`, `photoshop:Country`,
/// `Iptc4xmpCore:Location`, `Iptc4xmpCore:CountryCode`, `Iptc4xmpExt:LocationCreated` and
/// `Iptc4xmpExt:LocationShown`, written as elements (with whatever they hold) or as attributes.
/// Namespaces are recognised by their URI, whatever prefix the packet binds them to.
enum XMPLocation {
  /// The namespaces and the pattern of the local names removed from each.
  static let properties: [(namespace: String, names: String)] = [
    ("http://ns.adobe.com/exif/1.0/", "GPS[A-Za-z0-9]*"),
    ("http://ns.adobe.com/photoshop/1.0/", "City|State|Country"),
    ("http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/", "Location|CountryCode"),
    ("http://iptc.org/std/Iptc4xmpExt/2008-02-29/", "LocationCreated|LocationShown"),
  ]

  /// `xmp` without the location properties.
  static func removingLocation(from xmp: Data) -> Data {
    var text = String(decoding: xmp, as: UTF8.self)
    for (namespace, names) in properties {
      for prefix in prefixes(boundTo: namespace, in: text) {
        let name = "\(prefix):(?:\(names))"
        // An element and its content (or an empty element), then an attribute.
        text = replacing("<(\(name))(?=[\\s/>])[^>]*?(?:/>|>[\\s\\S]*?</\\1\\s*>)", in: text)
        text = replacing("\\s\(name)\\s*=\\s*(?:\"[^\"]*\"|'[^']*')", in: text)
      }
    }
    return Data(text.utf8)
  }

  /// The prefixes `text` binds to the namespace URI `namespace` (`xmlns:prefix="namespace"`).
  private static func prefixes(boundTo namespace: String, in text: String) -> Set<String> {
    let uri = NSRegularExpression.escapedPattern(for: namespace)
    guard
      let expression = try? NSRegularExpression(
        pattern: "xmlns:([A-Za-z_][A-Za-z0-9_.-]*)\\s*=\\s*[\"']\(uri)[\"']")
    else { return [] }
    let whole = NSRange(text.startIndex..., in: text)
    return Set(
      expression.matches(in: text, range: whole).compactMap { match in
        Range(match.range(at: 1), in: text).map {
          NSRegularExpression.escapedPattern(for: String(text[$0]))
        }
      })
  }

  private static func replacing(_ pattern: String, in text: String) -> String {
    guard let expression = try? NSRegularExpression(pattern: pattern) else { return text }
    return expression.stringByReplacingMatches(
      in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
  }
}
