// fd_raw_rows_convert (see RawRows.h): LibRaw's camera conversion, then per-channel tables or the mix,
// from LibRaw's working picture into packed 8-bit RGB in place.

#include "RawRows.h"

#include "mix_index.h"
#include "simd_support.h"

#include <stdlib.h>
#include <string.h>

// The camera conversion must give LibRaw's integers and the mix the mix kernel's floats: separate
// multiplies and adds in the definition's order on every path.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

typedef struct {
    const float *camera;
    int mix;
    const uint8_t *tables8;     // 3 × 65536, 3 bytes of padding (SIMD gathers read 32-bit words)
    const float *input;         // 3 × 65536
    const float *matrix;
    const uint8_t *output;      // 3 × count, 3 bytes of padding
    int count;
    float scale;
    int square_root;
} RawRows;

// LibRaw's convert_to_rgb_loop for three colours: float products and sums, truncated, clipped.
static inline int camera_code(const float *m, float r, float g, float b) {
    const float out = m[0] * r + m[1] * g + m[2] * b;
    const int code = (int)out;
    return code < 0 ? 0 : code > 65535 ? 65535 : code;
}

// Pixels `from` … `pixels` − 1, one at a time.
static void convert_scalar(uint16_t *picture, size_t from, size_t pixels, const RawRows *k) {
    uint8_t *out = (uint8_t *)picture;
    const float *cam = k->camera;
    const int last = k->count - 1;
    for (size_t x = from; x < pixels; x++) {
        const uint16_t *p = picture + 4 * x;
        const float r = p[0], g = p[1], b = p[2];
        const int v0 = camera_code(cam, r, g, b), v1 = camera_code(cam + 3, r, g, b),
                  v2 = camera_code(cam + 6, r, g, b);
        uint8_t *q = out + 3 * x;
        if (!k->mix) {
            q[0] = k->tables8[v0];
            q[1] = k->tables8[65536 + v1];
            q[2] = k->tables8[2 * 65536 + v2];
            continue;
        }
        const float l0 = k->input[v0], l1 = k->input[65536 + v1], l2 = k->input[2 * 65536 + v2];
        const float *m = k->matrix;
        const int i0 = fd_mix_output_index(m[0] * l0 + m[1] * l1 + m[2] * l2, k->scale, last, k->square_root);
        const int i1 = fd_mix_output_index(m[3] * l0 + m[4] * l1 + m[5] * l2, k->scale, last, k->square_root);
        const int i2 = fd_mix_output_index(m[6] * l0 + m[7] * l1 + m[8] * l2, k->scale, last, k->square_root);
        q[0] = k->output[i0];
        q[1] = k->output[k->count + i1];
        q[2] = k->output[2 * k->count + i2];
    }
}

