// The mix kernel's parameters and row functions (see colour_kernels.h): input tables, 3×3 matrix,
// output tables, for CFrameKernels' fd_kernel_mix and colour_rows.c.

#include "colour_kernels.h"
#include "mix_index.h"
#include "simd_support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// The mix kernel's matrix is evaluated as separate multiplies and adds everywhere, so that the
// scalar and SIMD paths (and every platform) give the same float results.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// Scalar mix of `n` pixels of `bands` bands of `Sample` (alpha and further bands copied), with input
// tables of `entries` floats per channel: mix8_scalar and mix16_scalar.
#define FD_DEFINE_MIX_SCALAR(name, Sample, entries)                                                        \
    static void name(const Sample *p, Sample *q, int n, int bands, const KernelParams *params) {         \
        const float *i0 = (const float *)params->tables, *i1 = i0 + (entries), *i2 = i1 + (entries);     \
        const float *m = params->matrix;                                                                 \
        const float scale = params->scale;                                                               \
        const int count = params->output_count, last = count - 1, sqrt_index = params->square_root_index; \
        const Sample *o0 = (const Sample *)params->output_tables, *o1 = o0 + count, *o2 = o1 + count;    \
        for (int x = 0; x < n; x++) {                                                                    \
            const float r = i0[p[0]], g = i1[p[1]], bl = i2[p[2]];                                       \
            q[0] = o0[fd_mix_output_index(m[0] * r + m[1] * g + m[2] * bl, scale, last, sqrt_index)];    \
            q[1] = o1[fd_mix_output_index(m[3] * r + m[4] * g + m[5] * bl, scale, last, sqrt_index)];    \
            q[2] = o2[fd_mix_output_index(m[6] * r + m[7] * g + m[8] * bl, scale, last, sqrt_index)];    \
            for (int c = 3; c < bands; c++) q[c] = p[c];                                                 \
            p += bands;                                                                                  \
            q += bands;                                                                                  \
        }                                                                                                \
    }
FD_DEFINE_MIX_SCALAR(mix8_scalar, uint8_t, 256)
FD_DEFINE_MIX_SCALAR(mix16_scalar, uint16_t, 65536)

#if FD_X86_SIMD
// What the AVX2 16-bit mix paths hold in registers: the matrix, the index's constants, the tables.
typedef struct {
    __m256 m[9], scale, half, zero, last;
    const float *tables[3];
    const uint16_t *outputs;
    int count, square_root;
} Mix16AVX2;

FD_AVX2 static inline Mix16AVX2 mix16_avx2_constants(const KernelParams *params) {
    Mix16AVX2 k;
    for (int i = 0; i < 9; i++) k.m[i] = _mm256_set1_ps(params->matrix[i]);
    k.count = params->output_count;
    k.square_root = params->square_root_index;
    k.scale = _mm256_set1_ps(params->scale);
    k.half = _mm256_set1_ps(0.5f);
    k.zero = _mm256_setzero_ps();
    k.last = _mm256_set1_ps((float)(k.count - 1));
    for (int c = 0; c < 3; c++) k.tables[c] = (const float *)params->tables + (size_t)c * 65536;
    k.outputs = (const uint16_t *)params->output_tables;
    return k;
}

// The output tables' indexes of 8 pixels whose channel samples are `samples`: the input floats
// gathered from the tables, the matrix as the scalar path's multiplies and adds in its order (no fused
// multiply-add), the index clamped as fd_mix_output_index does (max with 0 first, so NaN gives 0).
FD_AVX2 static inline void mix16_avx2_indexes(const Mix16AVX2 *k, const __m256i samples[3], __m256i indexes[3]) {
    __m256 in[3];
    for (int c = 0; c < 3; c++) in[c] = _mm256_i32gather_ps(k->tables[c], samples[c], 4);
    for (int row = 0; row < 3; row++) {
        __m256 v = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(k->m[row * 3], in[0]), _mm256_mul_ps(k->m[row * 3 + 1], in[1])),
            _mm256_mul_ps(k->m[row * 3 + 2], in[2]));
        if (k->square_root) v = _mm256_sqrt_ps(_mm256_max_ps(v, k->zero));
        __m256 position = _mm256_add_ps(_mm256_mul_ps(v, k->scale), k->half);
        position = _mm256_min_ps(_mm256_max_ps(position, k->zero), k->last);
        indexes[row] = _mm256_cvttps_epi32(position);
    }
}

