// fd_tone_map_avx2 and fd_tone_map_avx512 (see tone_map_internal.h): fd_tone_map_rgb48_row's (and
// the mixed row's) scalar arithmetic lane by lane, 8 or 16 pixels a block — table reads gathered, the
// same multiplies and adds in the same order (no fused multiply-add), selects where the scalar code
// selects — so that every path gives the same codes. The AVX2 path runs a chunk of blocks a stage
// at a time, as the scalar code does, so that the gathers of many blocks overlap; the AVX-512 path
// still takes each block through every stage (chunks are not yet measured on an AVX-512 machine).
#include "simd_support.h"
#include "tone_map_internal.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#if FD_X86_SIMD

// ---------------------------------------------------------------------------------------------
// AVX2, 8 pixels a block

// `table` at positions value × scale, interpolated, clamped at both ends (the scalar look()).
FD_AVX2 static inline __m256 look8(const float *table, const Step *s, __m256 value, float scale) {
    const __m256 position = _mm256_min_ps(
        _mm256_max_ps(_mm256_mul_ps(value, _mm256_set1_ps(scale)), _mm256_setzero_ps()),
        _mm256_set1_ps(s->last));
    const __m256i index =
        _mm256_min_epi32(_mm256_cvttps_epi32(position), _mm256_set1_epi32(s->last_index));
    const __m256 fraction = _mm256_sub_ps(position, _mm256_cvtepi32_ps(index));
    const __m256 low = _mm256_i32gather_ps(table, index, 4);
    const __m256 high = _mm256_i32gather_ps(table + 1, index, 4);
    return _mm256_add_ps(low, _mm256_mul_ps(_mm256_sub_ps(high, low), fraction));
}

// look8 from a table of (value, step) pairs (the scalar look_steps()): two 64-bit gathers of four
// pairs each, split into values and steps.
FD_AVX2 static inline __m256 look_steps8(const float *steps, const Step *s, __m256 value, float scale) {
    const __m256 position = _mm256_min_ps(
        _mm256_max_ps(_mm256_mul_ps(value, _mm256_set1_ps(scale)), _mm256_setzero_ps()),
        _mm256_set1_ps(s->last));
    const __m256i index =
        _mm256_min_epi32(_mm256_cvttps_epi32(position), _mm256_set1_epi32(s->last_index));
    const __m256 fraction = _mm256_sub_ps(position, _mm256_cvtepi32_ps(index));
    const double *pairs = (const double *)(const void *)steps;
    // Lanes 0 … 3 and 4 … 7, each pair (value, step) one double: v0 d0 v1 d1 | v2 d2 v3 d3.
    const __m256 low = _mm256_castpd_ps(_mm256_i32gather_pd(pairs, _mm256_castsi256_si128(index), 8));
    const __m256 high = _mm256_castpd_ps(_mm256_i32gather_pd(pairs, _mm256_extracti128_si256(index, 1), 8));
    // v0 v1 v4 v5 | v2 v3 v6 v7, then the 64-bit quarters in order 0, 2, 1, 3: v0 … v7.
    const __m256 values = _mm256_castpd_ps(
        _mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(low, high, 0x88)), 0xD8));
    const __m256 deltas = _mm256_castpd_ps(
        _mm256_permute4x64_pd(_mm256_castps_pd(_mm256_shuffle_ps(low, high, 0xDD)), 0xD8));
    return _mm256_add_ps(values, _mm256_mul_ps(deltas, fraction));
}

// The 8-bit codes of 8 display lights (the scalar sdr_code()): one gather of the slots' entries.
FD_AVX2 static inline __m256i codes8(__m256 light, const FDToneMap *map) {
    const __m256i bits = _mm256_castps_si256(
        _mm256_min_ps(_mm256_max_ps(light, _mm256_setzero_ps()), _mm256_set1_ps(1.0f)));
    __m256i slot = _mm256_sub_epi32(_mm256_srli_epi32(bits, 15), _mm256_set1_epi32(FD_TONE_MAP_FIRST_SLOT));
    slot = _mm256_max_epi32(slot, _mm256_setzero_si256());
    const __m256i entry = _mm256_i32gather_epi32((const int *)(const void *)map->slot_codes, slot, 4);
    // −1 where the threshold's low bits are above the light's: the first code; else the next.
    const __m256i below = _mm256_cmpgt_epi32(_mm256_and_si256(entry, _mm256_set1_epi32(0xFFFF)),
        _mm256_and_si256(bits, _mm256_set1_epi32(0x7FFF)));
    return _mm256_add_epi32(_mm256_add_epi32(_mm256_srli_epi32(entry, 16), _mm256_set1_epi32(1)), below);
}

