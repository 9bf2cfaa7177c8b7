import CHeif
import Foundation
import Synchronization

/// Gives libheif an ``HEVCPictureDecoder`` as a decoder plugin (libheif 1.15's plugin interface, API
/// version 3) that outranks its own libde265 plugin, so that every HEIC decoded in the process — by
/// ``HEIFFile``, and by libvips's `heifload`, which calls the same libheif — goes through it.
///
/// libheif keeps its decoder plugins in one list for the whole process, so registration is process-wide;
/// registering again replaces the decoder the plugin calls, and ``withdraw()`` makes the plugin decline
/// HEVC, so that libde265 decodes again. (libheif 1.15's `decoder_id` decoding option cannot choose the
/// decoder instead: it reaches only a file's top picture, not its grid tiles, alpha or derived images.)
/// libheif creates a plugin decoder for each coded picture (a grid's tiles on up to four threads at
/// once), pushes the picture's length-prefixed NAL units, and asks for the image: each of those is
/// its own object here, and the decoder is called without a lock.
public enum HEVCDecoderPlugin {
  /// The plugin's short name in libheif's list of decoders.
  public static let id = "framedial-hevc"
  /// The plugin's priority: libheif picks the highest, and gives libde265 100.
  static let priority: Int32 = 200

  /// Makes libheif decode HEVC with `decoder` (`name` describes it in libheif's list of decoders; the
  /// first registration's name stays).
  ///
  /// - Throws: ``HEIFError`` when libheif refuses the plugin.
  public static func register(_ decoder: any HEVCPictureDecoder, name: String) throws {
    registered.withLock { $0 = decoder }
    try registration(name).check()
  }

  /// Makes the plugin decline HEVC from now on, so that libheif decodes with libde265 (pictures already
  /// being decoded finish with the decoder they started with), until a decoder is registered again.
  public static func withdraw() {
    registered.withLock { $0 = nil }
  }

  /// What becomes of a coded picture the decoder finds damaged.
  public enum DamagedPictures: Sendable, Equatable {
    /// The decode fails: the decoder is asked to stop at the first error it notices, and the plugin
    /// returns that error to libheif, which fails the decode of the file's image (a grid's tile or an
    /// alpha image fails the whole image), and so does libvips's `heifload`.
    case refused
    /// What the decoder could decode is returned, with libheif's decoding warning on the image (which
    /// libvips ignores): a decode that asks libheif for strict decoding still fails.
    case concealed
  }

  /// What becomes of a picture the registered decoder finds damaged, for every HEIC decoded in the
  /// process (the plugin is process-wide): ``DamagedPictures/refused`` unless set. The `framedial`
  /// command sets ``DamagedPictures/concealed`` for `--fail-on none`, which writes what can be decoded.
  public static var damagedPictures: DamagedPictures {
    get { concealsDamage.load(ordering: .relaxed) ? .concealed : .refused }
    set { concealsDamage.store(newValue == .concealed, ordering: .relaxed) }
  }

  private static let concealsDamage = Atomic(false)

  /// True while a decoder is registered (and not withdrawn).
  public static var isRegistered: Bool { registered.withLock { $0 != nil } }

  /// The decoder libheif's calls go to, nil until one is registered.
  fileprivate static let registered = Mutex<(any HEVCPictureDecoder)?>(nil)

  /// Registers the plugin with libheif once, with the name of the first call; the result is kept.
  private static func registration(_ name: String) -> Registration {
    outcome.withLock { outcome in
      if let outcome { return outcome }
      let plugin = UnsafeMutablePointer<heif_decoder_plugin>.allocate(capacity: 1)
      plugin.initialize(to: heif_decoder_plugin())
      plugin.pointee.plugin_api_version = 3
      pluginName.withLock { $0 = StaticText.intern(name) }
      plugin.pointee.get_plugin_name = pluginNameCallback
      plugin.pointee.does_support_format = supportsFormat
      plugin.pointee.new_decoder = newSession
      plugin.pointee.free_decoder = freeSession
      plugin.pointee.set_strict_decoding = setStrict
      plugin.pointee.push_data = pushData
      plugin.pointee.decode_image = decodeImage
      plugin.pointee.id_name = UnsafePointer(StaticText.intern(id))
      let error = heif_register_decoder_plugin(plugin)
      let result = Registration(
        code: error.code.rawValue,
        message: error.message.map { String(cString: $0) } ?? "")
      outcome = result
      return result
    }
  }

  /// What libheif said to the registration (kept: the plugin is registered once a process).
  private struct Registration: Sendable {
    var code: UInt32
    var message: String

    func check() throws {
      guard code != heif_error_Ok.rawValue else { return }
      throw HEIFError(
        "libheif refuses FrameDial's HEVC decoder plugin" + (message.isEmpty ? "" : ": \(message)"))
    }
  }

