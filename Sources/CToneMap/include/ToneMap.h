// FrameDial's tone mapping of HDR video (HLG or PQ) to SDR BT.709, in plain C: the whole mapping of
// packed 16-bit R′G′B′ to packed 8-bit RGB that video frames (row by row), the studio and `--frame-at`
// stills run, and its display-light step alone on planar float frames, which the tests' reference
// chain runs between libavfilter's zscale and tonemap (the same maths as zscale → this step →
// tonemap=mobius → zscale).
#ifndef FRAMEDIAL_TONE_MAP_H
#define FRAMEDIAL_TONE_MAP_H

#include "ColourRows.h"

#include <stddef.h>
#include <stdint.h>

// From what zscale gives to BT.709 display light, 1.0 being reference white, every colour inside BT.709:
// - with `scene_light` (HLG), the values are signals: each is decoded by `scene_light` (BT.2100's
//   inverse OETF tabulated over 0 … signal_top, table_size + 1 entries, read with linear interpolation,
//   clamped at both ends), then all three are multiplied by the OOTF's gain Lw/203 · Ys^(γ−1) at their
//   luminance Ys (`weights`), tabulated over 0 … luminance_top and read the same way from
//   `system_gain_steps`: table_size pairs (the gain at position i, then the gain at i + 1 minus it),
//   so that one 64-bit read gives both ends of an interpolation;
//   without it (PQ), the values are already display light;
// - with `converts`, `matrix` (row-major 3 × 3) takes BT.2020 to BT.709;
// - a colour with a channel below 0 moves towards the grey of its BT.709 luminance until that channel
//   is 0 (black when that luminance is not positive).
typedef struct {
    const float *scene_light;
    const float *system_gain_steps;
    int table_size;
    float signal_top;
    float luminance_top;
    float weights[3];
    int converts;
    float matrix[9];
} FDDisplayLight;

// The display-light step on `count` pixels of three float planes, in place.
void fd_display_light_row(float *red, float *green, float *blue, size_t count, const FDDisplayLight *light);

// The whole mapping of packed 16-bit R′G′B′ (three samples a pixel) to packed 8-bit RGB (three bytes a
// pixel): a sample's value is `code_value[code]` (HLG: code / 65535; PQ: its display light), then the
// display-light step, then libavfilter's tonemap=mobius with desat=0 (the largest channel, at least
// 1e-6, through the Möbius curve linear up to `knee` and reaching 1 at `peak`; the three channels
// scaled by its ratio), then BT.709's SDR encoding: code k (0 … 255) is the one whose range
// thresholds[k] ≤ light < thresholds[k + 1] holds the channel's light (thresholds[0] = −∞,
// thresholds[256] = +∞, and between them the display lights of codes 0.5 … 254.5 through BT.1886's
// 2.4 power). The code is read from a table of slots, a slot being the lights that share a float's
// exponent and top 8 mantissa bits (its bits >> 15), from 2^−24 up to 1.0 (lights below 2^−24 read
// slot 0, lights above 1.0 the last). No slot holds two thresholds (the codes of consecutive slots
// differ by one at most), and a threshold inside a slot shares the slot's top bits with every light in
// it, so `slot_codes` holds, for each slot, the code k of its least light in the high 16 bits and, in
// the low 16, the low 15 bits of thresholds[k + 1] when that threshold lies inside the slot (0x8000,
// above every light's low 15 bits, when it does not): a light's code is k, plus one when the low 15
// bits of its float are at or above that number. Every path of the CPU dispatch (CRowKernels'
// SIMDPath.h: scalar, AVX2 8 pixels a step, AVX-512 16) gives the same codes.
enum { FD_TONE_MAP_FIRST_SLOT = (127 - 24) << 8, FD_TONE_MAP_SLOTS = (24 << 8) + 1 };
typedef struct {
    FDDisplayLight light;
    const float *code_value;
    // NULL, or each code's value already through the HLG decoding (fd_tone_map_code_light): read in
    // place of `code_value` and the decoding, with the same results.
    const float *code_light;
    float knee;
    float peak;
    const uint32_t *slot_codes;
} FDToneMap;

// Fills `table` (65536 entries) with each code's value through the HLG decoding of `map` (its
// code_value for PQ), as fd_tone_map_rgb48_row computes it: map->code_light's table.
void fd_tone_map_code_light(const FDToneMap *map, float *table);

// Maps `count` pixels from `input` to `output`, on the fastest path in force.
void fd_tone_map_rgb48_row(const uint16_t *input, uint8_t *output, size_t count, const FDToneMap *map);

// A 16-bit channel mix (CRowKernels' fd_colour_rows_mix16, its parts as fd_colour_rows_mix16_parts gives
// them) in front of the mapping, the two as one step: a pixel's three samples are read through the
// mix's input tables and mixed by its matrix as the mix kernel does, and channel c's index into its
// output table (fd_mix_output_index) reads `lights[c · output_count + index]`: the value the mapping
// reads for the code the mix's output table holds there, already through the HLG decoding
// (fd_tone_map_mix_lights). The mapping goes on from there as for that code, so a mixed row gives the
// codes of the mix's 16-bit codes mapped by fd_tone_map_rgb48_row.
typedef struct {
    FDColourMix16 colour;
    const float *lights;
} FDToneMapMix;

// Fills `lights` (3 × output_count) with the value `map` reads, through the HLG decoding, for each of
// the mix's 16-bit `output_tables` codes (3 × output_count).
void fd_tone_map_mix_lights(const FDToneMap *map, const uint16_t *output_tables, int output_count, float *lights);

// Mixes `count` pixels from `input` by `mix` and maps them to `output`, on the fastest path in force.
void fd_tone_map_mixed_rgb48_row(
    const uint16_t *input, uint8_t *output, size_t count, const FDToneMap *map, const FDToneMapMix *mix);

#endif
