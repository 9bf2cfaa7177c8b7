import CVips
import Foundation
import Synchronization

/// Start-up and process-wide settings of libvips.
///
/// FrameDial starts libvips once, on first use or through ``start(_:)``, with safe defaults: the operation
/// cache is off (new frames never hit it, and it would keep old frames alive), and libvips's untrusted
/// loaders (ImageMagick, PDF, SVG, Matlab, …) are blocked.
public enum Vips {
  /// Settings applied when libvips starts.
  public struct Configuration: Sendable, Equatable {
    /// Worker threads per image pipeline; `nil` keeps libvips's default (the number of cores).
    public var threads: Int?
    /// Allows libvips's loaders that are not fuzzed for hostile input. Off by default.
    public var allowUntrustedLoaders: Bool
    /// The number of operations libvips's cache may keep; 0 (the default) turns the cache off.
    public var operationCacheSize: Int

    /// Creates a configuration; the defaults are the safe ones.
    public init(
      threads: Int? = nil, allowUntrustedLoaders: Bool = false, operationCacheSize: Int = 0
    ) {
      self.threads = threads
      self.allowUntrustedLoaders = allowUntrustedLoaders
      self.operationCacheSize = operationCacheSize
    }
  }

  private static let state = Mutex<Configuration?>(nil)
  /// How many ``withOneThread(_:)`` sections are running (libvips's concurrency is 1 while any is).
  private static let oneThreadSections = Mutex(0)

  /// Starts libvips with `configuration`, or applies it when libvips is already running.
  /// Safe to call from any thread, any number of times.
  public static func start(_ configuration: Configuration = Configuration()) throws {
    try state.withLock { current in
      if current == nil {
        // libvips prints warnings (such as "ignoring nclx profile") to standard error unless
        // VIPS_WARNING is set; FrameDial reports errors itself, so they are hidden unless
        // FRAMEDIAL_VIPS_WARNINGS is set.
        if getenv("FRAMEDIAL_VIPS_WARNINGS") == nil { setenv("VIPS_WARNING", "0", 0) }
        guard FormatModules.startingWithoutModules({ vips_init("framedial") }) == 0 else {
          throw VipsError.fromLibvips("libvips could not start")
        }
        WarningJournal.install()
      }
      apply(configuration)
      current = configuration
    }
    // The untrusted loaders' priorities decide which loader claims a file, so with them allowed every
    // module is loaded before a file is sniffed.
    if configuration.allowUntrustedLoaders { FormatModules.loadIfDeferred() }
  }

  /// Applies the configuration in force again: libvips's blocking of the untrusted loaders acts on the
  /// loaders registered when it is set, so it is set again once the format modules have registered theirs.
  static func reapplyConfiguration() {
    state.withLock { current in
      if let current { apply(current) }
    }
  }

  /// Starts libvips with the default configuration if it is not running yet.
  static func ensureStarted() throws {
    if state.withLock({ $0 != nil }) { return }
    try start()
  }

  /// The configuration in force, or `nil` before start-up.
  public static var configuration: Configuration? { state.withLock { $0 } }

  /// Sets the number of worker threads per pipeline (at least 1).
  public static func setThreads(_ threads: Int) throws {
    try ensureStarted()
    state.withLock { current in
      guard var configuration = current else { return }
      configuration.threads = max(1, threads)
      apply(configuration)
      current = configuration
    }
  }

  /// Empties libvips's process-wide error buffer, so that the next failure's message is its own alone.
  /// Meaningful only while no other thread runs libvips work.
  public static func discardPendingErrors() {
    _ = ErrorJournal.take()
  }

  /// A point in the history of libvips's error messages, to ask ``errorsRaised(since:)`` later.
  public struct ErrorMark: Sendable, Equatable {
    let count: UInt64
  }

  /// The present point in the history of libvips's error messages (starting libvips if need be).
  public static func errorMark() -> ErrorMark {
    _ = try? ensureStarted()
    return ErrorMark(count: ErrorJournal.mark())
  }

  /// True when libvips raised an error message after `mark`, from any thread: a failed operation, a
  /// decoder error that libvips 8.14's thread pool lost (see ``Image/verifyDecoding(_:options:)``), or a
  /// decoder warning (libjpeg's go to the same buffer).
  public static func errorsRaised(since mark: ErrorMark) -> Bool {
    ErrorJournal.raised(since: mark.count)
  }

  /// Runs `body` with libvips computing on one thread, where a decoder's error is never lost. Pipelines
  /// other threads start meanwhile get one thread too (slower, never wrong); the thread count set by
  /// ``start(_:)`` or ``setThreads(_:)`` comes back when the last such section ends.
  static func withOneThread<T>(_ body: () throws -> T) throws -> T {
    try ensureStarted()
    // Always the state lock first, then the section count (as in `apply`).
    state.withLock { current in
      oneThreadSections.withLock { $0 += 1 }
      if let current { apply(current) }
    }
    defer {
      state.withLock { current in
        oneThreadSections.withLock { $0 -= 1 }
        if let current { apply(current) }
      }
    }
    return try body()
  }

  /// libvips's version, e.g. "8.14.1".
  public static var libraryVersion: String {
    "\(fd_version_major()).\(fd_version_minor()).\(fd_version_micro())"
  }

  /// Bytes currently allocated through libvips's tracked allocator (pixel buffers and caches).
  public static var trackedMemory: Int { Int(vips_tracked_get_mem()) }

  /// The number of live allocations made through libvips's tracked allocator.
  public static var trackedAllocations: Int { Int(vips_tracked_get_allocs()) }

  /// The highest value ``trackedMemory`` has reached.
  public static var trackedMemoryHighWater: Int { Int(vips_tracked_get_mem_highwater()) }

  private static func apply(_ configuration: Configuration) {
    vips_cache_set_max(Int32(clamping: configuration.operationCacheSize))
    if configuration.operationCacheSize == 0 {
      vips_cache_set_max_mem(0)
      vips_cache_set_max_files(0)
    }
    let oneThread = oneThreadSections.withLock { $0 > 0 }
    vips_concurrency_set(oneThread ? 1 : Int32(clamping: configuration.threads ?? 0))
    vips_block_untrusted_set(configuration.allowUntrustedLoaders ? 0 : 1)
  }
}
