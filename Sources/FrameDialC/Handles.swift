import Synchronization

/// The objects behind the opaque handles given to C callers.
///
/// A handle is not an address but a number FrameDial issues once and never again: a tag in its top
/// bits (which no user-space address has), a serial number that only grows, and the kind of object in
/// its low bits. So a freed handle stays dead even when a new object lands at the same address, a
/// double free cannot release another live handle, and a stray pointer, a handle of another kind or a
/// freed one is refused with an error instead of being dereferenced. Freeing a handle while another
/// thread uses it is safe (the call in progress keeps its object alive until it returns).
enum Handles {
  /// What a handle stands for; its raw value is kept in the handle's low bits.
  enum Kind: UInt, CaseIterable {
    case state = 1
    case renderer = 2

    /// The name used in messages.
    var name: String {
      switch self {
      case .state: "state"
      case .renderer: "renderer"
      }
    }
  }

  /// The registered objects, by handle, and the last serial number issued.
  private struct Table {
    var live: [UInt: any AnyObject & Sendable] = [:]
    var issued: UInt = 0
  }

  private static let table = Mutex(Table())

  /// Bits of a handle that hold its kind.
  private static let kindBits = 4
  /// Bits of a handle that hold its serial number (the rest hold the tag).
  private static let serialBits = UInt.bitWidth - 16
  /// The top bits every handle carries: non-canonical on every 64-bit machine, so never an address.
  private static let tag: UInt = 0xFD1 << UInt(serialBits + kindBits)
  private static let tagMask: UInt = ~((1 << UInt(serialBits + kindBits)) - 1)
  /// The largest serial number a handle can carry.
  private static let largestSerial: UInt = (1 << UInt(serialBits)) - 1

  /// The parts of a handle's bit pattern, or nil when it is not a pattern FrameDial issues.
  private static func parts(of handle: OpaquePointer) -> (serial: UInt, kind: Kind?)? {
    let bits = UInt(bitPattern: handle)
    guard bits & tagMask == tag else { return nil }
    let serial = (bits >> UInt(kindBits)) & largestSerial
    return (serial, Kind(rawValue: bits & ((1 << UInt(kindBits)) - 1)))
  }

  /// Registers `object` as a handle of `kind` and returns the handle, never issued before.
  ///
  /// - Throws: ``CallError`` with `invalidArgument` once every serial number has been issued.
  static func register<T: HandleObject>(_ object: T) throws -> OpaquePointer {
    let kind = T.kind
    let bits = table.withLock { table -> UInt? in
      guard table.issued < largestSerial else { return nil }
      table.issued += 1
      let bits = tag | table.issued << UInt(kindBits) | kind.rawValue
      table.live[bits] = object
      return bits
    }
    guard let bits, let handle = OpaquePointer(bitPattern: bits) else {
      throw CallError(
        .invalidArgument, "FrameDial has issued every \(kind.name) handle it can number")
    }
    return handle
  }

  /// The object behind `handle`, a handle of `T`'s kind.
  ///
  /// - Throws: ``CallError`` with `invalidArgument` for a null pointer, a pointer FrameDial never
  ///   issued, a handle of another kind, or a handle freed already, naming `what`.
  static func object<T: HandleObject>(_ handle: OpaquePointer?, as type: T.Type, _ what: String)
    throws -> T
  {
    let kind = T.kind
    guard let handle else { throw CallError(.invalidArgument, "\(what) is a null pointer") }
    let refused = "\(what) is not a live \(kind.name)"
    guard let decoded = parts(of: handle), let found = decoded.kind, decoded.serial > 0 else {
      throw CallError(
        .invalidArgument, "\(refused) (not a handle FrameDial made: a stray or damaged pointer)")
    }
    guard found == kind else {
      throw CallError(.invalidArgument, "\(refused) (it is a \(found.name) handle)")
    }
    let (object, issued) = table.withLock { ($0.live[UInt(bitPattern: handle)], $0.issued) }
    guard let object = object as? T else {
      throw CallError(
        .invalidArgument,
        decoded.serial <= issued
          ? "\(refused) (it was freed already)"
          : "\(refused) (not a handle FrameDial made: a stray or damaged pointer)")
    }
    return object
  }

  /// Forgets `handle` if it is a live handle of `T`'s kind; anything else (NULL, freed, another kind,
  /// a stray pointer) is left alone, so a double free does nothing.
  static func release<T: HandleObject>(_ handle: OpaquePointer?, as type: T.Type) {
    guard let handle, parts(of: handle)?.kind == T.kind else { return }
    let removed = table.withLock { $0.live.removeValue(forKey: UInt(bitPattern: handle)) }
    _ = removed  // released here, outside the lock
  }
}

/// An object a C handle stands for.
protocol HandleObject: AnyObject, Sendable {
  /// The kind of handle it is given.
  static var kind: Handles.Kind { get }
}