// The codes (in the low half of each lane) at 8 indexes of output table `row`, gathered as 32-bit words
// at their 16-bit offsets, of which the low half is the code (the output tables have two bytes of
// padding after the last).
FD_AVX2 static inline __m256i mix16_avx2_codes(const Mix16AVX2 *k, int row, __m256i index) {
    const int *outputs = (const int *)(const void *)(k->outputs + (size_t)row * k->count);
    return _mm256_and_si256(_mm256_i32gather_epi32(outputs, index, 2), _mm256_set1_epi32(0xFFFF));
}

// The codes (in the low half of each lane) of 8 pixels whose channel samples are `samples`.
FD_AVX2 static inline void mix16_avx2_block(const Mix16AVX2 *k, const __m256i samples[3], __m256i codes[3]) {
    __m256i indexes[3];
    mix16_avx2_indexes(k, samples, indexes);
    for (int row = 0; row < 3; row++) codes[row] = mix16_avx2_codes(k, row, indexes[row]);
}

// AVX2 mix of 16-bit pixels of four bands (the fourth copied; RGB rows take mix16_avx2_rgb), 8 at a
// time, giving exactly mix16_scalar's codes (mix16_avx2_block). Returns the pixels done, a multiple of
// 8; mix16_scalar does the rest.
FD_AVX2 static int mix16_avx2(
    const uint16_t *p, uint16_t *q, int n, int bands, const KernelParams *params) {
    const Mix16AVX2 k = mix16_avx2_constants(params);
    int x = 0;
    for (; x + 8 <= n; x += 8, p += 8 * bands, q += 8 * bands) {
        __m256i samples[3], mixed[3];
        for (int c = 0; c < 3; c++) {
            const uint16_t *s = p + c;
            samples[c] = _mm256_setr_epi32(s[0], s[bands], s[2 * bands], s[3 * bands], s[4 * bands],
                s[5 * bands], s[6 * bands], s[7 * bands]);
        }
        mix16_avx2_block(&k, samples, mixed);
        uint32_t codes[3][8];
        for (int row = 0; row < 3; row++) _mm256_storeu_si256((__m256i *)(void *)codes[row], mixed[row]);
        for (int i = 0; i < 8; i++) {
            uint16_t *pixel = q + i * bands;
            pixel[0] = (uint16_t)codes[0][i];
            pixel[1] = (uint16_t)codes[1][i];
            pixel[2] = (uint16_t)codes[2][i];
            for (int c = 3; c < bands; c++) pixel[c] = p[i * bands + c];
        }
    }
    return x;
}
#endif

#if FD_X86_SIMD
// Byte shuffles between 8 packed RGB pixels of 16-bit samples (three 128-bit registers, words 0 … 23)
// and three channel registers (word k of channel c is sample 3k + c): split as fd_rgb16_split_shuffles
// makes them; join[r][c] puts channel c's words into output register r, zeroing the other words' bytes
// (0x80), so that OR-ing the three shuffles of a register gives it whole.
typedef struct {
    uint8_t split[3][3][16];
    uint8_t join[3][3][16];
} Mix16Shuffles;

static Mix16Shuffles mix16_shuffles(void) {
    Mix16Shuffles t;
    fd_rgb16_split_shuffles(t.split);
    memset(t.join, 0x80, sizeof t.join);
    for (int sample = 0; sample < 24; sample++) {
        const int c = sample % 3, k = sample / 3, r = sample / 8, word = sample % 8;
        t.join[r][c][2 * word] = (uint8_t)(2 * k);
        t.join[r][c][2 * word + 1] = (uint8_t)(2 * k + 1);
    }
    return t;
}

