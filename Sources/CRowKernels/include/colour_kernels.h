// The 8-bit colour kernels' parameters and row functions (lut8.c, mix.c), which need no libvips: what
// colour_rows.c runs on the caller's rows and CFrameKernels' lut8, lut16 and mix nodes run on libvips's
// regions. Shared with CFrameKernels (C only); not part of the CRowKernels module Swift imports.
#ifndef FRAMEDIAL_COLOUR_KERNELS_H
#define FRAMEDIAL_COLOUR_KERNELS_H

#include <stdint.h>

struct _VipsImage;

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
    struct _VipsImage *input; // a libvips node's input, kept alive by CFrameKernels; NULL for colour rows
} KernelParams;

// Frees `params` and the tables it owns (allocated with malloc); a node's `input` is released first by
// CFrameKernels.
void fd_kernel_params_free(KernelParams *params);

// lut8 (lut8.c): parameters holding a copy of `colour_bands` (1 … 3) × 256 tables, laid out for the
// SIMD path in force; NULL when out of memory.
KernelParams *fd_lut8_params(const uint8_t *tables, int colour_bands);

// lut8 of one row of `pixels` pixels of `bands` bands, `in` to `out` (not overlapping): the fastest
// path in force (AVX-512, AVX2, scalar), its tail through the scalar code.
void fd_lut8_row(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels, int bands);

// lut8 of the first pixels of a row held as three planes (R, G, B bytes), `in` to `out` (not
// overlapping), where the path in force has a planar one (AVX-512): returns how many pixels it did
// (0 without one; the caller does the rest through fd_lut8_row).
int fd_lut8_planes(const KernelParams *params, const uint8_t *const in[3], uint8_t *const out[3],
    int pixels);

// lut16 (lut16.c): parameters holding a copy of `colour_bands` (1 … 3) × 65536 tables; NULL when out
// of memory.
KernelParams *fd_lut16_params(const uint16_t *tables, int colour_bands);

// lut16 of one row of `pixels` 16-bit pixels of `bands` bands, `in` to `out` (not overlapping);
// bands past colour_bands are copied.
void fd_lut16_row(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels, int bands);

// mix (mix.c): parameters holding copies of the tables (see fd_kernel_mix; `entries` 256 or 65536,
// output_count ≥ 1), with the 8-bit SIMD tables of the path in force; NULL when out of memory.
KernelParams *fd_mix_params(int entries, const float *input_tables, const float *matrix,
    const void *output_tables, int output_count, float scale, int square_root_index);

// The mix of one row of `pixels` pixels of `bands` (≥ 3) bands, `in` to `out` (not overlapping): 8-bit
// samples (fd_mix8_row) for 256-entry input tables, 16-bit ones for 65536.
void fd_mix_row(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels, int bands);

// The 8-bit mix (entries == 256) of one row of `pixels` pixels of `bands` (≥ 3) bands, `in` to `out`
// (not overlapping), bands past 3 copied: the fastest path in force (AVX-512 64 pixels a step,
// then SSE2 for the tail; SSE2 on the AVX2 path; scalar).
void fd_mix8_row(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels, int bands);

// The 8-bit mix of the first whole 64-pixel blocks of a row held as three planes (R, G, B bytes),
// `in` to `out` (not overlapping), with the codes of fd_mix8_row, where the path in force has a planar
// one (AVX-512): returns how many pixels it did (0 without one; the caller does the rest).
int fd_mix8_planes(const KernelParams *params, const uint8_t *const in[3], uint8_t *const out[3],
    int pixels);

#endif