// A mixed row's mix (FDToneMapMix) as the vector paths read it.
typedef struct {
    const float *inputs[3], *lights[3];
    float matrix[9];
    float scale, last;
    int square_root;
} Front;

static inline Front front_of(const FDToneMapMix *mix) {
    const FDColourMix16 *colour = &mix->colour;
    Front f;
    for (int c = 0; c < 3; c++) {
        f.inputs[c] = colour->input_tables + (size_t)c * 65536;
        f.lights[c] = mix->lights + (size_t)c * (size_t)colour->output_count;
    }
    memcpy(f.matrix, colour->matrix, sizeof f.matrix);
    f.scale = colour->scale;
    f.last = (float)(colour->output_count - 1);
    f.square_root = colour->square_root_index;
    return f;
}

// The lights' indexes of 8 pixels whose channels' codes are `codes`, mixed (the scalar mix_front): the
// matrix as separate multiplies and adds in its order, the index clamped as fd_mix_output_index does
// (max with 0 first, so NaN gives 0).
FD_AVX2 static inline void mixed_indexes8(const Front *f, const __m256i codes[3], __m256i out[3]) {
    __m256 in[3];
    for (int c = 0; c < 3; c++) in[c] = _mm256_i32gather_ps(f->inputs[c], codes[c], 4);
    const __m256 zero = _mm256_setzero_ps();
    for (int row = 0; row < 3; row++) {
        const float *k = f->matrix + 3 * row;
        __m256 v = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(k[0]), in[0]), _mm256_mul_ps(_mm256_set1_ps(k[1]), in[1])),
            _mm256_mul_ps(_mm256_set1_ps(k[2]), in[2]));
        if (f->square_root) v = _mm256_sqrt_ps(_mm256_max_ps(v, zero));
        __m256 position = _mm256_add_ps(_mm256_mul_ps(v, _mm256_set1_ps(f->scale)), _mm256_set1_ps(0.5f));
        position = _mm256_min_ps(_mm256_max_ps(position, zero), _mm256_set1_ps(f->last));
        out[row] = _mm256_cvttps_epi32(position);
    }
}

// Pixels a chunk of the AVX2 path's stage loops (a multiple of 8).
#define VECTOR_CHUNK 128