// AVX2 mix of 16-bit RGB pixels, 8 at a time, giving exactly mix16_scalar's codes as mix16_avx2 does (by
// mix16_avx2_indexes, then mix16_avx2_codes), with the samples split into channels and the codes put back in
// pixel order by byte shuffles instead of a load and a store a sample. Returns the pixels done, a
// multiple of 8.
FD_AVX2 static int mix16_avx2_rgb(const uint16_t *p, uint16_t *q, int n, const KernelParams *params) {
    const Mix16AVX2 k = mix16_avx2_constants(params);
    const Mix16Shuffles t = mix16_shuffles();
    __m128i split[3][3], join[3][3];
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            split[a][b] = _mm_loadu_si128((const __m128i *)(const void *)t.split[a][b]);
            join[a][b] = _mm_loadu_si128((const __m128i *)(const void *)t.join[a][b]);
        }
    // A chunk at a time in two loops, the output indexes first, then the codes: each loop's blocks are
    // independent, so the processor overlaps the gathers of many blocks instead of waiting on each
    // block's input gathers before its output gathers.
    enum { CHUNK = 128 };
    int32_t indexes[3][CHUNK] __attribute__((aligned(32)));
    const int whole = n - n % 8;
    int x = 0;
    while (x < whole) {
        const int m = whole - x < CHUNK ? whole - x : CHUNK;
        for (int j = 0; j < m; j += 8) {
            __m256i samples[3], index[3];
            fd_rgb16_split8(p + 3 * (x + j), split, samples);
            mix16_avx2_indexes(&k, samples, index);
            for (int row = 0; row < 3; row++)
                _mm256_store_si256((__m256i *)(void *)(indexes[row] + j), index[row]);
        }
        for (int j = 0; j < m; j += 8) {
            __m128i codes[3];
            for (int row = 0; row < 3; row++) {
                const __m256i mixed =
                    mix16_avx2_codes(&k, row, _mm256_load_si256((const __m256i *)(const void *)(indexes[row] + j)));
                codes[row] = _mm_packus_epi32(_mm256_castsi256_si128(mixed), _mm256_extracti128_si256(mixed, 1));
            }
            uint16_t *to = q + 3 * (x + j);
            for (int r = 0; r < 3; r++)
                _mm_storeu_si128((__m128i *)(void *)(to + 8 * r),
                    _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(codes[0], join[r][0]),
                                     _mm_shuffle_epi8(codes[1], join[r][1])),
                        _mm_shuffle_epi8(codes[2], join[r][2])));
        }
        x += m;
    }
    return x;
}

// AVX-512 mix of 16-bit RGB pixels, 16 at a time, giving exactly mix16_scalar's codes as mix16_avx2
// does: word permutes split a block's 48 samples into the three channels and put the three channels'
// codes back in pixel order, so that no sample goes through a scalar load or store. Returns the pixels
// done, a multiple of 16.
FD_AVX512 static int mix16_avx512_rgb(const uint16_t *p, uint16_t *q, int n, const KernelParams *params) {
    const float *tables[3] = { (const float *)params->tables, (const float *)params->tables + 65536,
        (const float *)params->tables + 2 * 65536 };
    const int count = params->output_count, square_root = params->square_root_index;
    const uint16_t *o = (const uint16_t *)params->output_tables;
    __m512 m[9];
    for (int i = 0; i < 9; i++) m[i] = _mm512_set1_ps(params->matrix[i]);
    const __m512 scale = _mm512_set1_ps(params->scale), half = _mm512_set1_ps(0.5f),
                 zero = _mm512_setzero_ps(), last = _mm512_set1_ps((float)(count - 1));
    const __m512i low16 = _mm512_set1_epi32(0xFFFF);
    // split[c]: word k (k < 16) is sample 3k + c of the block's 48 (first register, then second).
    // join: output words 0 … 31 and 32 … 47 from red (words 0 … 15), green (16 … 31) and blue
    // (32 … 47).
    uint16_t split_words[3][32], join_words[2][32];
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 32; k++) split_words[c][k] = (uint16_t)(k < 16 ? 3 * k + c : 0);
    for (int j = 0; j < 64; j++) {
        const int word = j < 48 ? j : 0;
        join_words[j / 32][j % 32] = (uint16_t)(16 * (word % 3) + word / 3);
    }
    __m512i split[3];
    for (int c = 0; c < 3; c++) split[c] = _mm512_loadu_si512((const void *)split_words[c]);
    const __m512i join_first = _mm512_loadu_si512((const void *)join_words[0]);
    const __m512i join_second = _mm512_loadu_si512((const void *)join_words[1]);
    int x = 0;
    for (; x + 16 <= n; x += 16, p += 48, q += 48) {
        const __m512i first = _mm512_loadu_si512((const void *)p);
        const __m512i second = _mm512_maskz_loadu_epi16(0xFFFF, (const void *)(p + 32));
        __m512 in[3];
        for (int c = 0; c < 3; c++) {
            const __m512i samples = _mm512_permutex2var_epi16(first, split[c], second);
            in[c] = _mm512_i32gather_ps(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(samples)), tables[c], 4);
        }
        __m256i codes[3];
        for (int row = 0; row < 3; row++) {
            __m512 v = _mm512_add_ps(
                _mm512_add_ps(_mm512_mul_ps(m[row * 3], in[0]), _mm512_mul_ps(m[row * 3 + 1], in[1])),
                _mm512_mul_ps(m[row * 3 + 2], in[2]));
            if (square_root) v = _mm512_sqrt_ps(_mm512_max_ps(v, zero));
            __m512 position = _mm512_add_ps(_mm512_mul_ps(v, scale), half);
            position = _mm512_min_ps(_mm512_max_ps(position, zero), last);
            const __m512i index = _mm512_cvttps_epi32(position);
            const __m512i code =
                _mm512_i32gather_epi32(index, (const void *)(o + (size_t)row * count), 2);
            codes[row] = _mm512_cvtepi32_epi16(_mm512_and_si512(code, low16));
        }
        const __m512i red_green =
            _mm512_inserti64x4(_mm512_castsi256_si512(codes[0]), codes[1], 1);
        const __m512i blue = _mm512_castsi256_si512(codes[2]);
        _mm512_storeu_si512((void *)q, _mm512_permutex2var_epi16(red_green, join_first, blue));
        _mm512_mask_storeu_epi16((void *)(q + 32), 0xFFFF,
            _mm512_permutex2var_epi16(red_green, join_second, blue));
    }
    return x;
}

