#!/usr/bin/env bash
# FrameDial's C kernels built as a machine without x86-64 vector code gets them (arm64): with
# FRAMEDIAL_NO_SIMD, every file of CRowKernels, CFrameKernels and CToneMap compiled and linked into a program
# that checks the one dispatch offers only the scalar path, even when asked for more. The scalar path's
# output is tested in the main test run, where the suites force it on every machine (fd_simd_force).
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(-DFRAMEDIAL_NO_SIMD -O1 -Werror=implicit-function-declaration -Werror=int-conversion
  -ISources/CRowKernels/include -ISources/CFrameKernels/include -ISources/CToneMap/include
  $(pkg-config --cflags vips))
for source in Sources/CRowKernels/*.c Sources/CFrameKernels/*.c Sources/CToneMap/*.c; do
  clang "${flags[@]}" -c "$source" -o "$work/$(basename "$(dirname "$source")")-$(basename "$source" .c).o"
done
cat > "$work/main.c" <<'C'
#include <stdio.h>
#include "SIMDPath.h"

int main(void) {
  if (fd_simd_fastest() != FD_SIMD_SCALAR || fd_simd_path() != FD_SIMD_SCALAR) {
    fprintf(stderr, "a FRAMEDIAL_NO_SIMD build offers %s\n", fd_simd_name(fd_simd_fastest()));
    return 1;
  }
  fd_simd_force(FD_SIMD_AVX512);
  if (fd_simd_path() != FD_SIMD_SCALAR) {
    fprintf(stderr, "a FRAMEDIAL_NO_SIMD build ran %s when forced\n", fd_simd_name(fd_simd_path()));
    return 1;
  }
  return 0;
}
C
clang "${flags[@]}" "$work/main.c" "$work"/*.o $(pkg-config --libs vips gmodule-2.0) -lm -o "$work/scalar-only"
"$work/scalar-only"
echo "The kernels build and dispatch with only their scalar path (FRAMEDIAL_NO_SIMD)."
