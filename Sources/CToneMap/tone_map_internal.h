// What tone_map.c and its SIMD builds (tone_map_simd.c) share (internal to the target).
#ifndef FRAMEDIAL_TONE_MAP_INTERNAL_H
#define FRAMEDIAL_TONE_MAP_INTERNAL_H

#include "ToneMap.h"

#include <math.h>
#include <string.h>

// The step's parameters, as locals use them.
typedef struct {
    const float *scene_light, *system_gain_steps;
    float last;  // table_size
    int last_index;  // table_size − 1
    float signal_scale, luminance_scale;  // table_size / signal_top, table_size / luminance_top
    float w0, w1, w2;
    int converts;
    float m[9];
} Step;

static inline Step step_of(const FDDisplayLight *d) {
    Step s;
    s.scene_light = d->scene_light;
    s.system_gain_steps = d->system_gain_steps;
    s.last = (float)d->table_size;
    s.last_index = d->table_size - 1;
    s.signal_scale = (float)d->table_size / d->signal_top;
    s.luminance_scale = (float)d->table_size / d->luminance_top;
    s.w0 = d->weights[0];
    s.w1 = d->weights[1];
    s.w2 = d->weights[2];
    s.converts = d->converts;
    memcpy(s.m, d->matrix, sizeof s.m);
    return s;
}

// The Möbius curve's constants above the knee j (libavfilter's mobius):
// f(in) = scale · (in + a) / (in + b), for the largest channel above j.
typedef struct {
    float j, a, b, scale;
} Mobius;

static inline Mobius mobius_of(const FDToneMap *map) {
    Mobius c;
    const float j = map->knee, peak = map->peak;
    c.j = j;
    c.a = -j * j * (peak - 1.0f) / (j * j - 2.0f * j + peak);
    c.b = (j * j - 2.0f * j * peak + peak) / fmaxf(peak - 1.0f, 1e-6f);
    c.scale = (c.b * c.b + 2.0f * c.b * c.j + c.j * c.j) / (c.b - c.a);
    return c;
}

// The SIMD builds of fd_tone_map_rgb48_row and, with `mix`, fd_tone_map_mixed_rgb48_row
// (tone_map_simd.c): each maps the longest prefix of whole blocks of `count` pixels (8 on the AVX2 path,
// 16 on the AVX-512 path) with exactly the scalar code's arithmetic, and returns its length; the scalar
// code maps the rest. Call only on their paths.
size_t fd_tone_map_avx2(const uint16_t *input, uint8_t *output, size_t count, const FDToneMap *map,
    const FDToneMapMix *mix, const Step *s, const Mobius *m);
size_t fd_tone_map_avx512(const uint16_t *input, uint8_t *output, size_t count, const FDToneMap *map,
    const FDToneMapMix *mix, const Step *s, const Mobius *m);

#endif
