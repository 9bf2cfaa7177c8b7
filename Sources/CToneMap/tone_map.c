// fd_display_light_row and fd_tone_map_rgb48_row (see ToneMap.h).
//
// Written for throughput on video's noisy pixels: each stage a loop of its own over a chunk (see
// display_light), selects (minss, maxss, blends) instead of branches that noise would mispredict, table
// positions found by multiplying rather than dividing, and the parameters copied into locals first,
// since the 8-bit output may alias them and would make the compiler read them again a pixel.
#include "ToneMap.h"

#include "SIMDPath.h"
#include "mix_index.h"
#include "simd_support.h"
#include "tone_map_internal.h"

#include <math.h>
#include <string.h>

// Separate multiplies and adds, so that the scalar and SIMD builds give the same float results.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// `table` (last + 1 entries) at position value × scale, interpolated, clamped at both ends.
static inline float look(const float *table, const Step *s, float value, float scale) {
    const float position = fminf(fmaxf(value * scale, 0.0f), s->last);
    const int whole = (int)position;
    const int index = whole < s->last_index ? whole : s->last_index;
    const float fraction = position - (float)index;
    return table[index] + (table[index + 1] - table[index]) * fraction;
}

// look() from a table of (value, step) pairs: the same result, since each step is the difference
// look() computes.
static inline float look_steps(const float *steps, const Step *s, float value, float scale) {
    const float position = fminf(fmaxf(value * scale, 0.0f), s->last);
    const int whole = (int)position;
    const int index = whole < s->last_index ? whole : s->last_index;
    const float fraction = position - (float)index;
    return steps[2 * index] + steps[2 * index + 1] * fraction;
}

// The display-light step on `count` pixels of three planes, in place, a stage a loop: one pixel's
// chain through every stage is too long for the processor to overlap many pixels, while each stage's
// loop has independent iterations (and those without tables can be vectorized by the compiler). With
// `decoded`, HLG's signals are already scene light (read from a code_light table).
static void display_light(
    float *red, float *green, float *blue, size_t count, const Step *s, int decoded) {
    if (s->scene_light) {
        if (!decoded)
            for (size_t x = 0; x < count; x++) {
                red[x] = look(s->scene_light, s, red[x], s->signal_scale);
                green[x] = look(s->scene_light, s, green[x], s->signal_scale);
                blue[x] = look(s->scene_light, s, blue[x], s->signal_scale);
            }
        for (size_t x = 0; x < count; x++) {
            const float luminance = s->w0 * red[x] + s->w1 * green[x] + s->w2 * blue[x];
            const float gain = look_steps(s->system_gain_steps, s, luminance, s->luminance_scale);
            red[x] *= gain;
            green[x] *= gain;
            blue[x] *= gain;
        }
    }
    const float *m = s->m;
    for (size_t x = 0; x < count; x++) {
        float r = red[x], g = green[x], b = blue[x];
        if (s->converts) {
            const float cr = m[0] * r + m[1] * g + m[2] * b;
            const float cg = m[3] * r + m[4] * g + m[5] * b;
            const float cb = m[6] * r + m[7] * g + m[8] * b;
            r = cr;
            g = cg;
            b = cb;
        }
        // Outside BT.709 (a channel below 0), towards the grey of the BT.709 luminance by
        // keep = luminance / (luminance − least); to black when that luminance is not positive.
        const float least = fminf(fminf(r, g), b);
        const float grey = fmaxf(0.2126f * r + 0.7152f * g + 0.0722f * b, 0.0f);
        const int outside = least < 0;
        const float keep = outside ? grey / (grey - least) : 1.0f;
        red[x] = outside ? grey + keep * (r - grey) : r;
        green[x] = outside ? grey + keep * (g - grey) : g;
        blue[x] = outside ? grey + keep * (b - grey) : b;
    }
}

void fd_display_light_row(float *red, float *green, float *blue, size_t count, const FDDisplayLight *light) {
    const Step s = step_of(light);
    display_light(red, green, blue, count, &s, 0);
}

// The value of `code` through the HLG decoding (its code_value for PQ).
static inline float decoded_value(const FDToneMap *map, const Step *s, int code) {
    const float value = map->code_value[code];
    return s->scene_light ? look(s->scene_light, s, value, s->signal_scale) : value;
}

void fd_tone_map_code_light(const FDToneMap *map, float *table) {
    const Step s = step_of(&map->light);
    for (int code = 0; code < 65536; code++) table[code] = decoded_value(map, &s, code);
}

void fd_tone_map_mix_lights(const FDToneMap *map, const uint16_t *output_tables, int output_count, float *lights) {
    const Step s = step_of(&map->light);
    for (size_t i = 0; i < (size_t)3 * (size_t)output_count; i++) lights[i] = decoded_value(map, &s, output_tables[i]);
}

