// What CFrameKernels' libvips nodes (lut8, lut16 and mix in colour_nodes.c and lut16.c,
// resample_bilinear8.c, reduce_lanczos3.c) share: the libvips plumbing (kernel_support.c). The colour
// kernels' parameters and row functions come from CRowKernels (colour_kernels.h), which needs no
// libvips, as do the SIMD paths (simd_support.h, one dispatch for both targets). Internal to the target.
#ifndef FRAMEDIAL_KERNEL_SUPPORT_H
#define FRAMEDIAL_KERNEL_SUPPORT_H

#include "FrameKernels.h"
#include "colour_kernels.h"
#include "simd_support.h"

#include <vips/vips.h>

// Releases a node's input and frees `params` and what it owns; the "close" handler of the kernels' output
// images.
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

// The Lanczos 3 taps of a reduction from `in_length` to `out_length` samples (the filter of
// fd_kernel_reduceh_lanczos3, stretched by the shrink): returns the number of taps; `*first` gets, per
// output sample, its first tap's input position (negative or past the end near the edges, where the edge
// sample repeats) and `*weights` its taps' weights, normalised to sum to 1, at [x * taps + k]. The
// caller frees both with g_free. The last few pairs of lengths asked for are kept (thread-safe), so
// that asking again, as every frame of a video does, costs a copy instead of the sines.
int fd_lanczos3_taps(int in_length, int out_length, int **first, double **weights);

// Checks that `in` has band format `format` and at least `colour_bands` (1 … 3) bands; sets a libvips
// error naming `name` and returns -1 if not.
int fd_check(VipsImage *in, VipsBandFormat format, int colour_bands, const char *name);

#endif
