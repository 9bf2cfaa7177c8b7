/// The 64-bit FNV-1a hash of a text's UTF-8 bytes: small, fast and the same on every machine and run
/// (Swift's own `hashValue` is seeded per process).
enum FNV1a {
  /// The hash of `text`.
  static func hash(_ text: String) -> UInt64 {
    hash(bytes: text.utf8)
  }

  /// The hash of `bytes`.
  static func hash<Bytes: Sequence<UInt8>>(bytes: Bytes) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }
}