FD_AVX2 size_t fd_tone_map_avx2(const uint16_t *input, uint8_t *output, size_t count,
    const FDToneMap *map, const FDToneMapMix *mix, const Step *s, const Mobius *m) {
    const Front front = mix ? front_of(mix) : (Front){ 0 };
    const float *value = map->code_light ? map->code_light : map->code_value;
    const __m256 zero = _mm256_setzero_ps(), one = _mm256_set1_ps(1.0f);
    // The samples split into channels by byte shuffles (fd_rgb16_split_shuffles); the codes, packed to
    // bytes (red and green in one register, blue in another), put back in pixel order by two more.
    uint8_t split_bytes[3][3][16], join_bytes[2][2][16];
    fd_rgb16_split_shuffles(split_bytes);
    memset(join_bytes, 0x80, sizeof join_bytes);
    for (int j = 0; j < 24; j++) {
        const int channel = j % 3, k = j / 3;
        // Red is byte k and green byte 8 + k of the first register; blue byte k of the second.
        join_bytes[j / 16][channel == 2][j % 16] = (uint8_t)(channel == 1 ? 8 + k : k);
    }
    __m128i split[3][3], join[2][2];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            split[a][b] = _mm_loadu_si128((const __m128i *)(const void *)split_bytes[a][b]);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            join[a][b] = _mm_loadu_si128((const __m128i *)(const void *)join_bytes[a][b]);
    // A chunk at a time, a stage a loop (as the scalar code runs): each loop's blocks are independent,
    // so the processor overlaps the table reads of many blocks, which one block's chain through every
    // stage, table read after table read, would leave waiting.
    float planes[3][VECTOR_CHUNK] __attribute__((aligned(32)));
    int32_t indexes[3][VECTOR_CHUNK] __attribute__((aligned(32)));
    const size_t whole = count - count % 8;
    size_t x = 0;
    while (x < whole) {
        const size_t n = whole - x < VECTOR_CHUNK ? whole - x : VECTOR_CHUNK;
        // The three channels' values: gathered at their codes or, mixed, from the lights at the mix's
        // indexes, in a loop of its own (the indexes wait on the input tables' gathers).
        for (size_t k = 0; k < n; k += 8) {
            __m256i codes[3];
            fd_rgb16_split8(input + 3 * (x + k), split, codes);
            if (mix) {
                __m256i index[3];
                mixed_indexes8(&front, codes, index);
                for (int channel = 0; channel < 3; channel++)
                    _mm256_store_si256((__m256i *)(void *)(indexes[channel] + k), index[channel]);
            } else {
                for (int channel = 0; channel < 3; channel++)
                    _mm256_store_ps(planes[channel] + k, _mm256_i32gather_ps(value, codes[channel], 4));
            }
        }
        if (mix)
            for (size_t k = 0; k < n; k += 8)
                for (int channel = 0; channel < 3; channel++)
                    _mm256_store_ps(planes[channel] + k,
                        _mm256_i32gather_ps(front.lights[channel],
                            _mm256_load_si256((const __m256i *)(const void *)(indexes[channel] + k)), 4));
        // HLG's system gain, in a loop of its own (a gather at each pixel's luminance).
        float gains[VECTOR_CHUNK] __attribute__((aligned(32)));
        if (s->scene_light)
            for (size_t k = 0; k < n; k += 8) {
                __m256 r = _mm256_load_ps(planes[0] + k), g = _mm256_load_ps(planes[1] + k),
                       b = _mm256_load_ps(planes[2] + k);
                if (!mix && !map->code_light) {
                    r = look8(s->scene_light, s, r, s->signal_scale);
                    g = look8(s->scene_light, s, g, s->signal_scale);
                    b = look8(s->scene_light, s, b, s->signal_scale);
                    _mm256_store_ps(planes[0] + k, r);
                    _mm256_store_ps(planes[1] + k, g);
                    _mm256_store_ps(planes[2] + k, b);
                }
                const __m256 luminance = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(s->w0), r), _mm256_mul_ps(_mm256_set1_ps(s->w1), g)),
                    _mm256_mul_ps(_mm256_set1_ps(s->w2), b));
                _mm256_store_ps(gains + k, look_steps8(s->system_gain_steps, s, luminance, s->luminance_scale));
            }
        // Display light, inside BT.709, the curve.
        for (size_t k = 0; k < n; k += 8) {
            __m256 r = _mm256_load_ps(planes[0] + k), g = _mm256_load_ps(planes[1] + k),
                   b = _mm256_load_ps(planes[2] + k);
            if (s->scene_light) {
                const __m256 gain = _mm256_load_ps(gains + k);
                r = _mm256_mul_ps(r, gain);
                g = _mm256_mul_ps(g, gain);
                b = _mm256_mul_ps(b, gain);
            }
            if (s->converts) {
                const float *mk = s->m;
                __m256 rows[3];
                for (int row = 0; row < 3; row++)
                    rows[row] = _mm256_add_ps(
                        _mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(mk[3 * row]), r),
                            _mm256_mul_ps(_mm256_set1_ps(mk[3 * row + 1]), g)),
                        _mm256_mul_ps(_mm256_set1_ps(mk[3 * row + 2]), b));
                r = rows[0];
                g = rows[1];
                b = rows[2];
            }
            // Outside BT.709: towards the grey of the BT.709 luminance.
            const __m256 least = _mm256_min_ps(_mm256_min_ps(r, g), b);
            const __m256 grey = _mm256_max_ps(
                _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_set1_ps(0.2126f), r),
                                  _mm256_mul_ps(_mm256_set1_ps(0.7152f), g)),
                    _mm256_mul_ps(_mm256_set1_ps(0.0722f), b)),
                zero);
            // Blocks wholly inside BT.709 (most of a picture) skip the step and its division.
            const __m256 outside = _mm256_cmp_ps(least, zero, _CMP_LT_OQ);
            if (_mm256_movemask_ps(outside)) {
                const __m256 keep = _mm256_div_ps(grey, _mm256_sub_ps(grey, least));
                r = _mm256_blendv_ps(r, _mm256_add_ps(grey, _mm256_mul_ps(keep, _mm256_sub_ps(r, grey))), outside);
                g = _mm256_blendv_ps(g, _mm256_add_ps(grey, _mm256_mul_ps(keep, _mm256_sub_ps(g, grey))), outside);
                b = _mm256_blendv_ps(b, _mm256_add_ps(grey, _mm256_mul_ps(keep, _mm256_sub_ps(b, grey))), outside);
            }
            // The Möbius curve on the largest channel, the three scaled by its ratio; blocks wholly below
            // the knee keep their light (a ratio of 1 changes nothing).
            const __m256 largest =
                _mm256_max_ps(_mm256_max_ps(_mm256_max_ps(r, g), b), _mm256_set1_ps(1e-6f));
            const __m256 linear = _mm256_cmp_ps(largest, _mm256_set1_ps(m->j), _CMP_LE_OQ);
            if (_mm256_movemask_ps(linear) != 0xFF) {
                const __m256 curved = _mm256_div_ps(
                    _mm256_mul_ps(_mm256_set1_ps(m->scale), _mm256_add_ps(largest, _mm256_set1_ps(m->a))),
                    _mm256_mul_ps(_mm256_add_ps(largest, _mm256_set1_ps(m->b)), largest));
                const __m256 ratio = _mm256_blendv_ps(curved, one, linear);
                r = _mm256_mul_ps(r, ratio);
                g = _mm256_mul_ps(g, ratio);
                b = _mm256_mul_ps(b, ratio);
            }
            _mm256_store_ps(planes[0] + k, r);
            _mm256_store_ps(planes[1] + k, g);
            _mm256_store_ps(planes[2] + k, b);
        }
        // The 8-bit codes, back in pixel order.
        for (size_t k = 0; k < n; k += 8) {
            const __m256i cr = codes8(_mm256_load_ps(planes[0] + k), map);
            const __m256i cg = codes8(_mm256_load_ps(planes[1] + k), map);
            const __m256i cb = codes8(_mm256_load_ps(planes[2] + k), map);
            // Codes 0 … 255: packing to words and then bytes keeps them.
            const __m128i red_green = _mm_packus_epi16(
                _mm_packus_epi32(_mm256_castsi256_si128(cr), _mm256_extracti128_si256(cr, 1)),
                _mm_packus_epi32(_mm256_castsi256_si128(cg), _mm256_extracti128_si256(cg, 1)));
            const __m128i blue = _mm_packus_epi16(
                _mm_packus_epi32(_mm256_castsi256_si128(cb), _mm256_extracti128_si256(cb, 1)), _mm_setzero_si128());
            uint8_t *out = output + 3 * (x + k);
            _mm_storeu_si128((__m128i *)(void *)out,
                _mm_or_si128(_mm_shuffle_epi8(red_green, join[0][0]), _mm_shuffle_epi8(blue, join[0][1])));
            _mm_storel_epi64((__m128i *)(void *)(out + 16),
                _mm_or_si128(_mm_shuffle_epi8(red_green, join[1][0]), _mm_shuffle_epi8(blue, join[1][1])));
        }
        x += n;
    }
    return x;
}

