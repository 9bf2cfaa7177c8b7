/// Keeps `value` alive and observed, so the optimizer cannot drop the work that produced it.
@_optimize(none)
func blackHole<T>(_ value: T) {}