// The mix in front of a mixed row (FDToneMapMix) on `n` pixels: the three channels' values, through
// the HLG decoding, into three planes.
static void mix_front(const uint16_t *in, size_t n, const FDToneMapMix *mix, float *red, float *green, float *blue) {
    const FDColourMix16 *colour = &mix->colour;
    const float *i0 = colour->input_tables, *i1 = i0 + 65536, *i2 = i1 + 65536;
    float m[9];
    memcpy(m, colour->matrix, sizeof m);
    const float scale = colour->scale;
    const int count = colour->output_count, last = count - 1, root = colour->square_root_index;
    const float *l0 = mix->lights, *l1 = l0 + count, *l2 = l1 + count;
    for (size_t x = 0; x < n; x++) {
        const float r = i0[in[3 * x]], g = i1[in[3 * x + 1]], b = i2[in[3 * x + 2]];
        red[x] = l0[fd_mix_output_index(m[0] * r + m[1] * g + m[2] * b, scale, last, root)];
        green[x] = l1[fd_mix_output_index(m[3] * r + m[4] * g + m[5] * b, scale, last, root)];
        blue[x] = l2[fd_mix_output_index(m[6] * r + m[7] * g + m[8] * b, scale, last, root)];
    }
}

// The 8-bit code of display light `light`: the first code of the slot its float's exponent and top 8
// mantissa bits name, or the next when the float's low 15 bits are at or above the slot's threshold's.
static inline int sdr_code(float light, const uint32_t *slot_codes) {
    const float clamped = fminf(fmaxf(light, 0.0f), 1.0f);
    uint32_t bits;
    memcpy(&bits, &clamped, sizeof bits);
    int slot = (int)(bits >> 15) - FD_TONE_MAP_FIRST_SLOT;
    slot = slot > 0 ? slot : 0;
    const uint32_t entry = slot_codes[slot];
    return (int)(entry >> 16) + ((bits & 0x7FFF) >= (entry & 0xFFFF));
}

// Pixels a chunk of fd_tone_map_rgb48_row works on, a stage at a time.
#define CHUNK 256

// fd_tone_map_rgb48_row, or fd_tone_map_mixed_rgb48_row with `mix`.
static void map_row(
    const uint16_t *input, uint8_t *output, size_t count, const FDToneMap *map, const FDToneMapMix *mix) {
    const Step s = step_of(&map->light);
    const float *code_value = map->code_value;
    const uint32_t *slot_codes = map->slot_codes;
    // libavfilter's mobius above the knee j: (b² + 2bj + j²) / (b − a) · (in + a) / (in + b).
    const Mobius curve = mobius_of(map);
    const float j = curve.j, a = curve.a, b = curve.b, scale = curve.scale;
    size_t done = 0;
#if FD_X86_SIMD
    switch (fd_simd_path()) {
    case FD_SIMD_AVX512: done = fd_tone_map_avx512(input, output, count, map, mix, &s, &curve); break;
    case FD_SIMD_AVX2: done = fd_tone_map_avx2(input, output, count, map, mix, &s, &curve); break;
    case FD_SIMD_SCALAR: break;
    }
#endif
    input += 3 * done;
    output += 3 * done;
    count -= done;
    float red[CHUNK], green[CHUNK], blue[CHUNK];
    for (size_t start = 0; start < count; start += CHUNK) {
        const size_t n = count - start < CHUNK ? count - start : CHUNK;
        const uint16_t *in = input + 3 * start;
        uint8_t *out = output + 3 * start;
        if (mix) {
            mix_front(in, n, mix, red, green, blue);
        } else {
            const float *value = map->code_light ? map->code_light : code_value;
            for (size_t x = 0; x < n; x++) {
                red[x] = value[in[3 * x]];
                green[x] = value[in[3 * x + 1]];
                blue[x] = value[in[3 * x + 2]];
            }
        }
        display_light(red, green, blue, n, &s, mix || map->code_light);
        // The largest channel (at least 1e-6) through the curve; the three scaled by its ratio.
        for (size_t x = 0; x < n; x++) {
            const float largest = fmaxf(fmaxf(fmaxf(red[x], green[x]), blue[x]), 1e-6f);
            const float ratio = largest <= j ? 1.0f : scale * (largest + a) / ((largest + b) * largest);
            red[x] *= ratio;
            green[x] *= ratio;
            blue[x] *= ratio;
        }
        for (size_t x = 0; x < n; x++) {
            out[3 * x] = (uint8_t)sdr_code(red[x], slot_codes);
            out[3 * x + 1] = (uint8_t)sdr_code(green[x], slot_codes);
            out[3 * x + 2] = (uint8_t)sdr_code(blue[x], slot_codes);
        }
    }
}

void fd_tone_map_rgb48_row(const uint16_t *input, uint8_t *output, size_t count, const FDToneMap *map) {
    map_row(input, output, count, map, NULL);
}

void fd_tone_map_mixed_rgb48_row(
    const uint16_t *input, uint8_t *output, size_t count, const FDToneMap *map, const FDToneMapMix *mix) {
    map_row(input, output, count, map, mix);
}