// Constants of the SSE2 mix path.
typedef struct {
    __m128 scale, half, zero, last_f;
    const uint8_t *o0, *o1, *o2;
} MixConstants;

// Mixes 8-bit pixels a 128-bit vector per pixel from the precomputed terms (lane k of terms[c][v]
// is matrix[k][c] × input_c[v]): (t0 + t1) + t2 is the scalar path's sum, term by term.
static inline __attribute__((always_inline)) void mix8_row_sse_mode(const uint8_t *restrict p,
    uint8_t *restrict q, int n, int bands, const __m128 *restrict terms, const MixConstants *k, int square_root) {
    const __m128 scale = k->scale, half = k->half, zero = k->zero, last_f = k->last_f;
    const uint8_t *restrict o0 = k->o0, *restrict o1 = k->o1, *restrict o2 = k->o2;
    for (int x = 0; x < n; x++, p += bands, q += bands) {
        __m128 value = _mm_add_ps(_mm_add_ps(terms[p[0]], terms[256 + p[1]]), terms[512 + p[2]]);
        if (square_root) value = _mm_sqrt_ps(_mm_max_ps(value, zero));
        __m128 position = _mm_add_ps(_mm_mul_ps(value, scale), half);
        position = _mm_min_ps(_mm_max_ps(position, zero), last_f);
        const __m128i index = _mm_cvttps_epi32(position);
        const uint64_t first_two = (uint64_t)_mm_cvtsi128_si64(index);
        const uint8_t r = o0[(uint32_t)first_two];
        const uint8_t g = o1[first_two >> 32];
        const uint8_t b = o2[(uint32_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(index, index))];
        for (int c = 3; c < bands; c++) q[c] = p[c];
        q[0] = r;
        q[1] = g;
        q[2] = b;
    }
}

// AVX-512 VBMI mix of rows of 3 or 4 bands, 64 pixels at a time, giving exactly the scalar path's codes.
//
// Input: each float table is split into its four bytes, and each byte plane is looked up for 64 pixels
// at once (two byte permutes and a blend, as in lut8); unpacking the planes rebuilds the floats, four
// registers of 16 per channel, in the same pixel order for every channel. The matrix and the index are
// the scalar path's float operations, lane by lane. Output: gathers read each channel's code from a
// 32-bit copy of its table that holds the code in byte c, so OR-ing the three channels gives the
// pixel; transposing the 128-bit lanes of the four registers undoes the unpacking's pixel order. The
// byte permutes keep port 5 busy and the gathers the load ports, so the two halves overlap (a binary
// search over the code thresholds with word permutes instead was about 30 % slower).
typedef struct {
    uint8_t input_planes[3][4][256];  // byte j of input_c[v] (little-endian)
    // Byte permutes from 64 interleaved pixels to 3 planes of 64: [0] for RGB (192 bytes in three
    // registers), [1] for four bands (256 bytes in four; the fourth band is copied).
    uint8_t split[2][3][64];
    uint64_t split_high[2][3];
    uint8_t pack[64];                 // RGB output: bytes 0 … 2 of 16 pixel lanes, packed into 48
    // Planar output: channel c of the 64 pixels from the codes registers (mix_block_codes' order):
    // a two-register byte permute of registers 0 and 1, one of 2 and 3, merged by planar_high.
    uint8_t planar[3][64];
    uint64_t planar_high;
} MixTables;

