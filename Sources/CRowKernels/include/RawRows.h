// The last step of a camera raw's development and FrameDial's colour stages in one pass over LibRaw's
// working picture, without libvips: for a raw rendered to 8 bits with no geometry (no zoom, no resize).
#ifndef FRAMEDIAL_RAW_ROWS_H
#define FRAMEDIAL_RAW_ROWS_H

#include <stddef.h>
#include <stdint.h>

// Converts `pixels` pixels of LibRaw's working picture (four 16-bit samples a pixel, red, green, blue
// and a fourth that is ignored) in place into packed 8-bit RGB (three bytes a pixel from the start of
// the same memory; every byte is written after the samples it overwrites were read).
//
// First LibRaw's own conversion from the camera's colours, as its convert_to_rgb does for sRGB output:
// v_c = min(max((int)(camera[3c] * r + camera[3c + 1] * g + camera[3c + 2] * b), 0), 65535), in float,
// products and sums in that order (truncated toward zero). Then, with `mix` zero, out_c =
// tables8[c * 65536 + v_c]; with `mix` non-zero, the mix kernel's definition (see fd_kernel_mix) on
// linear = input_tables[c * 65536 + v_c], with 8-bit output_tables of output_count entries a channel.
// Unused tables may be NULL. Every code path (scalar, AVX2) gives the same bytes. Returns 0, or -1 (the
// picture untouched) for a missing table or when out of memory.
int fd_raw_rows_convert(uint16_t *picture, size_t pixels, const float *camera, int mix,
    const uint8_t *tables8, const float *input_tables, const float *matrix, const uint8_t *output_tables,
    int output_count, float scale, int square_root_index);

#endif
