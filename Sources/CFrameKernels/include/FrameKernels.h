// FrameDial's fused per-pixel kernels, each a node of a libvips graph: libvips still owns tiling,
// threading and I/O, and calls these kernels on each region it needs. At the end, the one piece of C
// plumbing around libvips itself: loading its format modules when they are first needed.
#ifndef FRAMEDIAL_FRAME_KERNELS_H
#define FRAMEDIAL_FRAME_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef struct _VipsImage VipsImage;

// Per-channel lookup tables on an 8-bit image: colour band c (c < colour_bands) of every pixel becomes
// tables[c * 256 + value]; bands past colour_bands (alpha) are copied. The tables are copied.
int fd_kernel_lut8(VipsImage *in, VipsImage **out, const uint8_t *tables, int colour_bands);

// The same for a 16-bit image with tables of 65536 entries per colour band.
int fd_kernel_lut16(VipsImage *in, VipsImage **out, const uint16_t *tables, int colour_bands);

// Channel mixing on a 3-colour-band image (8-bit when entries == 256, 16-bit when entries == 65536):
// linear = input_tables[c * entries + value] (c = 0, 1, 2); mixed = matrix (row-major 3×3) × linear;
// position = (square_root_index ? sqrt(max(mixed_c, 0)) : mixed_c) * scale + 0.5;
// index = position > 0 ? min((int)position, output_count - 1) : 0 (NaN gives 0);
// out_c = output_tables[c * output_count + index].
// Output tables hold 8-bit values for 8-bit input and 16-bit values for 16-bit input. Alpha is copied.
int fd_kernel_mix(VipsImage *in, VipsImage **out, int entries, const float *input_tables,
    const float *matrix, const void *output_tables, int output_count, float scale, int square_root_index);

// Enlarges (or shrinks) an 8-bit image of 1 … 4 bands to width × height with bilinear interpolation,
// sampling output pixel centres onto input pixel centres: x_in = (x + 0.5) * in_width / width - 0.5,
// clamped to the image (edge pixels repeat); the same for y. Every band is interpolated alike.
int fd_kernel_resize_bilinear8(VipsImage *in, VipsImage **out, int width, int height);

// Reduces an 8-bit image of 1 … 4 bands to `width` columns (at most its own) with a Lanczos 3 filter
// stretched by the shrink factor s = in_width / width (support ±3s input pixels; ±3 when s ≤ 1): output
// column x centres on input position (x + 0.5) s − 0.5; its weights are normalised to sum to 1 in 14-bit
// fixed point; edge pixels repeat. Every band is filtered alike; rows are unchanged.
int fd_kernel_reduceh_lanczos3(VipsImage *in, VipsImage **out, int width);

// The same filter on a 16-bit image of 1 … 4 bands, along one axis: reduceh to `width` columns (rows
// unchanged), reducev to `height` rows (columns unchanged), at most the image's own. Weights and sums
// are in single precision; each output is rounded to the nearest code and clamped to 0 … 65535.
int fd_kernel_reduceh_lanczos3_16(VipsImage *in, VipsImage **out, int width);
int fd_kernel_reducev_lanczos3_16(VipsImage *in, VipsImage **out, int height);

// The same for the real-valued window left … left + window_width, top … top + window_height of `in`
// (pixel i covers i … i + 1): x_in = left + (x + 0.5) * window_width / width - 0.5, clamped to the image.
// fd_kernel_resize_bilinear8 is the window 0, 0, in_width × in_height.
int fd_kernel_resample_bilinear8(VipsImage *in, VipsImage **out, int width, int height, double left, double top,
    double window_width, double window_height);

// Loads libvips's format modules as its start-up does: every module in vips-modules-MAJOR.MINOR beside
// the libvips library this process runs is opened (registering its operations) and kept resident.
// Returns the number loaded, or -1 when that folder cannot be found or read.
int fd_vips_load_modules(void);

#endif
