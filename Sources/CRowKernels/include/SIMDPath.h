// The CPU code path of every FrameDial kernel (here and in CFrameKernels' libvips nodes), chosen in
// one place: one CPU probe, one limit that tests (fd_simd_force) or the FRAMEDIAL_SIMD environment
// variable set. Every path gives the same output codes; only the speed differs.
#ifndef FRAMEDIAL_SIMD_PATH_H
#define FRAMEDIAL_SIMD_PATH_H

// The code paths, slowest first. FD_SIMD_SCALAR is portable C, the only path off x86-64 or when the
// target is built with FRAMEDIAL_NO_SIMD defined. FD_SIMD_AVX2 adds x86-64 vector code up to AVX2
// (SSE2 included); FD_SIMD_AVX512 adds AVX-512 F, BW, VL and VBMI code (a CPU lacking any of these
// four runs the AVX2 path). A kernel runs the fastest code it has at or below the path in force.
typedef enum { FD_SIMD_SCALAR = 0, FD_SIMD_AVX2 = 1, FD_SIMD_AVX512 = 2 } FDSIMDPath;

// The fastest path this build and CPU have (the CPU is probed once).
FDSIMDPath fd_simd_fastest(void);

// The path in force: fd_simd_fastest(), limited by fd_simd_force or, when nothing is forced, by the
// FRAMEDIAL_SIMD environment variable ("scalar", "avx2" or "avx512", read at the first call; any other
// value limits nothing). Kernels ask when they are made and for each row.
FDSIMDPath fd_simd_path(void);

// Limits every kernel to `path`, or a slower one where the CPU lacks it, from now on; safe to call
// from any thread. Kernels made before keep the tables of their path, so a kernel runs the slower of
// the two.
void fd_simd_force(FDSIMDPath path);

// Ends fd_simd_force: the FRAMEDIAL_SIMD limit applies again, if any.
void fd_simd_unforce(void);

// The name of `path`: "scalar", "avx2" or "avx512" (FRAMEDIAL_SIMD's values).
const char *fd_simd_name(FDSIMDPath path);

#endif
