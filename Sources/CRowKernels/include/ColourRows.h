// FrameDial's 8-bit and 16-bit colour kernels on rows of pixels in the caller's own buffers, without
// libvips.
#ifndef FRAMEDIAL_COLOUR_ROWS_H
#define FRAMEDIAL_COLOUR_ROWS_H

#include <stdint.h>

// A per-pixel colour transform for rows of packed rgb24 or of three planes (8-bit), or of packed
// 16-bit RGB, the same arithmetic and SIMD paths as fd_kernel_lut8 / fd_kernel_lut16 / fd_kernel_mix,
// with no libvips image: for callers that hold pixels in their own buffers (the YUV frame path).
// Read-only once made: any number of threads may apply it at once.
typedef struct FDColourRows FDColourRows;

// Per-channel tables: 3 × 256 entries, R, G, B. NULL on bad arguments / no memory.
FDColourRows *fd_colour_rows_lut8(const uint8_t *tables);

// The 8-bit mix (see fd_kernel_mix with entries == 256): 3 × 256 float input tables, row-major 3×3 matrix,
// 3 × output_count 8-bit output tables, scale, square-root index. NULL on bad arguments / no memory.
FDColourRows *fd_colour_rows_mix8(const float *input_tables, const float *matrix,
    const uint8_t *output_tables, int output_count, float scale, int square_root_index);

// Per-channel tables on 16-bit RGB: 3 × 65536 entries, R, G, B. NULL on bad arguments / no memory.
FDColourRows *fd_colour_rows_lut16(const uint16_t *tables);

// The 16-bit mix (see fd_kernel_mix with entries == 65536): 3 × 65536 float input tables, row-major
// 3×3 matrix, 3 × output_count 16-bit output tables, scale, square-root index. NULL on bad arguments /
// no memory.
FDColourRows *fd_colour_rows_mix16(const float *input_tables, const float *matrix,
    const uint16_t *output_tables, int output_count, float scale, int square_root_index);

// The parts of a 16-bit mix (fd_colour_rows_mix16's arguments, in the copies `rows` holds), for code
// that runs the mix as part of its own pass (CToneMap's mixed rows).
typedef struct {
    const float *input_tables;
    float matrix[9];
    const uint16_t *output_tables;
    int output_count;
    float scale;
    int square_root_index;
} FDColourMix16;

// Fills `mix` and returns 1 when `rows` is a 16-bit mix (its tables live as long as `rows`); 0 otherwise.
int fd_colour_rows_mix16_parts(const FDColourRows *rows, FDColourMix16 *mix);

// Bytes per sample of the rows `rows` transforms: 1 (rgb24; fd_colour_rows_apply and
// fd_colour_rows_apply_planes) or 2 (16-bit RGB; fd_colour_rows_apply16).
int fd_colour_rows_sample_bytes(const FDColourRows *rows);

// Transforms `pixels` packed 16-bit RGB pixels from `in` to `out` (not overlapping) with 16-bit rows;
// nothing for 8-bit ones.
void fd_colour_rows_apply16(const FDColourRows *rows, const uint16_t *in, uint16_t *out, int pixels);

// Transforms `pixels` packed rgb24 pixels from `in` to `out` (the two must not overlap; no alignment
// needed) with 8-bit rows; nothing for 16-bit ones.
void fd_colour_rows_apply(const FDColourRows *rows, const uint8_t *in, uint8_t *out, int pixels);

// Non-zero when `rows` has a planar path and it is in force (AVX-512, see SIMDPath.h):
// fd_colour_rows_apply_planes is then faster than packing the pixels for fd_colour_rows_apply, else it
// packs them itself.
int fd_colour_rows_has_planar_path(const FDColourRows *rows);

// Transforms `pixels` pixels held as three planes (R, G, B bytes) from `in` to `out`, with the codes
// of fd_colour_rows_apply (no plane may overlap another).
void fd_colour_rows_apply_planes(const FDColourRows *rows, const uint8_t *const in[3],
    uint8_t *const out[3], int pixels);

// Frees `rows` (NULL is fine).
void fd_colour_rows_free(FDColourRows *rows);

#endif
