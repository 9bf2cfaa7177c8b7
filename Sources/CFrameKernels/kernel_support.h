// What CFrameKernels' per-pixel kernel families (lut8.c, lut16.c, mix.c, resample_bilinear8.c) share:
// their parameters, the SIMD switches and the CPU dispatch (kernel_support.c). Internal to the target.
#ifndef FRAMEDIAL_KERNEL_SUPPORT_H
#define FRAMEDIAL_KERNEL_SUPPORT_H

#include "FrameKernels.h"

#include <vips/vips.h>

// Defining FRAMEDIAL_NO_SIMD builds only the portable scalar paths.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FRAMEDIAL_NO_SIMD)
#include <immintrin.h>
#define FD_HAVE_X86_SIMD 1
#else
#define FD_HAVE_X86_SIMD 0
#endif

#if FD_HAVE_X86_SIMD
// Functions that use AVX-512 byte permutes; call them only when fd_cpu_has_avx512_vbmi().
#define FD_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))
#endif

// Parameters live as long as the output image: they are freed when libvips closes it.
typedef struct {
    int colour_bands;
    int entries;
    int output_count;
    float scale;
    int square_root_index;
    float matrix[9];
    void *tables;         // lut8 / lut16 tables, or mix input tables (floats)
    void *output_tables;  // mix only
    uint8_t *lut8_blocks; // lut8 SIMD: per colour band, 16 blocks of 16 entries, each in both lanes
    float *mix_terms;     // mix8: per input band c and value v, column c of the matrix × input_c[v]
    void *mix_tables;     // mix8 AVX-512: MixTables (input byte planes, byte permutes), or NULL
    uint32_t *mix_codes;  // mix8 AVX-512: per channel c and index i, output_c[i] << 8c
    VipsImage *input;     // the output image keeps its input alive
} KernelParams;

// Frees `params` and what it owns; the "close" handler of the kernels' output images.
void fd_free_params(VipsImage *image, KernelParams *params);

// True when the AVX2 paths may run on this CPU.
int fd_cpu_has_avx2(void);

// True when the AVX-512 byte-permute (VBMI) lookups may run on this CPU.
int fd_cpu_has_avx512_vbmi(void);

// Makes `*out` a new image like `in` whose pixels `generate` computes from `in`, owning `params`
// (freed on failure too).
int fd_attach(VipsImage *in, VipsImage **out, VipsGenerateFn generate, KernelParams *params);

// Checks that `in` has band format `format` and at least `colour_bands` (1 … 3) bands; sets a libvips
// error naming `name` and returns -1 if not.
int fd_check(VipsImage *in, VipsBandFormat format, int colour_bands, const char *name);

#endif