FD_AVX512 static inline void mix_plane_floats(__m512i index, const uint8_t (*planes)[256], __m512 out[4]) {
    const __mmask64 top = _mm512_movepi8_mask(index);
    __m512i b[4];
    for (int j = 0; j < 4; j++) {
        const uint8_t *t = planes[j];
        const __m512i low = _mm512_permutex2var_epi8(_mm512_loadu_si512(t), index, _mm512_loadu_si512(t + 64));
        const __m512i high =
            _mm512_permutex2var_epi8(_mm512_loadu_si512(t + 128), index, _mm512_loadu_si512(t + 192));
        b[j] = _mm512_mask_blend_epi8(top, low, high);
    }
    const __m512i w01lo = _mm512_unpacklo_epi8(b[0], b[1]), w01hi = _mm512_unpackhi_epi8(b[0], b[1]);
    const __m512i w23lo = _mm512_unpacklo_epi8(b[2], b[3]), w23hi = _mm512_unpackhi_epi8(b[2], b[3]);
    out[0] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(w01lo, w23lo));
    out[1] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(w01lo, w23lo));
    out[2] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(w01hi, w23hi));
    out[3] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(w01hi, w23hi));
}

// The output codes of 64 pixels from their input floats (mix_plane_floats' order): lane L of pixel[r]
// holds pixels 16L + 4r … 16L + 4r + 3, R, G, B in bytes 0, 1, 2. Every inner loop is unrolled fully,
// so that its small arrays of registers stay in registers instead of on the stack.
FD_AVX512 static inline __attribute__((always_inline)) void mix_block_codes(const KernelParams *params,
    const __m512 in[3][4], int square_root, __m512i pixel[4]) {
    const float *mtx = params->matrix;
    const int count = params->output_count;
    __m512 m[9];
    _Pragma("clang loop unroll(full)")
    for (int i = 0; i < 9; i++) m[i] = _mm512_set1_ps(mtx[i]);
    const __m512 scale = _mm512_set1_ps(params->scale), half = _mm512_set1_ps(0.5f),
                 zero = _mm512_setzero_ps(), last = _mm512_set1_ps((float)(count - 1));
    _Pragma("clang loop unroll(full)")
    for (int r = 0; r < 4; r++) {
        pixel[r] = _mm512_setzero_si512();
        _Pragma("clang loop unroll(full)")
        for (int row = 0; row < 3; row++) {
            __m512 v = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(m[row * 3], in[0][r]),
                                         _mm512_mul_ps(m[row * 3 + 1], in[1][r])),
                _mm512_mul_ps(m[row * 3 + 2], in[2][r]));
            if (square_root) v = _mm512_sqrt_ps(_mm512_max_ps(v, zero));
            __m512 position = _mm512_add_ps(_mm512_mul_ps(v, scale), half);
            position = _mm512_min_ps(_mm512_max_ps(position, zero), last);
            const __m512i index = _mm512_cvttps_epi32(position);
            pixel[r] = _mm512_or_si512(pixel[r],
                _mm512_i32gather_epi32(index, (const int *)(params->mix_codes + (size_t)row * count), 4));
        }
    }
}