// ---------------------------------------------------------------------------------------------
// AVX-512, 16 pixels a block

FD_AVX512 static inline __m512 look16(const float *table, const Step *s, __m512 value, float scale) {
    const __m512 position = _mm512_min_ps(
        _mm512_max_ps(_mm512_mul_ps(value, _mm512_set1_ps(scale)), _mm512_setzero_ps()),
        _mm512_set1_ps(s->last));
    const __m512i index =
        _mm512_min_epi32(_mm512_cvttps_epi32(position), _mm512_set1_epi32(s->last_index));
    const __m512 fraction = _mm512_sub_ps(position, _mm512_cvtepi32_ps(index));
    const __m512 low = _mm512_i32gather_ps(index, table, 4);
    const __m512 high = _mm512_i32gather_ps(index, table + 1, 4);
    return _mm512_add_ps(low, _mm512_mul_ps(_mm512_sub_ps(high, low), fraction));
}

// look_steps8 for 16 lanes: two 64-bit gathers of eight pairs, split by two-register permutes.
FD_AVX512 static inline __m512 look_steps16(const float *steps, const Step *s, __m512 value, float scale) {
    const __m512 position = _mm512_min_ps(
        _mm512_max_ps(_mm512_mul_ps(value, _mm512_set1_ps(scale)), _mm512_setzero_ps()),
        _mm512_set1_ps(s->last));
    const __m512i index =
        _mm512_min_epi32(_mm512_cvttps_epi32(position), _mm512_set1_epi32(s->last_index));
    const __m512 fraction = _mm512_sub_ps(position, _mm512_cvtepi32_ps(index));
    const double *pairs = (const double *)(const void *)steps;
    const __m512 low = _mm512_castpd_ps(_mm512_i32gather_pd(_mm512_castsi512_si256(index), pairs, 8));
    const __m512 high =
        _mm512_castpd_ps(_mm512_i32gather_pd(_mm512_extracti64x4_epi64(index, 1), pairs, 8));
    // Floats 0, 2, … 30 of low then high are the values; 1, 3, … 31 the steps.
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_add_epi32(even, _mm512_set1_epi32(1));
    const __m512 values = _mm512_permutex2var_ps(low, even, high);
    const __m512 deltas = _mm512_permutex2var_ps(low, odd, high);
    return _mm512_add_ps(values, _mm512_mul_ps(deltas, fraction));
}

