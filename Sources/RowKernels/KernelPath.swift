import CRowKernels

/// The CPU code path of FrameDial's C kernels (lookup tables, channel mixing, resampling, the YUV
/// conversions and the colour rows), chosen in one place for all of them, slowest first.
///
/// Every path gives the same output codes; only the speed differs. The kernels run the fastest path
/// this build and CPU have, limited by ``force(_:)`` or, when nothing is forced, by the
/// `FRAMEDIAL_SIMD` environment variable (`scalar`, `avx2` or `avx512`, read once, as libvips reads
/// `VIPS_VECTOR`). A build with the C define `FRAMEDIAL_NO_SIMD` has only ``scalar``.
public enum KernelPath: Int, Sendable, CaseIterable, Comparable, CustomStringConvertible {
  /// Portable C, the only path off x86-64.
  case scalar = 0
  /// x86-64 vector code up to AVX2.
  case avx2 = 1
  /// AVX-512 F, BW, VL and VBMI code (a CPU lacking any of the four runs ``avx2``).
  case avx512 = 2

  /// The fastest path this build and CPU have.
  public static var fastest: KernelPath { KernelPath(fd_simd_fastest()) }

  /// Every path this build and CPU have, slowest first: what tests compare.
  public static var available: [KernelPath] { allCases.filter { $0 <= fastest } }

  /// The path the kernels take now.
  public static var current: KernelPath { KernelPath(fd_simd_path()) }

  /// Limits every kernel made or run from now on to `path`, or a slower one where the CPU lacks it;
  /// `nil` ends the limit (the `FRAMEDIAL_SIMD` one applies again, if any).
  public static func force(_ path: KernelPath?) {
    if let path {
      fd_simd_force(path.code)
    } else {
      fd_simd_unforce()
    }
  }

  /// Throws a ``RowKernelError`` naming `FRAMEDIAL_SIMD` when `environment` sets it to something other
  /// than a path's name (the kernels would ignore it).
  public static func checkEnvironment(_ environment: [String: String]) throws {
    guard let value = environment["FRAMEDIAL_SIMD"], KernelPath(name: value) == nil else { return }
    throw RowKernelError(
      "FRAMEDIAL_SIMD is \"\(value)\"; it must be scalar, avx2 or avx512 (or unset for the fastest)"
    )
  }

  /// The path's name, as `FRAMEDIAL_SIMD` spells it: "scalar", "avx2" or "avx512".
  public var description: String { String(cString: fd_simd_name(code)) }

  /// The path named `name` ("scalar", "avx2" or "avx512"), or nil.
  public init?(name: String) {
    guard let path = Self.allCases.first(where: { $0.description == name }) else { return nil }
    self = path
  }

  /// Whether `lhs` is a slower path than `rhs`.
  public static func < (lhs: KernelPath, rhs: KernelPath) -> Bool { lhs.rawValue < rhs.rawValue }

  private init(_ code: FDSIMDPath) {
    switch code {
    case FD_SIMD_AVX512: self = .avx512
    case FD_SIMD_AVX2: self = .avx2
    default: self = .scalar
    }
  }

  private var code: FDSIMDPath {
    switch self {
    case .scalar: FD_SIMD_SCALAR
    case .avx2: FD_SIMD_AVX2
    case .avx512: FD_SIMD_AVX512
    }
  }
}