FD_AVX512 static inline __attribute__((always_inline)) void mix8_row_vbmi_mode(const uint8_t *restrict p,
    uint8_t *restrict q, int n, int bands, const KernelParams *params, const MixConstants *k, int square_root) {
    const MixTables *tables = (const MixTables *)params->mix_tables;
    const int layout = bands == 3 ? 0 : 1;
    int x = 0;
    for (; x + 64 <= n; x += 64, p += 64 * bands, q += 64 * bands) {
        __m512i d[4];
        _Pragma("clang loop unroll(full)")
        for (int r = 0; r < bands; r++) d[r] = _mm512_loadu_si512(p + 64 * r);
        __m512 in[3][4];
        _Pragma("clang loop unroll(full)")
        for (int c = 0; c < 3; c++) {
            const __m512i split = _mm512_loadu_si512(tables->split[layout][c]);
            __m512i plane = _mm512_permutex2var_epi8(d[0], split, d[1]);
            const __mmask64 high = tables->split_high[layout][c];
            if (bands == 3)
                plane = _mm512_mask_permutexvar_epi8(plane, high, split, d[2]);
            else
                plane = _mm512_mask_mov_epi8(plane, high, _mm512_permutex2var_epi8(d[2], split, d[3]));
            mix_plane_floats(plane, tables->input_planes[c], in[c]);
        }
        __m512i pixel[4];
        mix_block_codes(params, (const __m512(*)[4])in, square_root, pixel);
        // Transposing the 4 × 4 lanes gives natural[L] = pixels 16L … 16L + 15 in order.
        const __m512i lo01 = _mm512_shuffle_i32x4(pixel[0], pixel[1], 0x44);
        const __m512i hi01 = _mm512_shuffle_i32x4(pixel[0], pixel[1], 0xEE);
        const __m512i lo23 = _mm512_shuffle_i32x4(pixel[2], pixel[3], 0x44);
        const __m512i hi23 = _mm512_shuffle_i32x4(pixel[2], pixel[3], 0xEE);
        const __m512i natural[4] = { _mm512_shuffle_i32x4(lo01, lo23, 0x88),
            _mm512_shuffle_i32x4(lo01, lo23, 0xDD), _mm512_shuffle_i32x4(hi01, hi23, 0x88),
            _mm512_shuffle_i32x4(hi01, hi23, 0xDD) };
        _Pragma("clang loop unroll(full)")
        for (int L = 0; L < 4; L++) {
            if (bands == 4) {
                const __m512i alpha = _mm512_and_si512(d[L], _mm512_set1_epi32((int)0xFF000000u));
                _mm512_storeu_si512(q + 64 * L, _mm512_or_si512(natural[L], alpha));
            } else {
                _mm512_mask_storeu_epi8(q + 48 * L, 0xFFFFFFFFFFFFULL,
                    _mm512_permutexvar_epi8(_mm512_loadu_si512(tables->pack), natural[L]));
            }
        }
    }
    mix8_row_sse_mode(p, q, n - x, bands, (const __m128 *)params->mix_terms, k, square_root);
}

// The AVX-512 mix of the whole 64-pixel blocks of a row of planes (see fd_mix8_planes).
FD_AVX512 static inline __attribute__((always_inline)) int mix8_planes_vbmi_mode(
    const KernelParams *params, const uint8_t *const in[3], uint8_t *const out[3], int n,
    int square_root) {
    const MixTables *tables = (const MixTables *)params->mix_tables;
    __m512i extract[3];
    _Pragma("clang loop unroll(full)")
    for (int c = 0; c < 3; c++) extract[c] = _mm512_loadu_si512(tables->planar[c]);
    const __mmask64 high = tables->planar_high;
    int x = 0;
    for (; x + 64 <= n; x += 64) {
        __m512 floats[3][4];
        _Pragma("clang loop unroll(full)")
        for (int c = 0; c < 3; c++)
            mix_plane_floats(_mm512_loadu_si512(in[c] + x), tables->input_planes[c], floats[c]);
        __m512i pixel[4];
        mix_block_codes(params, (const __m512(*)[4])floats, square_root, pixel);
        _Pragma("clang loop unroll(full)")
        for (int c = 0; c < 3; c++) {
            const __m512i low = _mm512_permutex2var_epi8(pixel[0], extract[c], pixel[1]);
            const __m512i top = _mm512_permutex2var_epi8(pixel[2], extract[c], pixel[3]);
            _mm512_storeu_si512(out[c] + x, _mm512_mask_blend_epi8(high, low, top));
        }
    }
    return x;
}

FD_AVX512 static int mix8_planes_vbmi(const KernelParams *params, const uint8_t *const in[3],
    uint8_t *const out[3], int n) {
    return params->square_root_index ? mix8_planes_vbmi_mode(params, in, out, n, 1)
                                      : mix8_planes_vbmi_mode(params, in, out, n, 0);
}