FD_AVX512 static inline __m512i codes16(__m512 light, const FDToneMap *map) {
    const __m512i bits = _mm512_castps_si512(
        _mm512_min_ps(_mm512_max_ps(light, _mm512_setzero_ps()), _mm512_set1_ps(1.0f)));
    __m512i slot = _mm512_sub_epi32(_mm512_srli_epi32(bits, 15), _mm512_set1_epi32(FD_TONE_MAP_FIRST_SLOT));
    slot = _mm512_max_epi32(slot, _mm512_setzero_si512());
    const __m512i entry = _mm512_i32gather_epi32(slot, (const int *)(const void *)map->slot_codes, 4);
    const __m512i first = _mm512_srli_epi32(entry, 16);
    const __mmask16 above = _mm512_cmpge_epi32_mask(_mm512_and_si512(bits, _mm512_set1_epi32(0x7FFF)),
        _mm512_and_si512(entry, _mm512_set1_epi32(0xFFFF)));
    return _mm512_mask_add_epi32(first, above, first, _mm512_set1_epi32(1));
}

// mixed_indexes8 for 16 pixels, with the lights gathered at the indexes.
FD_AVX512 static inline void mixed16(const Front *f, const __m512i codes[3], __m512 out[3]) {
    __m512 in[3];
    for (int c = 0; c < 3; c++) in[c] = _mm512_i32gather_ps(codes[c], f->inputs[c], 4);
    const __m512 zero = _mm512_setzero_ps();
    for (int row = 0; row < 3; row++) {
        const float *k = f->matrix + 3 * row;
        __m512 v = _mm512_add_ps(
            _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(k[0]), in[0]), _mm512_mul_ps(_mm512_set1_ps(k[1]), in[1])),
            _mm512_mul_ps(_mm512_set1_ps(k[2]), in[2]));
        if (f->square_root) v = _mm512_sqrt_ps(_mm512_max_ps(v, zero));
        __m512 position = _mm512_add_ps(_mm512_mul_ps(v, _mm512_set1_ps(f->scale)), _mm512_set1_ps(0.5f));
        position = _mm512_min_ps(_mm512_max_ps(position, zero), _mm512_set1_ps(f->last));
        out[row] = _mm512_i32gather_ps(_mm512_cvttps_epi32(position), f->lights[row], 4);
    }
}

