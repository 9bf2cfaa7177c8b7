// The CPU probe and the path limit of every kernel (see SIMDPath.h).

#include "simd_support.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

enum { UNKNOWN = -1, NO_LIMIT = 3 };

static _Atomic int fastest = UNKNOWN;      // the probe's answer
static _Atomic int environment = UNKNOWN;  // FRAMEDIAL_SIMD's limit, or NO_LIMIT
static _Atomic int forced = NO_LIMIT;      // fd_simd_force's limit, or NO_LIMIT

static int probe(void) {
#if FD_X86_SIMD
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2")) return FD_SIMD_SCALAR;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi"))
        return FD_SIMD_AVX512;
    return FD_SIMD_AVX2;
#else
    return FD_SIMD_SCALAR;
#endif
}

static int environment_limit(void) {
    const char *value = getenv("FRAMEDIAL_SIMD");
    if (!value) return NO_LIMIT;
    for (int path = FD_SIMD_SCALAR; path <= FD_SIMD_AVX512; path++)
        if (strcmp(value, fd_simd_name((FDSIMDPath)path)) == 0) return path;
    return NO_LIMIT;
}

FDSIMDPath fd_simd_fastest(void) {
    int path = atomic_load_explicit(&fastest, memory_order_relaxed);
    if (path == UNKNOWN) {
        path = probe();
        atomic_store_explicit(&fastest, path, memory_order_relaxed);
    }
    return (FDSIMDPath)path;
}

FDSIMDPath fd_simd_path(void) {
    int limit = atomic_load_explicit(&forced, memory_order_relaxed);
    if (limit == NO_LIMIT) {
        limit = atomic_load_explicit(&environment, memory_order_relaxed);
        if (limit == UNKNOWN) {
            limit = environment_limit();
            atomic_store_explicit(&environment, limit, memory_order_relaxed);
        }
    }
    const int path = fd_simd_fastest();
    return (FDSIMDPath)(limit < path ? limit : path);
}

void fd_simd_force(FDSIMDPath path) {
    const int wanted = (int)path;
    const int limit = wanted < FD_SIMD_SCALAR ? FD_SIMD_SCALAR : wanted > FD_SIMD_AVX512 ? FD_SIMD_AVX512 : wanted;
    atomic_store_explicit(&forced, limit, memory_order_relaxed);
}

void fd_simd_unforce(void) { atomic_store_explicit(&forced, NO_LIMIT, memory_order_relaxed); }

const char *fd_simd_name(FDSIMDPath path) {
    switch (path) {
    case FD_SIMD_SCALAR: return "scalar";
    case FD_SIMD_AVX2: return "avx2";
    case FD_SIMD_AVX512: return "avx512";
    }
    return "scalar";
}
