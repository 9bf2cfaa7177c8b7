import RowKernels

/// Runs `body` once for each kernel path this build and CPU have, with that path forced: the portable
/// scalar path on every machine, AVX2 and AVX-512 where the CPU has them. Kernels made inside `body`
/// take the forced path, so `body` makes its images and kernels anew. The force ends on return.
func onEveryKernelPath(_ body: (KernelPath) throws -> Void) rethrows {
  defer { KernelPath.force(nil) }
  for path in KernelPath.available {
    KernelPath.force(path)
    try body(path)
  }
}
