// fd_colour_rows_* (see ColourRows.h): the lut8 and mix kernels' own row functions and parameters,
// applied to rgb24 or 16-bit RGB rows in the caller's buffers instead of libvips regions.

#include "ColourRows.h"

#include "colour_kernels.h"
#include "simd_support.h"

#include <stdlib.h>
#include <string.h>

typedef void (*ColourRowFunction)(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels,
    int bands);
typedef int (*ColourPlanesFunction)(const KernelParams *params, const uint8_t *const in[3],
    uint8_t *const out[3], int pixels);

struct FDColourRows {
    KernelParams *params;  // input is NULL: no image
    ColourRowFunction row; // fd_lut8_row or fd_mix8_row
    ColourPlanesFunction planes; // fd_lut8_planes or fd_mix8_planes
    int planar;                  // `planes` does whole rows or blocks on the path in force when made
    int sample_bytes;            // 1: rgb24 rows; 2: 16-bit RGB rows
};

// Wraps `params` (NULL when it could not be made), or frees it when out of memory.
static FDColourRows *colour_rows(KernelParams *params, ColourRowFunction row,
    ColourPlanesFunction planes, int planar) {
    if (!params) return NULL;
    FDColourRows *rows = calloc(1, sizeof(FDColourRows));
    if (!rows) {
        fd_kernel_params_free(params);
        return NULL;
    }
    rows->params = params;
    rows->row = row;
    rows->planes = planes;
    rows->planar = planar;
    rows->sample_bytes = params->entries == 65536 ? 2 : 1;
    return rows;
}

FDColourRows *fd_colour_rows_lut8(const uint8_t *tables) {
    if (!tables) return NULL;
    KernelParams *params = fd_lut8_params(tables, 3);
    return colour_rows(params, fd_lut8_row, fd_lut8_planes,
        params && params->lut8_blocks && fd_simd_path() == FD_SIMD_AVX512);
}

FDColourRows *fd_colour_rows_mix8(const float *input_tables, const float *matrix,
    const uint8_t *output_tables, int output_count, float scale, int square_root_index) {
    if (!input_tables || !matrix || !output_tables || output_count < 1) return NULL;
    KernelParams *params =
        fd_mix_params(256, input_tables, matrix, output_tables, output_count, scale, square_root_index);
    return colour_rows(params, fd_mix8_row, fd_mix8_planes, params && params->mix_tables);
}

FDColourRows *fd_colour_rows_lut16(const uint16_t *tables) {
    if (!tables) return NULL;
    return colour_rows(fd_lut16_params(tables, 3), fd_lut16_row, NULL, 0);
}

FDColourRows *fd_colour_rows_mix16(const float *input_tables, const float *matrix,
    const uint16_t *output_tables, int output_count, float scale, int square_root_index) {
    if (!input_tables || !matrix || !output_tables || output_count < 1) return NULL;
    KernelParams *params = fd_mix_params(
        65536, input_tables, matrix, output_tables, output_count, scale, square_root_index);
    return colour_rows(params, fd_mix_row, NULL, 0);
}

int fd_colour_rows_mix16_parts(const FDColourRows *rows, FDColourMix16 *mix) {
    if (!rows || !mix || rows->sample_bytes != 2 || !rows->params->output_tables) return 0;
    const KernelParams *params = rows->params;
    mix->input_tables = (const float *)params->tables;
    memcpy(mix->matrix, params->matrix, sizeof mix->matrix);
    mix->output_tables = (const uint16_t *)params->output_tables;
    mix->output_count = params->output_count;
    mix->scale = params->scale;
    mix->square_root_index = params->square_root_index;
    return 1;
}

int fd_colour_rows_sample_bytes(const FDColourRows *rows) { return rows ? rows->sample_bytes : 0; }

void fd_colour_rows_apply16(const FDColourRows *rows, const uint16_t *in, uint16_t *out, int pixels) {
    if (!rows || rows->sample_bytes != 2 || pixels < 1) return;
    rows->row(rows->params, (const uint8_t *)(const void *)in, (uint8_t *)(void *)out, pixels, 3);
}

void fd_colour_rows_apply(const FDColourRows *rows, const uint8_t *in, uint8_t *out, int pixels) {
    if (!rows || rows->sample_bytes != 1 || pixels < 1) return;
    rows->row(rows->params, in, out, pixels, 3);
}

int fd_colour_rows_has_planar_path(const FDColourRows *rows) {
    return rows && rows->planar && fd_simd_path() == FD_SIMD_AVX512;
}

void fd_colour_rows_apply_planes(const FDColourRows *rows, const uint8_t *const in[3],
    uint8_t *const out[3], int pixels) {
    if (!rows || rows->sample_bytes != 1 || pixels < 1) return;
    int done = rows->planes(rows->params, in, out, pixels);
    // The rest (no planar path in force, a part block) goes through the packed row code, a chunk
    // at a time.
    enum { CHUNK = 256 };
    uint8_t packed[3 * CHUNK], transformed[3 * CHUNK];
    while (done < pixels) {
        const int n = pixels - done < CHUNK ? pixels - done : CHUNK;
        for (int x = 0; x < n; x++)
            for (int c = 0; c < 3; c++) packed[3 * x + c] = in[c][done + x];
        rows->row(rows->params, packed, transformed, n, 3);
        for (int x = 0; x < n; x++)
            for (int c = 0; c < 3; c++) out[c][done + x] = transformed[3 * x + c];
        done += n;
    }
}

void fd_colour_rows_free(FDColourRows *rows) {
    if (!rows) return;
    fd_kernel_params_free(rows->params);
    free(rows);
}