FD_AVX512 size_t fd_tone_map_avx512(const uint16_t *input, uint8_t *output, size_t count,
    const FDToneMap *map, const FDToneMapMix *mix, const Step *s, const Mobius *m) {
    const Front front = mix ? front_of(mix) : (Front){ 0 };
    const float *value = map->code_light ? map->code_light : map->code_value;
    const __m512 zero = _mm512_setzero_ps();
    // Sample k of channel c of a block of 16 pixels (48 samples, in two vectors of 32) is sample
    // 3k + c; interleave[k] puts pixel k's byte of the three codes' 16 bytes (vector lanes 0, 1, 2)
    // at byte 3k + c.
    __m512i split[3];
    uint8_t interleave[64];
    for (int channel = 0; channel < 3; channel++) {
        uint16_t at[32];
        for (int k = 0; k < 32; k++) at[k] = (uint16_t)(k < 16 ? 3 * k + channel : 0);
        split[channel] = _mm512_loadu_si512((const void *)at);
    }
    for (int i = 0; i < 64; i++) interleave[i] = (uint8_t)(i < 48 ? 16 * (i % 3) + i / 3 : 0);
    const __m512i bytes = _mm512_loadu_si512((const void *)interleave);
    const __mmask64 written = (1ull << 48) - 1;
    size_t x = 0;
    for (; x + 16 <= count; x += 16) {
        const uint16_t *in = input + 3 * x;
        const __m512i first = _mm512_loadu_si512((const void *)in);
        const __m512i second = _mm512_maskz_loadu_epi16(0xFFFF, (const void *)(in + 32));
        __m512i codes[3];
        for (int channel = 0; channel < 3; channel++)
            codes[channel] = _mm512_cvtepu16_epi32(
                _mm512_castsi512_si256(_mm512_permutex2var_epi16(first, split[channel], second)));
        __m512 c[3];
        if (mix)
            mixed16(&front, codes, c);
        else
            for (int channel = 0; channel < 3; channel++) c[channel] = _mm512_i32gather_ps(codes[channel], value, 4);
        __m512 r = c[0], g = c[1], b = c[2];
        if (s->scene_light) {
            if (!mix && !map->code_light) {
                r = look16(s->scene_light, s, r, s->signal_scale);
                g = look16(s->scene_light, s, g, s->signal_scale);
                b = look16(s->scene_light, s, b, s->signal_scale);
            }
            const __m512 luminance = _mm512_add_ps(
                _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(s->w0), r), _mm512_mul_ps(_mm512_set1_ps(s->w1), g)),
                _mm512_mul_ps(_mm512_set1_ps(s->w2), b));
            const __m512 gain = look_steps16(s->system_gain_steps, s, luminance, s->luminance_scale);
            r = _mm512_mul_ps(r, gain);
            g = _mm512_mul_ps(g, gain);
            b = _mm512_mul_ps(b, gain);
        }
        if (s->converts) {
            const float *k = s->m;
            __m512 rows[3];
            for (int row = 0; row < 3; row++)
                rows[row] = _mm512_add_ps(
                    _mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(k[3 * row]), r),
                        _mm512_mul_ps(_mm512_set1_ps(k[3 * row + 1]), g)),
                    _mm512_mul_ps(_mm512_set1_ps(k[3 * row + 2]), b));
            r = rows[0];
            g = rows[1];
            b = rows[2];
        }
        const __m512 least = _mm512_min_ps(_mm512_min_ps(r, g), b);
        const __m512 grey = _mm512_max_ps(
            _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(_mm512_set1_ps(0.2126f), r),
                              _mm512_mul_ps(_mm512_set1_ps(0.7152f), g)),
                _mm512_mul_ps(_mm512_set1_ps(0.0722f), b)),
            zero);
        // As on the AVX2 path, blocks inside BT.709 or below the knee skip those steps.
        const __mmask16 outside = _mm512_cmp_ps_mask(least, zero, _CMP_LT_OQ);
        if (outside) {
            const __m512 keep = _mm512_div_ps(grey, _mm512_sub_ps(grey, least));
            r = _mm512_mask_add_ps(r, outside, grey, _mm512_mul_ps(keep, _mm512_sub_ps(r, grey)));
            g = _mm512_mask_add_ps(g, outside, grey, _mm512_mul_ps(keep, _mm512_sub_ps(g, grey)));
            b = _mm512_mask_add_ps(b, outside, grey, _mm512_mul_ps(keep, _mm512_sub_ps(b, grey)));
        }
        const __m512 largest =
            _mm512_max_ps(_mm512_max_ps(_mm512_max_ps(r, g), b), _mm512_set1_ps(1e-6f));
        const __mmask16 linear = _mm512_cmp_ps_mask(largest, _mm512_set1_ps(m->j), _CMP_LE_OQ);
        if (linear != 0xFFFF) {
            const __m512 curved = _mm512_div_ps(
                _mm512_mul_ps(_mm512_set1_ps(m->scale), _mm512_add_ps(largest, _mm512_set1_ps(m->a))),
                _mm512_mul_ps(_mm512_add_ps(largest, _mm512_set1_ps(m->b)), largest));
            const __m512 ratio = _mm512_mask_blend_ps(linear, curved, _mm512_set1_ps(1.0f));
            r = _mm512_mul_ps(r, ratio);
            g = _mm512_mul_ps(g, ratio);
            b = _mm512_mul_ps(b, ratio);
        }
        const __m512i cr = codes16(r, map);
        const __m512i cg = codes16(g, map);
        const __m512i cb = codes16(b, map);
        __m512i packed = _mm512_castsi128_si512(_mm512_cvtepi32_epi8(cr));
        packed = _mm512_inserti32x4(packed, _mm512_cvtepi32_epi8(cg), 1);
        packed = _mm512_inserti32x4(packed, _mm512_cvtepi32_epi8(cb), 2);
        _mm512_mask_storeu_epi8(output + 3 * x, written, _mm512_permutexvar_epi8(bytes, packed));
    }
    return x;
}

#endif
