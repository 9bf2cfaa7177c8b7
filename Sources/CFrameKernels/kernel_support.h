// What CFrameKernels' per-pixel kernel families (lut8.c, lut16.c, mix.c, resample_bilinear8.c) share:
// their parameters, the SIMD switches and the CPU dispatch (kernel_support.c), and the row functions of
// the 8-bit colour kernels that colour_rows.c runs without libvips. Internal to the target.
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

// A kernel's parameters, read-only once made. They live as long as the kernel's output image (freed when
// libvips closes it) or the FDColourRows that owns them (whose `input` is NULL).
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
    VipsImage *input;     // the output image keeps its input alive; NULL for colour rows
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

// lut8 (lut8.c): parameters holding a copy of `colour_bands` (1 … 3) × 256 tables, laid out for this
// CPU's SIMD path; NULL when out of memory.
KernelParams *fd_lut8_params(const uint8_t *tables, int colour_bands);

// lut8 of one row of `pixels` pixels of `bands` bands, `in` to `out` (not overlapping): the fastest
// path this CPU has (AVX-512 VBMI, AVX2, scalar), its tail through the scalar code.
void fd_lut8_row(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels, int bands);

// lut8 of the first pixels of a row held as three planes (R, G, B bytes), `in` to `out` (not
// overlapping), where this CPU has a planar path (AVX-512 VBMI): returns how many pixels it did
// (0 without one; the caller does the rest through fd_lut8_row).
int fd_lut8_planes(const KernelParams *params, const uint8_t *const in[3], uint8_t *const out[3],
    int pixels);

// mix (mix.c): parameters holding copies of the tables (see fd_kernel_mix; `entries` 256 or 65536,
// output_count ≥ 1), with the 8-bit SIMD paths' tables this CPU runs; NULL when out of memory.
KernelParams *fd_mix_params(int entries, const float *input_tables, const float *matrix,
    const void *output_tables, int output_count, float scale, int square_root_index);

// The 8-bit mix (entries == 256) of one row of `pixels` pixels of `bands` (≥ 3) bands, `in` to `out`
// (not overlapping), bands past 3 copied: the fastest path this CPU has (AVX-512 VBMI 64 pixels a
// step, then SSE2 for the tail; SSE2; scalar).
void fd_mix8_row(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels, int bands);

// The 8-bit mix of the first whole 64-pixel blocks of a row held as three planes (R, G, B bytes),
// `in` to `out` (not overlapping), with the codes of fd_mix8_row, where this CPU has a planar path
// (AVX-512 VBMI): returns how many pixels it did (0 without one; the caller does the rest).
int fd_mix8_planes(const KernelParams *params, const uint8_t *const in[3], uint8_t *const out[3],
    int pixels);

#endif