#if FD_X86_SIMD
// Eight pixels at a time, the same codes as convert_scalar: the samples are split into channels with
// shuffles, the camera conversion and the mix are the scalar path's multiplies and adds in its order,
// truncation and clamps as there (max with 0 first, so NaN gives 0), the tables read by gathers of
// 32-bit words whose low byte is the code. A block writes its 24 bytes (and 4 after them) after
// reading its 64, and the bytes written never reach a later block's samples. Returns the pixels done,
// a multiple of 8.
FD_AVX2 static size_t convert_avx2(uint16_t *picture, size_t pixels, const RawRows *k) {
    __m256 cam[9], m[9];
    for (int i = 0; i < 9; i++) {
        cam[i] = _mm256_set1_ps(k->camera[i]);
        m[i] = _mm256_set1_ps(k->mix ? k->matrix[i] : 0.0f);
    }
    const __m256i low16 = _mm256_set1_epi32(0xFFFF), low8 = _mm256_set1_epi32(0xFF),
                  top = _mm256_set1_epi32(65535), none = _mm256_setzero_si256();
    const __m256 scale = _mm256_set1_ps(k->scale), half = _mm256_set1_ps(0.5f), zero = _mm256_setzero_ps(),
                 last = _mm256_set1_ps((float)(k->count - 1));
    const __m256i pack = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4,
        5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1);
    uint8_t *out = (uint8_t *)picture;
    size_t x = 0;
    // The last block's stores reach 4 bytes past its pixels' 24: still inside the picture, whose
    // pixels take 8 bytes each.
    for (; x + 8 <= pixels; x += 8) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)(picture + 4 * x));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(const void *)(picture + 4 * x + 16));
        // Per 128-bit lane: the low words (red | green << 16) of a's and b's two pixels, then the high
        // words (blue | fourth << 16); the 64-bit permute puts the pixels in order 0 … 7.
        const __m256i rg = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(
                                  _mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(2, 0, 2, 0))),
            _MM_SHUFFLE(3, 1, 2, 0));
        const __m256i bx = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(
                                  _mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _MM_SHUFFLE(3, 1, 3, 1))),
            _MM_SHUFFLE(3, 1, 2, 0));
        const __m256 r = _mm256_cvtepi32_ps(_mm256_and_si256(rg, low16));
        const __m256 g = _mm256_cvtepi32_ps(_mm256_srli_epi32(rg, 16));
        const __m256 bl = _mm256_cvtepi32_ps(_mm256_and_si256(bx, low16));
        __m256i v[3];
        for (int c = 0; c < 3; c++) {
            const __m256 sum = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(cam[3 * c], r), _mm256_mul_ps(cam[3 * c + 1], g)),
                _mm256_mul_ps(cam[3 * c + 2], bl));
            v[c] = _mm256_min_epi32(_mm256_max_epi32(_mm256_cvttps_epi32(sum), none), top);
        }
        __m256i codes[3];
        if (!k->mix) {
            for (int c = 0; c < 3; c++)
                codes[c] = _mm256_i32gather_epi32(
                    (const int *)(const void *)(k->tables8 + (size_t)c * 65536), v[c], 1);
        } else {
            __m256 in[3];
            for (int c = 0; c < 3; c++) in[c] = _mm256_i32gather_ps(k->input + (size_t)c * 65536, v[c], 4);
            for (int row = 0; row < 3; row++) {
                __m256 value = _mm256_add_ps(
                    _mm256_add_ps(_mm256_mul_ps(m[row * 3], in[0]), _mm256_mul_ps(m[row * 3 + 1], in[1])),
                    _mm256_mul_ps(m[row * 3 + 2], in[2]));
                if (k->square_root) value = _mm256_sqrt_ps(_mm256_max_ps(value, zero));
                __m256 position = _mm256_add_ps(_mm256_mul_ps(value, scale), half);
                position = _mm256_min_ps(_mm256_max_ps(position, zero), last);
                codes[row] = _mm256_i32gather_epi32(
                    (const int *)(const void *)(k->output + (size_t)row * k->count), _mm256_cvttps_epi32(position), 1);
            }
        }
        // Each pixel's three codes in the low three bytes of its 32-bit lane, then each 128-bit lane's
        // four pixels packed into its first 12 bytes and stored; the 4 bytes after them are written
        // again by the next block (or lie past the picture's 3-byte pixels).
        const __m256i rgb = _mm256_or_si256(_mm256_and_si256(codes[0], low8),
            _mm256_or_si256(_mm256_slli_epi32(_mm256_and_si256(codes[1], low8), 8),
                _mm256_slli_epi32(_mm256_and_si256(codes[2], low8), 16)));
        const __m256i packed = _mm256_shuffle_epi8(rgb, pack);
        uint8_t *q = out + 3 * x;
        _mm_storeu_si128((__m128i *)(void *)q, _mm256_castsi256_si128(packed));
        _mm_storeu_si128((__m128i *)(void *)(q + 12), _mm256_extracti128_si256(packed, 1));
    }
    return x;
}
#endif

int fd_raw_rows_convert(uint16_t *picture, size_t pixels, const float *camera, int mix,
    const uint8_t *tables8, const float *input_tables, const float *matrix, const uint8_t *output_tables,
    int output_count, float scale, int square_root_index) {
    if (!picture || !camera) return -1;
    if (mix ? !input_tables || !matrix || !output_tables || output_count < 1 : !tables8) return -1;
    // Copies of the 8-bit tables with the padding the gathers read past their last entry.
    const size_t table_size = mix ? (size_t)3 * output_count : (size_t)3 * 65536;
    uint8_t *padded = malloc(table_size + 3);
    if (!padded) return -1;
    memcpy(padded, mix ? output_tables : tables8, table_size);
    memset(padded + table_size, 0, 3);
    const RawRows k = {camera, mix, mix ? NULL : padded, input_tables, matrix, mix ? padded : NULL,
        output_count, scale, square_root_index};
    size_t done = 0;
#if FD_X86_SIMD
    if (fd_simd_path() >= FD_SIMD_AVX2) done = convert_avx2(picture, pixels, &k);
#endif
    convert_scalar(picture, done, pixels, &k);
    free(padded);
    return 0;
}