// The AVX-512 mix of one row, specialised for its band count and index mode.
FD_AVX512 static void mix8_row_vbmi(const uint8_t *p, uint8_t *q, int n, int bands, const KernelParams *params,
    const MixConstants *k) {
    const int sqrt_index = params->square_root_index ? 1 : 0;
    if (bands == 3 && sqrt_index) mix8_row_vbmi_mode(p, q, n, 3, params, k, 1);
    else if (bands == 3) mix8_row_vbmi_mode(p, q, n, 3, params, k, 0);
    else if (sqrt_index) mix8_row_vbmi_mode(p, q, n, 4, params, k, 1);
    else mix8_row_vbmi_mode(p, q, n, 4, params, k, 0);
}

// SIMD mix of one 8-bit row: AVX-512 when its tables were made and `path` allows, else SSE2.
static void mix8_row_simd(const uint8_t *p, uint8_t *q, int n, int bands, const KernelParams *params,
    FDSIMDPath path) {
    MixConstants k;
    k.scale = _mm_set1_ps(params->scale);
    k.half = _mm_set1_ps(0.5f);
    k.zero = _mm_setzero_ps();
    k.last_f = _mm_set1_ps((float)(params->output_count - 1));
    k.o0 = (const uint8_t *)params->output_tables;
    k.o1 = k.o0 + params->output_count;
    k.o2 = k.o1 + params->output_count;
    const __m128 *terms = (const __m128 *)params->mix_terms;
    if (params->mix_tables && path == FD_SIMD_AVX512 && (bands == 3 || bands == 4)) {
        mix8_row_vbmi(p, q, n, bands, params, &k);
        return;
    }
    const int mode = (bands == 3 ? 0 : 2) + (params->square_root_index ? 1 : 0);
    switch (mode) {  // constant band counts and index modes let the compiler specialise the loop
    case 0: mix8_row_sse_mode(p, q, n, 3, terms, &k, 0); break;
    case 1: mix8_row_sse_mode(p, q, n, 3, terms, &k, 1); break;
    case 2: mix8_row_sse_mode(p, q, n, bands, terms, &k, 0); break;
    default: mix8_row_sse_mode(p, q, n, bands, terms, &k, 1); break;
    }
}

#endif

int fd_mix8_planes(const KernelParams *params, const uint8_t *const in[3], uint8_t *const out[3],
    int pixels) {
#if FD_X86_SIMD
    if (params->mix_tables && fd_simd_path() == FD_SIMD_AVX512) return mix8_planes_vbmi(params, in, out, pixels);
#endif
    (void)params, (void)in, (void)out, (void)pixels;
    return 0;
}

void fd_mix8_row(const KernelParams *params, const uint8_t *p, uint8_t *q, int pixels, int bands) {
#if FD_X86_SIMD
    const FDSIMDPath path = params->mix_terms ? fd_simd_path() : FD_SIMD_SCALAR;
    if (path != FD_SIMD_SCALAR) {
        mix8_row_simd(p, q, pixels, bands, params, path);
        return;
    }
#endif
    mix8_scalar(p, q, pixels, bands, params);
}

// The mix of one row of `pixels` pixels of `bands` bands: fd_mix8_row for 8-bit images; for 16-bit
// ones the AVX2 path where it applies, then the scalar path for the rest.
void fd_mix_row(const KernelParams *params, const uint8_t *p, uint8_t *q, int pixels, int bands) {
    if (params->entries == 256) {
        fd_mix8_row(params, p, q, pixels, bands);
        return;
    }
    int done = 0;
#if FD_X86_SIMD
    const FDSIMDPath path = fd_simd_path();
    if (params->output_count <= (1 << 24) && path == FD_SIMD_AVX512 && bands == 3)
        done = mix16_avx512_rgb((const uint16_t *)p, (uint16_t *)q, pixels, params);
    if (params->output_count <= (1 << 24) && path >= FD_SIMD_AVX2)
        done += bands == 3 ? mix16_avx2_rgb((const uint16_t *)p + done * 3, (uint16_t *)q + done * 3,
                                 pixels - done, params)
                           : mix16_avx2((const uint16_t *)p + done * bands, (uint16_t *)q + done * bands,
                                 pixels - done, bands, params);
#endif
    mix16_scalar((const uint16_t *)p + done * bands, (uint16_t *)q + done * bands, pixels - done, bands,
        params);
}

