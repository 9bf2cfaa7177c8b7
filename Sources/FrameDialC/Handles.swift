import Synchronization

/// The objects behind the opaque handles given to C callers, by address.
///
/// Every handle is registered here while it lives, so a null, freed or foreign pointer is refused with
/// an error instead of being dereferenced, and freeing a handle while another thread uses it is safe (the
/// call in progress keeps its object alive until it returns).
enum Handles {
  private static let live = Mutex<[UInt: any AnyObject & Sendable]>([:])

  /// Registers `object` and returns its handle.
  static func register(_ object: some AnyObject & Sendable) -> OpaquePointer {
    let pointer = Unmanaged.passUnretained(object).toOpaque()
    live.withLock { $0[UInt(bitPattern: pointer)] = object }
    return OpaquePointer(pointer)
  }

  /// The object behind `handle`, of type `T`.
  ///
  /// - Throws: ``CallError`` with `invalidArgument` for a null pointer or a pointer that is not a live
  ///   handle of that kind, naming `what`.
  static func object<T: AnyObject & Sendable>(
    _ handle: OpaquePointer?, as type: T.Type, _ what: String
  ) throws -> T {
    guard let handle else { throw CallError(.invalidArgument, "\(what) is a null pointer") }
    let found = live.withLock { $0[UInt(bitPattern: handle)] }
    guard let object = found as? T else {
      throw CallError(
        .invalidArgument, "\(what) is not a live \(what) (freed already, or never made)")
    }
    return object
  }

  /// Forgets `handle` if it is a live handle of type `T`; anything else (NULL, freed, another kind) is
  /// left alone.
  static func release<T: AnyObject & Sendable>(_ handle: OpaquePointer?, as type: T.Type) {
    guard let handle else { return }
    let address = UInt(bitPattern: handle)
    let removed = live.withLock { table -> (any AnyObject & Sendable)? in
      guard table[address] is T else { return nil }
      return table.removeValue(forKey: address)
    }
    _ = removed  // released here, outside the lock
  }
}
