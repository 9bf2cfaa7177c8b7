// What CFrameKernels' per-pixel kernel families (lut8.c, lut16.c, mix.c, resample_bilinear8.c,
// reduce_lanczos3.c) share: their parameters and libvips plumbing (kernel_support.c), and the row
// functions of the 8-bit colour kernels that colour_rows.c runs without libvips. Internal to the target; the SIMD paths are chosen
// through simd_support.h.
#ifndef FRAMEDIAL_KERNEL_SUPPORT_H
#define FRAMEDIAL_KERNEL_SUPPORT_H

#include "FrameKernels.h"
#include "simd_support.h"

#include <vips/vips.h>

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

// Makes `*out` a new image like `in` whose pixels `generate` computes from `in`, owning `params`
// (freed on failure too).
int fd_attach(VipsImage *in, VipsImage **out, VipsGenerateFn generate, KernelParams *params);

// Makes `*out` a new image like `in` but of `width` × `height` pixels, which `generate` computes from
// `in` in sequences that `start` makes and `stop` ends. The image owns `params`: `free_params` (its
// "close" handler, called with the image and `params`) frees them, on failure here too. `*input`, a
// field of `params`, is given a reference to `in`, which keeps the input alive as long as the image.
// The caller has checked `in` with vips_image_pio_input.
int fd_attach_image(VipsImage *in, VipsImage **out, int width, int height, VipsStartFn start,
    VipsGenerateFn generate, VipsStopFn stop, void *params, VipsImage **input, GCallback free_params);

// A per-pixel kernel's row function: `pixels` pixels of `bands` bands, `in` to `out` (not overlapping).
typedef void (*FDRowFunction)(const KernelParams *params, const VipsPel *in, VipsPel *out, int pixels,
    int bands);

// The body of a per-pixel kernel's generate function: prepares the input region (the sequence `seq`)
// over `out_region`'s valid area and runs `row` on each of its rows. Inline, so that each kernel's
// generate function calls its own row function directly.
static inline int fd_generate_rows(VipsRegion *out_region, void *seq, const KernelParams *params,
    FDRowFunction row) {
    VipsRegion *in_region = (VipsRegion *)seq;
    VipsRect *rect = &out_region->valid;
    if (vips_region_prepare(in_region, rect)) return -1;
    const int bands = out_region->im->Bands;
    for (int y = 0; y < rect->height; y++)
        row(params, VIPS_REGION_ADDR(in_region, rect->left, rect->top + y),
            VIPS_REGION_ADDR(out_region, rect->left, rect->top + y), rect->width, bands);
    return 0;
}

// Checks that `in` has band format `format` and at least `colour_bands` (1 … 3) bands; sets a libvips
// error naming `name` and returns -1 if not.
int fd_check(VipsImage *in, VipsBandFormat format, int colour_bands, const char *name);

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

// mix (mix.c): parameters holding copies of the tables (see fd_kernel_mix; `entries` 256 or 65536,
// output_count ≥ 1), with the 8-bit SIMD tables of the path in force; NULL when out of memory.
KernelParams *fd_mix_params(int entries, const float *input_tables, const float *matrix,
    const void *output_tables, int output_count, float scale, int square_root_index);

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
