// FrameDial's own conversion between YUV 4:2:0 planar frames (8-bit yuv420p, 10-bit yuv420p10le) and
// packed RGB (rgb24 for 8-bit, rgb48 in native byte order for 10-bit), matching FFmpeg's swscale with
// bicubic chroma, accurate rounding and full chroma interpolation to within one code value.
//
// YUV → RGB: chroma sits at the centre of each 2×2 block (swscale's default siting) and is enlarged to
// full resolution by a 4-tap cubic (B = 0, C = 0.6, swscale's bicubic), vertically then horizontally,
// edge samples repeated. RGB → YUV: chroma of each horizontal pixel pair is averaged, then each chroma
// row is the cubic reduction (8 taps for 2:1) of the rows around it. Sizes that do not halve evenly
// stretch the chroma grid over the frame, as swscale does. 8-bit frames convert in fixed point with
// 16-bit intermediates (as swscale keeps them), 10-bit frames in float.
#ifndef FRAMEDIAL_YUV_CONVERT_H
#define FRAMEDIAL_YUV_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#include "ColourRows.h"

// The precomputed filters and coefficients of one frame size, depth, matrix and range. Read-only once
// made, so any number of threads may convert rows with it at the same time.
typedef struct FDYUVPlan FDYUVPlan;

// A plan for width × height frames of `depth` bits (8 or 10) with `matrix` 0 (BT.601), 1 (BT.709) or 2
// (BT.2020 non-constant luminance), full range when `full_range` is non-zero (else TV range). NULL for
// bad arguments or no memory.
FDYUVPlan *fd_yuv_plan_create(int width, int height, int depth, int matrix, int full_range);

void fd_yuv_plan_free(FDYUVPlan *plan);

// Converts output rows [row_start, row_end) of a 4:2:0 frame to packed RGB. Planes hold uint8_t samples
// at 8 bits and uint16_t at 10 (native byte order); `rgb` is uint8_t × 3 or uint16_t × 3 per pixel.
// Strides are in bytes.
void fd_yuv420_to_rgb(const FDYUVPlan *plan, const void *y, ptrdiff_t y_stride, const void *u,
    ptrdiff_t u_stride, const void *v, ptrdiff_t v_stride, void *rgb, ptrdiff_t rgb_stride,
    int row_start, int row_end);

// Converts packed RGB into chroma rows [chroma_start, chroma_end) of a 4:2:0 frame and the luma rows
// they cover (2 × chroma_start … min(2 × chroma_end, height) − 1). Layouts as fd_yuv420_to_rgb.
void fd_rgb_to_yuv420(const FDYUVPlan *plan, const void *rgb, ptrdiff_t rgb_stride, void *y,
    ptrdiff_t y_stride, void *u, ptrdiff_t u_stride, void *v, ptrdiff_t v_stride, int chroma_start,
    int chroma_end);

// Transforms `pixels` 8-bit RGB pixels from `in` to `out` (separate buffers): channel c of pixel x is
// in[c][x * step]; step 1 for three planes, 3 for packed rgb24 (in[c] = in[0] + c). `context` is the
// caller's.
typedef void (*FDRGBRowTransform)(const void *context, const uint8_t *const in[3],
    uint8_t *const out[3], int step, int pixels);

// Renders an 8-bit 4:2:0 frame through an RGB transform in one pass, for chroma rows
// [chroma_start, chroma_end) of the output and the luma rows they cover: each source row is converted
// to RGB (as fd_yuv420_to_rgb; with `planar` non-zero, on the AVX-512 path, into one plane per channel,
// which saves packing and unpacking on either side of a transform that works on planes; packed rgb24
// otherwise), transformed, and converted back
// (as fd_rgb_to_yuv420) while it is in the caches, so the result is exactly that of the three
// whole-frame passes. Rows near the range's
// edges are converted by both neighbouring ranges. Returns 0, or -1 for a 10-bit plan, a NULL
// transform or no memory.
int fd_yuv420_transform(const FDYUVPlan *plan, FDRGBRowTransform transform, const void *context,
    int planar, const void *y, ptrdiff_t y_stride, const void *u, ptrdiff_t u_stride,
    const void *v, ptrdiff_t v_stride, void *out_y, ptrdiff_t out_y_stride, void *out_u,
    ptrdiff_t out_u_stride, void *out_v, ptrdiff_t out_v_stride, int chroma_start,
    int chroma_end);

// Transforms `pixels` packed 16-bit RGB pixels from `in` to `out` (separate buffers): packed rgb24
// when the transform's output is 8-bit, 16-bit RGB when it is 10-bit. `context` is the caller's.
typedef void (*FDRGB16RowTransform)(const void *context, const uint16_t *in, void *out, int pixels);

// Renders a 10-bit 4:2:0 frame (plan `plan`) in one pass into a frame of `out`'s depth (10, or 8; the
// same size), for chroma rows [chroma_start, chroma_end) of the output and the luma rows they cover:
// each source row is converted to 16-bit RGB (as fd_yuv420_to_rgb), run through `colour` (16-bit
// colour rows; NULL: none), then through `stage` (NULL: none; required for an 8-bit output, which it
// gives as rgb24), and converted back with `out` (as fd_rgb_to_yuv420) while the rows are in the
// caches, so the result is exactly that of the whole-frame passes. Rows near the range's edges are
// converted by both neighbouring ranges. Returns 0, or -1 for plans that do not fit, 8-bit colour
// rows, a missing stage or no memory.
int fd_yuv420_transform16(const FDYUVPlan *plan, const FDYUVPlan *out, const FDColourRows *colour,
    FDRGB16RowTransform stage, const void *context, const void *y, ptrdiff_t y_stride,
    const void *u, ptrdiff_t u_stride, const void *v, ptrdiff_t v_stride, void *out_y,
    ptrdiff_t out_y_stride, void *out_u, ptrdiff_t out_u_stride, void *out_v,
    ptrdiff_t out_v_stride, int chroma_start, int chroma_end);

#endif
