// The compile-time side of the SIMD paths of every kernel, here and in CFrameKernels (C only; not part of
// the CRowKernels module Swift imports): whether this build has the x86-64 vector code at all, and the
// function attributes of the AVX2 and AVX-512 code. Which path runs is chosen at run time by
// fd_simd_path() (SIMDPath.h, simd_path.c).
#ifndef FRAMEDIAL_SIMD_SUPPORT_H
#define FRAMEDIAL_SIMD_SUPPORT_H

#include "SIMDPath.h"

// Defining FRAMEDIAL_NO_SIMD builds only the portable scalar paths.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FRAMEDIAL_NO_SIMD)
#include <immintrin.h>
#define FD_X86_SIMD 1
// Functions of the FD_SIMD_AVX2 path: call them only when fd_simd_path() >= FD_SIMD_AVX2.
#define FD_AVX2 __attribute__((target("avx2")))
// Functions of the FD_SIMD_AVX512 path: call them only when fd_simd_path() == FD_SIMD_AVX512.
#define FD_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512vl,avx512vbmi")))
#else
#define FD_X86_SIMD 0
#endif

#endif