// Precomputes the 8-bit SIMD paths' terms, when the path in force has them: for input band c and
// value v, the 4 floats (matrix[0][c], matrix[1][c], matrix[2][c], 0) × input_c[v]. Indices must stay
// exact in float.
static void prepare_mix_terms(KernelParams *params) {
#if FD_X86_SIMD
    if (fd_simd_path() == FD_SIMD_SCALAR || params->entries != 256 || params->output_count > (1 << 24))
        return;
    const float *in = (const float *)params->tables;
    // Aligned for the SSE loads; without memory the scalar path runs, with the same codes.
    params->mix_terms = aligned_alloc(16, 3 * 256 * 4 * sizeof(float) + 16);
    if (!params->mix_terms) return;
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 256; v++) {
            float *t = params->mix_terms + (c * 256 + v) * 4;
            for (int row = 0; row < 3; row++) t[row] = params->matrix[row * 3 + c] * in[c * 256 + v];
            t[3] = 0.0f;
        }
#else
    (void)params;
#endif
}

// Builds the AVX-512 mix path's tables (see MixTables) when that path is in force and the output tables have
// at most 65535 entries a channel (so that the code tables stay in the caches).
static void prepare_mix_tables(KernelParams *params) {
#if FD_X86_SIMD
    if (!params->mix_terms || fd_simd_path() != FD_SIMD_AVX512 || params->output_count > 65535) return;
    const int count = params->output_count;
    const uint8_t *output = (const uint8_t *)params->output_tables;
    // Without memory for them the SSE2 path runs, with the same codes.
    MixTables *tables = calloc(1, sizeof *tables);
    uint32_t *codes = malloc(sizeof(uint32_t) * 3 * (size_t)count);
    if (!tables || !codes) {
        free(tables);
        free(codes);
        return;
    }
    const float *input = (const float *)params->tables;
    for (int c = 0; c < 3; c++)
        for (int v = 0; v < 256; v++) {
            uint32_t bits;
            memcpy(&bits, &input[c * 256 + v], sizeof bits);
            for (int j = 0; j < 4; j++) tables->input_planes[c][j][v] = (uint8_t)(bits >> (8 * j));
        }
    for (int layout = 0; layout < 2; layout++) {
        const int bands = 3 + layout;
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 64; i++) {
                // Pixel i's band c is byte `position` of the block; past the first two registers it
                // comes from the third (and fourth).
                const int position = bands * i + c;
                tables->split[layout][c][i] = (uint8_t)(position % 128);
                if (position >= 128) tables->split_high[layout][c] |= (uint64_t)1 << i;
            }
    }
    for (int i = 0; i < 48; i++) tables->pack[i] = (uint8_t)(4 * (i / 3) + i % 3);
    // Pixel i is in codes register r = (i % 16) / 4, lane i / 16, dword i % 4.
    for (int i = 0; i < 64; i++) {
        const int r = (i % 16) / 4, byte = 16 * (i / 16) + 4 * (i % 4);
        for (int c = 0; c < 3; c++) tables->planar[c][i] = (uint8_t)((r % 2) * 64 + byte + c);
        if (r >= 2) tables->planar_high |= (uint64_t)1 << i;
    }
    params->mix_codes = codes;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < count; i++)
            params->mix_codes[c * count + i] = (uint32_t)output[c * count + i] << (8 * c);
    params->mix_tables = tables;
#else
    (void)params;
#endif
}

KernelParams *fd_mix_params(int entries, const float *input_tables, const float *matrix,
    const void *output_tables, int output_count, float scale, int square_root_index) {
    KernelParams *params = calloc(1, sizeof *params);
    if (!params) return NULL;
    params->colour_bands = 3;
    params->entries = entries;
    params->output_count = output_count;
    params->scale = scale;
    params->square_root_index = square_root_index;
    memcpy(params->matrix, matrix, sizeof params->matrix);
    const size_t input_size = (size_t)3 * entries * sizeof(float);
    const size_t output_size = (size_t)3 * output_count * (entries == 256 ? sizeof(uint8_t) : sizeof(uint16_t));
    params->tables = malloc(input_size);
    // Two bytes of padding: the 16-bit SIMD path reads each code as a 32-bit word.
    params->output_tables = malloc(output_size + 2);
    if (!params->tables || !params->output_tables) {
        fd_kernel_params_free(params);
        return NULL;
    }
    memcpy(params->tables, input_tables, input_size);
    memcpy(params->output_tables, output_tables, output_size);
    prepare_mix_terms(params);
    prepare_mix_tables(params);
    return params;
}
