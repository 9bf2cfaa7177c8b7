import Foundation

/// The largest picture `framedial video` decodes or builds, in pixels, checked before any frame's memory
/// is taken: a small file may claim a picture of gigabytes (a Y4M header, an FFV1 stream) or a sample
/// aspect ratio that stretches a still to billions of pixels.
enum PixelLimit {
  /// Why a `width × height` picture (`what`, for the message) is over `limit` pixels, or nil when it
  /// is not or there is no limit.
  static func problem(width: Double, height: Double, limit: Int?, what: String) -> String? {
    guard let limit else { return nil }
    let pixels = width * height
    guard pixels > Double(limit) || !pixels.isFinite else { return nil }
    // In megapixels, as stills say it, unless the limit is below one: then in pixels.
    guard limit >= 1_000_000 else {
      return "\(what) (\(count(pixels)) pixels), over the pixel limit of \(limit)"
    }
    return "\(what) (\(megapixels(pixels)) megapixels), over the pixel limit of "
      + "\(megapixels(Double(limit))) megapixels"
  }

  /// `pixels` in millions: whole from 10 on ("256"), else to one decimal ("7.7").
  private static func megapixels(_ pixels: Double) -> String {
    let value = pixels / 1_000_000
    guard value.isFinite else { return "\(value)" }
    return value >= 10 ? String(format: "%.0f", value) : String(format: "%.1f", value)
  }

  /// `value` as a whole number ("76800").
  static func count(_ value: Double) -> String {
    value.isFinite ? String(format: "%.0f", value) : "\(value)"
  }
}