  private static let outcome = Mutex<Registration?>(nil)
  /// The plugin's name for libheif's list of decoders.
  fileprivate static let pluginName = Mutex<UnsafeMutablePointer<CChar>?>(nil)

  /// One coded picture libheif is decoding: the bytes pushed, then the decode.
  fileprivate final class Session {
    /// The decoder registered when libheif made this session.
    let decoder = registered.withLock { $0 }
    var coded: [UInt8] = []
    var strict = false

    /// Decodes the pushed picture with the registered decoder into a new libheif image at `image`; a
    /// damaged picture is an error unless ``damagedPictures`` is ``DamagedPictures/concealed`` and
    /// libheif asks for no strict decoding.
    func decode(into image: UnsafeMutablePointer<OpaquePointer?>) -> heif_error {
      guard let decoder else {
        return failure("no HEVC decoder is registered")
      }
      let refusesDamage = strict || HEVCDecoderPlugin.damagedPictures == .refused
      do {
        let made = try coded.withUnsafeBytes { bytes in
          try decoder.decodePicture(bytes, strict: refusesDamage) {
            try HEVCImage.make(from: $0, strict: strict, refusesDamage: refusesDamage)
          }
        }
        image.pointee = made
        return ok
      } catch {
        return failure("\(error)")
      }
    }
  }

  /// libheif's success.
  static var ok: heif_error {
    heif_error(
      code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: StaticText.intern("Success")
    )
  }

  /// A decoder-plugin error with `message` (kept for the process: libheif copies it only after it has
  /// freed the decoder).
  static func failure(_ message: String) -> heif_error {
    heif_error(
      code: heif_error_Decoder_plugin_error, subcode: heif_suberror_Unspecified,
      message: StaticText.intern(message))
  }
}

// The plugin's functions, as libheif calls them (C functions: they reach the plugin's state through
// HEVCDecoderPlugin's statics and the session pointer libheif passes back).

private func pluginNameCallback() -> UnsafePointer<CChar>? {
  HEVCDecoderPlugin.pluginName.withLock { UnsafePointer($0) }
}

private func supportsFormat(_ format: heif_compression_format) -> Int32 {
  format == heif_compression_HEVC && HEVCDecoderPlugin.isRegistered ? HEVCDecoderPlugin.priority : 0
}

private func newSession(_ decoder: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) -> heif_error {
  decoder?.pointee = Unmanaged.passRetained(HEVCDecoderPlugin.Session()).toOpaque()
  return HEVCDecoderPlugin.ok
}

private func freeSession(_ session: UnsafeMutableRawPointer?) {
  guard let session else { return }
  Unmanaged<HEVCDecoderPlugin.Session>.fromOpaque(session).release()
}

private func setStrict(_ session: UnsafeMutableRawPointer?, _ flag: Int32) {
  guard let session else { return }
  Unmanaged<HEVCDecoderPlugin.Session>.fromOpaque(session).takeUnretainedValue().strict = flag != 0
}

private func pushData(
  _ session: UnsafeMutableRawPointer?, _ data: UnsafeRawPointer?, _ size: Int
) -> heif_error {
  guard let session else { return HEVCDecoderPlugin.failure("no decoder") }
  guard let data else { return HEVCDecoderPlugin.ok }
  Unmanaged<HEVCDecoderPlugin.Session>.fromOpaque(session).takeUnretainedValue().coded.append(
    contentsOf: UnsafeRawBufferPointer(start: data, count: size))
  return HEVCDecoderPlugin.ok
}

private func decodeImage(
  _ session: UnsafeMutableRawPointer?, _ image: UnsafeMutablePointer<OpaquePointer?>?
) -> heif_error {
  guard let session, let image else { return HEVCDecoderPlugin.failure("no decoder") }
  return Unmanaged<HEVCDecoderPlugin.Session>.fromOpaque(session).takeUnretainedValue().decode(
    into: image)
}

/// C strings that live as long as the process, one per distinct text: libheif keeps the plugin's names,
/// and reads an error's message after the decoder that made it is gone.
enum StaticText {
  /// Distinct texts kept before every further one shares a generic text (the messages of damaged files
  /// can name their own details, and must not grow the process without end).
  private static let limit = 256
  private static let kept = Mutex<[String: UnsafeMutablePointer<CChar>]>([:])

  /// A C string of `text` that is never freed.
  static func intern(_ text: String) -> UnsafeMutablePointer<CChar> {
    kept.withLock { kept in
      if let found = kept[text] { return found }
      let key = kept.count < limit ? text : "the HEVC decoder failed"
      if let found = kept[key] { return found }
      guard let copy = strdup(key) else { return empty }
      kept[key] = copy
      return copy
    }
  }

  /// An empty C string, for when memory for a copy cannot be had.
  nonisolated(unsafe) private static let empty: UnsafeMutablePointer<CChar> = {
    let text = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
    text.initialize(to: 0)
    return text
  }()
}
