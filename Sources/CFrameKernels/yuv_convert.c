#include "YUVConvert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Defining FRAMEDIAL_NO_SIMD builds only the portable scalar paths.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FRAMEDIAL_NO_SIMD)
#define FD_YUV_X86 1
#define FD_AVX2 __attribute__((target("avx2")))
#define FD_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512vl")))
#include <immintrin.h>
#else
#define FD_YUV_X86 0
#endif

// Separate multiplies and adds everywhere, so that the scalar and AVX2 builds of each row function
// (the same C, vectorized by the compiler) give the same float results.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// Taps of one output sample: `count` source indices (clamped to the source) and their weights.
enum { TAPS_UP = 4, TAPS_DOWN_MAX = 16 };

typedef struct {
    int first;  // index of the first tap before clamping
    int count;
    float weight[TAPS_DOWN_MAX];
} Taps;

struct FDYUVPlan {
    int width, height, chroma_width, chroma_height, depth;
    // YUV → RGB: R = yk (Y − yo) + rv (V − co); G = yk (Y − yo) − gu (U − co) − gv (V − co);
    // B = yk (Y − yo) + bu (U − co), in RGB codes (0 … rgb_max).
    float yo, co, yk, rv, gu, gv, bu, rgb_max, code_max;
    // swscale keeps widened chroma in 15-bit (8-bit video) or 19-bit (deeper) integers, which clips
    // overshoot above the top code; this is that ceiling in codes.
    float chroma_ceiling;
    // RGB → YUV: Y = yo + ry R + gy G + by B; U = co + ru R + gu2 G + bu2 B; V likewise.
    float ry, gy, by, ru, gu2, bu2, rv2, gv2, bv2;
    Taps *up_rows;      // per output row: 4 chroma rows
    Taps *up_columns;   // per output column: 4 chroma columns (used when the width is odd)
    Taps *down_rows;    // per chroma row: the luma rows it reduces
    float even_weights[4], odd_weights[4];  // 2× enlargement: columns 2j and 2j + 1
    // Byte shuffles between 16 rgb24 pixels (three 16-byte vectors) and 16 bytes per channel:
    // join[k][c] places channel c into vector k, split[k][c] takes channel c from vector k; pairs
    // puts a channel's even pixels first and its odd pixels after.
    uint8_t join[3][3][16], split[3][3][16], pairs[16];
};

static int force_scalar = 0;

void fd_yuv_force_scalar(int scalar) { force_scalar = scalar; }

static int use_avx2(void) {
#if FD_YUV_X86
    static int cached = -1;
    if (cached < 0) cached = __builtin_cpu_supports("avx2") ? 1 : 0;
    return cached && !force_scalar;
#else
    return 0;
#endif
}

static int use_avx512(void) {
#if FD_YUV_X86
    static int cached = -1;
    if (cached < 0)
        cached = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avx512f") &&
                __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")
            ? 1
            : 0;
    return cached && !force_scalar;
#else
    return 0;
#endif
}

// swscale's bicubic kernel (B = 0, C = 0.6) at distance d.
static double cubic(double d) {
    const double c = 0.6;
    d = fabs(d);
    if (d < 1) return ((12 - 6 * c) * d * d * d + (-18 + 6 * c) * d * d + 6) / 6;
    if (d < 2) return ((-6 * c) * d * d * d + 30 * c * d * d - 48 * c * d + 24 * c) / 6;
    return 0;
}

// Taps mapping `out_size` samples onto `in_size`, centres onto centres; `scale` ≥ 1 widens the kernel
// (reduction). Weights are normalized to sum to 1.
static void make_taps(Taps *taps, int out_size, int in_size) {
    const double ratio = (double)in_size / out_size;
    const double widen = ratio > 1 ? ratio : 1;
    for (int i = 0; i < out_size; i++) {
        const double centre = (i + 0.5) * ratio - 0.5;
        int first = (int)floor(centre - 2 * widen) + 1;
        int last = (int)floor(centre + 2 * widen);
        if (ratio < 1) {
            // Enlarging: 4 taps from centre − 1, rounded down when that is positive and to the nearest
            // whole number when negative, as swscale's fixed-point placement works out (measured): so
            // a few outputs at the top and left edges lean on one tap less, their weights renormalized.
            const double start = centre - 1;
            first = start >= 0 ? (int)start : -(int)(0.5 - start);
            last = first + 3;
        }
        if (last - first + 1 > TAPS_DOWN_MAX) last = first + TAPS_DOWN_MAX - 1;
        double sum = 0;
        double w[TAPS_DOWN_MAX];
        for (int j = first; j <= last; j++) sum += w[j - first] = cubic((j - centre) / widen);
        taps[i].first = first;
        taps[i].count = last - first + 1;
        for (int j = 0; j <= last - first; j++) taps[i].weight[j] = (float)(w[j] / sum);
    }
}

static inline int clamp_index(int i, int size) { return i < 0 ? 0 : i >= size ? size - 1 : i; }

FDYUVPlan *fd_yuv_plan_create(int width, int height, int depth, int bt709, int full_range) {
    if (width < 1 || height < 1 || (depth != 8 && depth != 10)) return NULL;
    FDYUVPlan *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->width = width;
    p->height = height;
    p->chroma_width = (width + 1) / 2;
    p->chroma_height = (height + 1) / 2;
    p->depth = depth;
    p->up_rows = malloc(sizeof(Taps) * (size_t)height);
    p->up_columns = malloc(sizeof(Taps) * (size_t)width);
    p->down_rows = malloc(sizeof(Taps) * (size_t)p->chroma_height);
    if (!p->up_rows || !p->up_columns || !p->down_rows) {
        fd_yuv_plan_free(p);
        return NULL;
    }
    make_taps(p->up_rows, height, p->chroma_height);
    make_taps(p->up_columns, width, p->chroma_width);
    make_taps(p->down_rows, p->chroma_height, height);
    // Columns 2j take chroma j − 2 … j + 1, columns 2j + 1 take j − 1 … j + 2 (even widths).
    for (int k = 0; k < 4; k++) {
        p->even_weights[k] = (float)cubic(k - 2 + 0.25);
        p->odd_weights[k] = (float)cubic(k - 1 - 0.25);
    }
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 16; i++) {
                const int packed = 16 * k + i, position = 3 * i + c - 16 * k;
                p->join[k][c][i] = packed % 3 == c ? (uint8_t)(packed / 3) : 0x80;
                p->split[k][c][i] = position >= 0 && position < 16 ? (uint8_t)position : 0x80;
            }
    for (int i = 0; i < 8; i++) {
        p->pairs[i] = (uint8_t)(2 * i);
        p->pairs[8 + i] = (uint8_t)(2 * i + 1);
    }
    const double kr = bt709 ? 0.2126 : 0.299, kb = bt709 ? 0.0722 : 0.114, kg = 1 - kr - kb;
    const double unit = depth == 8 ? 1 : 4;  // TV-range codes scale with depth
    // 10-bit video meets 16-bit RGB as swscale scales it: as 8-bit video × 256, so TV white (940)
    // is 65280 and full-range 1023 is 65472 (× 64).
    const double code_max = (1 << depth) - 1;
    const double rgb_max = depth == 8 ? 255 : full_range ? 65472 : 65280;
    const double ys = full_range ? code_max : 219 * unit, cs = full_range ? code_max : 224 * unit;
    p->yo = (float)(full_range ? 0 : 16 * unit);
    p->co = (float)(1 << (depth - 1));
    p->code_max = (float)code_max;
    p->chroma_ceiling = depth == 8 ? 32767.0f / 128 : 524287.0f / 512;
    p->rgb_max = depth == 8 ? 255.0f : 65535.0f;
    p->yk = (float)(rgb_max / ys);
    p->rv = (float)(rgb_max * 2 * (1 - kr) / cs);
    p->bu = (float)(rgb_max * 2 * (1 - kb) / cs);
    p->gu = (float)(rgb_max * 2 * kb * (1 - kb) / kg / cs);
    p->gv = (float)(rgb_max * 2 * kr * (1 - kr) / kg / cs);
    p->ry = (float)(kr * ys / rgb_max);
    p->gy = (float)(kg * ys / rgb_max);
    p->by = (float)(kb * ys / rgb_max);
    const double u_scale = cs / rgb_max / (2 * (1 - kb)), v_scale = cs / rgb_max / (2 * (1 - kr));
    p->ru = (float)(-kr * u_scale);
    p->gu2 = (float)(-kg * u_scale);
    p->bu2 = (float)((1 - kb) * u_scale);
    p->rv2 = (float)((1 - kr) * v_scale);
    p->gv2 = (float)(-kg * v_scale);
    p->bv2 = (float)(-kb * v_scale);
    return p;
}

void fd_yuv_plan_free(FDYUVPlan *plan) {
    if (!plan) return;
    free(plan->up_rows);
    free(plan->up_columns);
    free(plan->down_rows);
    free(plan);
}

// ---------------------------------------------------------------------------------------------
// Row functions, built once portable and once for AVX2 (the compiler vectorizes the same loops).

#define YUV_ROW_FUNCTIONS(SUFFIX, ATTRIBUTES)                                                          \
    ATTRIBUTES static void load8_##SUFFIX(const uint8_t *s, float *d, int n) {                         \
        for (int i = 0; i < n; i++) d[i] = s[i];                                                       \
    }                                                                                                  \
    ATTRIBUTES static void load16_##SUFFIX(const uint16_t *s, float *d, int n) {                       \
        for (int i = 0; i < n; i++) d[i] = s[i];                                                       \
    }                                                                                                  \
    /* d = w0 a + w1 b + w2 c + w3 e, in that order */                                                \
    ATTRIBUTES static void blend4_##SUFFIX(const float *a, const float *b, const float *c,             \
        const float *e, const float *w, float *d, int n) {                                             \
        const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3];                                        \
        for (int i = 0; i < n; i++) d[i] = w0 * a[i] + w1 * b[i] + w2 * c[i] + w3 * e[i];              \
    }                                                                                                  \
    /* 2× horizontal enlargement of a row padded by 2 samples each side: d[2j] and d[2j + 1] from the */ \
    /* even and odd taps, each clipped at `top` */                                                     \
    ATTRIBUTES static void double_##SUFFIX(const float *c, const float *we, const float *wo, float top,   \
        float *d, int n) {                                                                             \
        for (int j = 0; j < n; j++) {                                                                  \
            const float e = we[0] * c[j] + we[1] * c[j + 1] + we[2] * c[j + 2] + we[3] * c[j + 3];     \
            const float o = wo[0] * c[j + 1] + wo[1] * c[j + 2] + wo[2] * c[j + 3] + wo[3] * c[j + 4]; \
            d[2 * j] = e < top ? e : top;                                                              \
            d[2 * j + 1] = o < top ? o : top;                                                          \
        }                                                                                              \
    }                                                                                                  \
    /* d = w[0] r[0] + … + w[count − 1] r[count − 1], summed from 0 in that order, 32 columns at a */  \
    /* time in registers */                                                                           \
    ATTRIBUTES static void reduce_##SUFFIX(const float *const *r, const float *w, int count, float *d,  \
        int n) {                                                                                       \
        int i = 0;                                                                                     \
        for (; i + 32 <= n; i += 32) {                                                                 \
            float acc[32];                                                                             \
            for (int j = 0; j < 32; j++) acc[j] = 0;                                                   \
            for (int k = 0; k < count; k++) {                                                          \
                const float *row = r[k] + i, wk = w[k];                                                \
                for (int j = 0; j < 32; j++) acc[j] += wk * row[j];                                    \
            }                                                                                          \
            for (int j = 0; j < 32; j++) d[i + j] = acc[j];                                            \
        }                                                                                              \
        for (; i < n; i++) {                                                                           \
            float acc = 0;                                                                             \
            for (int k = 0; k < count; k++) acc += w[k] * r[k][i];                                     \
            d[i] = acc;                                                                                \
        }                                                                                              \
    }                                                                                                  \
    /* YUV floats to RGB codes; u, v hold full-width chroma (or, when split, even and odd halves) */   \
    ATTRIBUTES static void to_rgb_##SUFFIX(const FDYUVPlan *p, const float *y, const float *u,         \
        const float *v, float *r, float *g, float *b, int n) {                                         \
        const float yo = p->yo, co = p->co, yk = p->yk, rv = p->rv, gu = p->gu, gv = p->gv,            \
                    bu = p->bu, top = p->rgb_max;                                                      \
        for (int i = 0; i < n; i++) {                                                                  \
            const float l = yk * (y[i] - yo), cu = u[i] - co, cv = v[i] - co;                          \
            float rr = l + rv * cv + 0.5f, gg = l - gu * cu - gv * cv + 0.5f, bb = l + bu * cu + 0.5f; \
            r[i] = rr < 0 ? 0 : rr > top ? top : rr;                                                   \
            g[i] = gg < 0 ? 0 : gg > top ? top : gg;                                                   \
            b[i] = bb < 0 ? 0 : bb > top ? top : bb;                                                   \
        }                                                                                              \
    }                                                                                                  \
    ATTRIBUTES static void store_rgb8_##SUFFIX(const float *r, const float *g, const float *b,         \
        uint8_t *d, int n) {                                                                           \
        for (int i = 0; i < n; i++) {                                                                  \
            d[3 * i] = (uint8_t)(int)r[i];                                                             \
            d[3 * i + 1] = (uint8_t)(int)g[i];                                                         \
            d[3 * i + 2] = (uint8_t)(int)b[i];                                                         \
        }                                                                                              \
    }                                                                                                  \
    ATTRIBUTES static void store_rgb16_##SUFFIX(const float *r, const float *g, const float *b,        \
        uint16_t *d, int n) {                                                                          \
        for (int i = 0; i < n; i++) {                                                                  \
            d[3 * i] = (uint16_t)(int)r[i];                                                            \
            d[3 * i + 1] = (uint16_t)(int)g[i];                                                        \
            d[3 * i + 2] = (uint16_t)(int)b[i];                                                        \
        }                                                                                              \
    }                                                                                                  \
    /* One RGB row: luma codes into yq (rounded floats), pair-averaged U and V into u, v. */           \
    ATTRIBUTES static void from_rgb_##SUFFIX(const FDYUVPlan *p, const float *r, const float *g,       \
        const float *b, float *yq, float *u, float *v, int n) {                                        \
        const float yo = p->yo, ry = p->ry, gy = p->gy, by = p->by, top = p->code_max;                 \
        for (int i = 0; i < n; i++) {                                                                  \
            float l = yo + ry * r[i] + gy * g[i] + by * b[i] + 0.5f;                                   \
            yq[i] = l < 0 ? 0 : l > top ? top : l;                                                     \
        }                                                                                              \
        const float ru = 0.5f * p->ru, gu = 0.5f * p->gu2, bu = 0.5f * p->bu2, rv = 0.5f * p->rv2,     \
                    gv = 0.5f * p->gv2, bv = 0.5f * p->bv2;                                            \
        for (int j = 0; j < n / 2; j++) {                                                              \
            const float rs = r[2 * j] + r[2 * j + 1], gs = g[2 * j] + g[2 * j + 1],                    \
                        bs = b[2 * j] + b[2 * j + 1];                                                  \
            u[j] = ru * rs + gu * gs + bu * bs;                                                        \
            v[j] = rv * rs + gv * gs + bv * bs;                                                        \
        }                                                                                              \
    }                                                                                                  \
    ATTRIBUTES static void split_rgb8_##SUFFIX(const uint8_t *s, float *r, float *g, float *b, int n) {\
        for (int i = 0; i < n; i++) {                                                                  \
            r[i] = s[3 * i];                                                                           \
            g[i] = s[3 * i + 1];                                                                       \
            b[i] = s[3 * i + 2];                                                                       \
        }                                                                                              \
    }                                                                                                  \
    ATTRIBUTES static void split_rgb16_##SUFFIX(const uint16_t *s, float *r, float *g, float *b,       \
        int n) {                                                                                       \
        for (int i = 0; i < n; i++) {                                                                  \
            r[i] = s[3 * i];                                                                           \
            g[i] = s[3 * i + 1];                                                                       \
            b[i] = s[3 * i + 2];                                                                       \
        }                                                                                              \
    }                                                                                                  \
    /* Chroma codes: offset, rounded, clamped; stored as 8 or 16 bits */                               \
    ATTRIBUTES static void store_chroma_##SUFFIX(const FDYUVPlan *p, const float *c, void *d, int n) { \
        const float co = p->co + 0.5f, top = p->code_max;                                              \
        if (p->depth == 8) {                                                                           \
            uint8_t *q = d;                                                                            \
            for (int i = 0; i < n; i++) {                                                              \
                float x = c[i] + co;                                                                   \
                q[i] = (uint8_t)(int)(x < 0 ? 0 : x > top ? top : x);                                  \
            }                                                                                          \
        } else {                                                                                       \
            uint16_t *q = d;                                                                           \
            for (int i = 0; i < n; i++) {                                                              \
                float x = c[i] + co;                                                                   \
                q[i] = (uint16_t)(int)(x < 0 ? 0 : x > top ? top : x);                                 \
            }                                                                                          \
        }                                                                                              \
    }                                                                                                  \
    ATTRIBUTES static void store_luma_##SUFFIX(const FDYUVPlan *p, const float *c, void *d, int n) {   \
        if (p->depth == 8) {                                                                           \
            uint8_t *q = d;                                                                            \
            for (int i = 0; i < n; i++) q[i] = (uint8_t)(int)c[i];                                     \
        } else {                                                                                       \
            uint16_t *q = d;                                                                           \
            for (int i = 0; i < n; i++) q[i] = (uint16_t)(int)c[i];                                    \
        }                                                                                              \
    }

YUV_ROW_FUNCTIONS(scalar, )
#if FD_YUV_X86
YUV_ROW_FUNCTIONS(avx2, FD_AVX2)
#endif

#if FD_YUV_X86
// The 8-bit conversions of whole 16-pixel blocks with every intermediate in registers, by the float
// operations of blend4, to_rgb and store_rgb8 (YUV → RGB) and of split_rgb8, from_rgb and store_luma
// (RGB → YUV), in the same order, so they give the same codes. rgb24 is split into and joined from one
// 16-byte vector per channel by byte shuffles.

// Channel c of 16 rgb24 pixels `a` as 16 bytes.
FD_AVX2 static inline __m128i split_channel(const FDYUVPlan *p, const __m128i a[3], int c) {
    __m128i x = _mm_shuffle_epi8(a[0], _mm_loadu_si128((const __m128i *)p->split[0][c]));
    x = _mm_or_si128(x, _mm_shuffle_epi8(a[1], _mm_loadu_si128((const __m128i *)p->split[1][c])));
    return _mm_or_si128(x, _mm_shuffle_epi8(a[2], _mm_loadu_si128((const __m128i *)p->split[2][c])));
}

// Bytes 0 … 7 (high = 0) or 8 … 15 (high = 1) of `x` as floats.
FD_AVX2 static inline __m256 widen_bytes(__m128i x, int high) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(high ? _mm_srli_si128(x, 8) : x));
}

// Two vectors of 8 non-negative integers in 0 … 255 as 16 bytes, in order.
FD_AVX2 static inline __m128i narrow_to_bytes(__m256i a, __m256i b) {
    const __m128i low = _mm_packus_epi32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    const __m128i high = _mm_packus_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1));
    return _mm_packus_epi16(low, high);
}

FD_AVX2 static inline __m256 clamp_codes(__m256 x, __m256 top) {
    return _mm256_min_ps(_mm256_max_ps(x, _mm256_setzero_ps()), top);
}

// n (a multiple of 16) pixels of 8-bit luma `y` and the 4 widened chroma rows su, sv blended by
// `weight` into rgb24 `d`.
FD_AVX2 static void to_rgb8_blocks_avx2(const FDYUVPlan *p, const uint8_t *y, const float *const *su,
    const float *const *sv, const float *weight, uint8_t *d, int n) {
    const __m256 w0 = _mm256_set1_ps(weight[0]), w1 = _mm256_set1_ps(weight[1]),
                 w2 = _mm256_set1_ps(weight[2]), w3 = _mm256_set1_ps(weight[3]);
    const __m256 yo = _mm256_set1_ps(p->yo), co = _mm256_set1_ps(p->co), yk = _mm256_set1_ps(p->yk),
                 rv = _mm256_set1_ps(p->rv), gu = _mm256_set1_ps(p->gu), gv = _mm256_set1_ps(p->gv),
                 bu = _mm256_set1_ps(p->bu), half = _mm256_set1_ps(0.5f),
                 top = _mm256_set1_ps(p->rgb_max);
    for (int i = 0; i < n; i += 16) {
        const __m128i luma = _mm_loadu_si128((const __m128i *)(y + i));
        __m256i r[2], g[2], b[2];
        for (int h = 0; h < 2; h++) {
            const int x = i + 8 * h;
            __m256 u = _mm256_mul_ps(w0, _mm256_loadu_ps(su[0] + x));
            u = _mm256_add_ps(u, _mm256_mul_ps(w1, _mm256_loadu_ps(su[1] + x)));
            u = _mm256_add_ps(u, _mm256_mul_ps(w2, _mm256_loadu_ps(su[2] + x)));
            u = _mm256_add_ps(u, _mm256_mul_ps(w3, _mm256_loadu_ps(su[3] + x)));
            __m256 v = _mm256_mul_ps(w0, _mm256_loadu_ps(sv[0] + x));
            v = _mm256_add_ps(v, _mm256_mul_ps(w1, _mm256_loadu_ps(sv[1] + x)));
            v = _mm256_add_ps(v, _mm256_mul_ps(w2, _mm256_loadu_ps(sv[2] + x)));
            v = _mm256_add_ps(v, _mm256_mul_ps(w3, _mm256_loadu_ps(sv[3] + x)));
            const __m256 l = _mm256_mul_ps(yk, _mm256_sub_ps(widen_bytes(luma, h), yo));
            const __m256 cu = _mm256_sub_ps(u, co), cv = _mm256_sub_ps(v, co);
            const __m256 rr = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(rv, cv)), half);
            const __m256 gg = _mm256_add_ps(
                _mm256_sub_ps(_mm256_sub_ps(l, _mm256_mul_ps(gu, cu)), _mm256_mul_ps(gv, cv)), half);
            const __m256 bb = _mm256_add_ps(_mm256_add_ps(l, _mm256_mul_ps(bu, cu)), half);
            r[h] = _mm256_cvttps_epi32(clamp_codes(rr, top));
            g[h] = _mm256_cvttps_epi32(clamp_codes(gg, top));
            b[h] = _mm256_cvttps_epi32(clamp_codes(bb, top));
        }
        const __m128i channel[3] = {
            narrow_to_bytes(r[0], r[1]), narrow_to_bytes(g[0], g[1]), narrow_to_bytes(b[0], b[1])};
        for (int k = 0; k < 3; k++) {
            __m128i out = _mm_setzero_si128();
            for (int c = 0; c < 3; c++)
                out = _mm_or_si128(out,
                    _mm_shuffle_epi8(channel[c], _mm_loadu_si128((const __m128i *)p->join[k][c])));
            _mm_storeu_si128((__m128i *)(d + 48 * (i / 16) + 16 * k), out);
        }
    }
}

// n (a multiple of 16) rgb24 pixels of `rgb` to 8-bit luma `y` (not written when NULL) and pair-averaged
// chroma u, v (n / 2 each).
FD_AVX2 static void from_rgb8_blocks_avx2(const FDYUVPlan *p, const uint8_t *rgb, uint8_t *y, float *u,
    float *v, int n) {
    const __m256 yo = _mm256_set1_ps(p->yo), ry = _mm256_set1_ps(p->ry), gy = _mm256_set1_ps(p->gy),
                 by = _mm256_set1_ps(p->by), half = _mm256_set1_ps(0.5f),
                 top = _mm256_set1_ps(p->code_max);
    const __m256 ru = _mm256_set1_ps(0.5f * p->ru), gu = _mm256_set1_ps(0.5f * p->gu2),
                 bu = _mm256_set1_ps(0.5f * p->bu2), rv = _mm256_set1_ps(0.5f * p->rv2),
                 gv = _mm256_set1_ps(0.5f * p->gv2), bv = _mm256_set1_ps(0.5f * p->bv2);
    const __m128i pairs = _mm_loadu_si128((const __m128i *)p->pairs);
    for (int i = 0; i < n; i += 16) {
        const __m128i a[3] = {_mm_loadu_si128((const __m128i *)(rgb + 3 * i)),
            _mm_loadu_si128((const __m128i *)(rgb + 3 * i + 16)),
            _mm_loadu_si128((const __m128i *)(rgb + 3 * i + 32))};
        const __m128i channel[3] = {split_channel(p, a, 0), split_channel(p, a, 1), split_channel(p, a, 2)};
        if (y) {
            __m256i luma[2];
            for (int h = 0; h < 2; h++) {
                __m256 l = _mm256_add_ps(yo, _mm256_mul_ps(ry, widen_bytes(channel[0], h)));
                l = _mm256_add_ps(l, _mm256_mul_ps(gy, widen_bytes(channel[1], h)));
                l = _mm256_add_ps(l, _mm256_mul_ps(by, widen_bytes(channel[2], h)));
                luma[h] = _mm256_cvttps_epi32(clamp_codes(_mm256_add_ps(l, half), top));
            }
            _mm_storeu_si128((__m128i *)(y + i), narrow_to_bytes(luma[0], luma[1]));
        }
        __m256 sum[3];
        for (int c = 0; c < 3; c++) {
            const __m128i split = _mm_shuffle_epi8(channel[c], pairs);
            sum[c] = _mm256_add_ps(widen_bytes(split, 0), widen_bytes(split, 1));
        }
        const __m256 cu = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(ru, sum[0]), _mm256_mul_ps(gu, sum[1])), _mm256_mul_ps(bu, sum[2]));
        const __m256 cv = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(rv, sum[0]), _mm256_mul_ps(gv, sum[1])), _mm256_mul_ps(bv, sum[2]));
        _mm256_storeu_ps(u + i / 2, cu);
        _mm256_storeu_ps(v + i / 2, cv);
    }
}

// The AVX-512 build of to_rgb8_blocks_avx2: 16 pixels a register, the same operations.
FD_AVX512 static void to_rgb8_blocks_avx512(const FDYUVPlan *p, const uint8_t *y, const float *const *su,
    const float *const *sv, const float *weight, uint8_t *d, int n) {
    const __m512 w0 = _mm512_set1_ps(weight[0]), w1 = _mm512_set1_ps(weight[1]),
                 w2 = _mm512_set1_ps(weight[2]), w3 = _mm512_set1_ps(weight[3]);
    const __m512 yo = _mm512_set1_ps(p->yo), co = _mm512_set1_ps(p->co), yk = _mm512_set1_ps(p->yk),
                 rv = _mm512_set1_ps(p->rv), gu = _mm512_set1_ps(p->gu), gv = _mm512_set1_ps(p->gv),
                 bu = _mm512_set1_ps(p->bu), half = _mm512_set1_ps(0.5f),
                 top = _mm512_set1_ps(p->rgb_max), zero = _mm512_setzero_ps();
    for (int i = 0; i < n; i += 16) {
        __m512 u = _mm512_mul_ps(w0, _mm512_loadu_ps(su[0] + i));
        u = _mm512_add_ps(u, _mm512_mul_ps(w1, _mm512_loadu_ps(su[1] + i)));
        u = _mm512_add_ps(u, _mm512_mul_ps(w2, _mm512_loadu_ps(su[2] + i)));
        u = _mm512_add_ps(u, _mm512_mul_ps(w3, _mm512_loadu_ps(su[3] + i)));
        __m512 v = _mm512_mul_ps(w0, _mm512_loadu_ps(sv[0] + i));
        v = _mm512_add_ps(v, _mm512_mul_ps(w1, _mm512_loadu_ps(sv[1] + i)));
        v = _mm512_add_ps(v, _mm512_mul_ps(w2, _mm512_loadu_ps(sv[2] + i)));
        v = _mm512_add_ps(v, _mm512_mul_ps(w3, _mm512_loadu_ps(sv[3] + i)));
        const __m512 luma =
            _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(y + i))));
        const __m512 l = _mm512_mul_ps(yk, _mm512_sub_ps(luma, yo));
        const __m512 cu = _mm512_sub_ps(u, co), cv = _mm512_sub_ps(v, co);
        const __m512 rr = _mm512_add_ps(_mm512_add_ps(l, _mm512_mul_ps(rv, cv)), half);
        const __m512 gg = _mm512_add_ps(
            _mm512_sub_ps(_mm512_sub_ps(l, _mm512_mul_ps(gu, cu)), _mm512_mul_ps(gv, cv)), half);
        const __m512 bb = _mm512_add_ps(_mm512_add_ps(l, _mm512_mul_ps(bu, cu)), half);
        const __m128i channel[3] = {
            _mm512_cvtusepi32_epi8(_mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(rr, zero), top))),
            _mm512_cvtusepi32_epi8(_mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(gg, zero), top))),
            _mm512_cvtusepi32_epi8(_mm512_cvttps_epi32(_mm512_min_ps(_mm512_max_ps(bb, zero), top)))};
        for (int k = 0; k < 3; k++) {
            __m128i out = _mm_setzero_si128();
            for (int c = 0; c < 3; c++)
                out = _mm_or_si128(out,
                    _mm_shuffle_epi8(channel[c], _mm_loadu_si128((const __m128i *)p->join[k][c])));
            _mm_storeu_si128((__m128i *)(d + 3 * i + 16 * k), out);
        }
    }
}

// The AVX-512 build of from_rgb8_blocks_avx2: luma 16 pixels a register, chroma 8 pairs a register.
FD_AVX512 static void from_rgb8_blocks_avx512(const FDYUVPlan *p, const uint8_t *rgb, uint8_t *y,
    float *u, float *v, int n) {
    const __m512 yo = _mm512_set1_ps(p->yo), ry = _mm512_set1_ps(p->ry), gy = _mm512_set1_ps(p->gy),
                 by = _mm512_set1_ps(p->by), half = _mm512_set1_ps(0.5f),
                 top = _mm512_set1_ps(p->code_max), zero = _mm512_setzero_ps();
    const __m256 ru = _mm256_set1_ps(0.5f * p->ru), gu = _mm256_set1_ps(0.5f * p->gu2),
                 bu = _mm256_set1_ps(0.5f * p->bu2), rv = _mm256_set1_ps(0.5f * p->rv2),
                 gv = _mm256_set1_ps(0.5f * p->gv2), bv = _mm256_set1_ps(0.5f * p->bv2);
    const __m128i pairs = _mm_loadu_si128((const __m128i *)p->pairs);
    for (int i = 0; i < n; i += 16) {
        const __m128i a[3] = {_mm_loadu_si128((const __m128i *)(rgb + 3 * i)),
            _mm_loadu_si128((const __m128i *)(rgb + 3 * i + 16)),
            _mm_loadu_si128((const __m128i *)(rgb + 3 * i + 32))};
        const __m128i channel[3] = {split_channel(p, a, 0), split_channel(p, a, 1), split_channel(p, a, 2)};
        if (y) {
            __m512 l = _mm512_add_ps(yo, _mm512_mul_ps(ry, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(channel[0]))));
            l = _mm512_add_ps(l, _mm512_mul_ps(gy, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(channel[1]))));
            l = _mm512_add_ps(l, _mm512_mul_ps(by, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(channel[2]))));
            l = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(l, half), zero), top);
            _mm_storeu_si128((__m128i *)(y + i), _mm512_cvtusepi32_epi8(_mm512_cvttps_epi32(l)));
        }
        __m256 sum[3];
        for (int c = 0; c < 3; c++) {
            const __m128i split = _mm_shuffle_epi8(channel[c], pairs);
            sum[c] = _mm256_add_ps(widen_bytes(split, 0), widen_bytes(split, 1));
        }
        const __m256 cu = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(ru, sum[0]), _mm256_mul_ps(gu, sum[1])), _mm256_mul_ps(bu, sum[2]));
        const __m256 cv = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(rv, sum[0]), _mm256_mul_ps(gv, sum[1])), _mm256_mul_ps(bv, sum[2]));
        _mm256_storeu_ps(u + i / 2, cu);
        _mm256_storeu_ps(v + i / 2, cv);
    }
}
#endif

typedef struct {
    void (*load8)(const uint8_t *, float *, int);
    void (*load16)(const uint16_t *, float *, int);
    void (*blend4)(const float *, const float *, const float *, const float *, const float *, float *,
        int);
    void (*twice)(const float *, const float *, const float *, float, float *, int);
    void (*reduce)(const float *const *, const float *, int, float *, int);
    void (*to_rgb)(const FDYUVPlan *, const float *, const float *, const float *, float *, float *,
        float *, int);
    void (*store_rgb8)(const float *, const float *, const float *, uint8_t *, int);
    void (*store_rgb16)(const float *, const float *, const float *, uint16_t *, int);
    void (*from_rgb)(const FDYUVPlan *, const float *, const float *, const float *, float *, float *,
        float *, int);
    void (*split_rgb8)(const uint8_t *, float *, float *, float *, int);
    void (*split_rgb16)(const uint16_t *, float *, float *, float *, int);
    void (*store_chroma)(const FDYUVPlan *, const float *, void *, int);
    void (*store_luma)(const FDYUVPlan *, const float *, void *, int);
    // Whole 16-pixel blocks of 8-bit rows in registers, or NULL (see to_rgb8_blocks_avx2 and
    // from_rgb8_blocks_avx2): the same float operations as the row functions above.
    void (*to_rgb8_blocks)(const FDYUVPlan *, const uint8_t *, const float *const *,
        const float *const *, const float *, uint8_t *, int);
    void (*from_rgb8_blocks)(const FDYUVPlan *, const uint8_t *, uint8_t *, float *, float *, int);
} RowFunctions;

static const RowFunctions scalar_functions = {load8_scalar, load16_scalar, blend4_scalar,
    double_scalar, reduce_scalar, to_rgb_scalar, store_rgb8_scalar,
    store_rgb16_scalar, from_rgb_scalar, split_rgb8_scalar, split_rgb16_scalar, store_chroma_scalar,
    store_luma_scalar, NULL, NULL};
#if FD_YUV_X86
static const RowFunctions avx2_functions = {load8_avx2, load16_avx2, blend4_avx2, double_avx2,
    reduce_avx2, to_rgb_avx2, store_rgb8_avx2, store_rgb16_avx2, from_rgb_avx2,
    split_rgb8_avx2, split_rgb16_avx2, store_chroma_avx2, store_luma_avx2, to_rgb8_blocks_avx2,
    from_rgb8_blocks_avx2};
static const RowFunctions avx512_functions = {load8_avx2, load16_avx2, blend4_avx2, double_avx2,
    reduce_avx2, to_rgb_avx2, store_rgb8_avx2, store_rgb16_avx2, from_rgb_avx2,
    split_rgb8_avx2, split_rgb16_avx2, store_chroma_avx2, store_luma_avx2, to_rgb8_blocks_avx512,
    from_rgb8_blocks_avx512};
#endif

static const RowFunctions *row_functions(void) {
#if FD_YUV_X86
    if (use_avx512()) return &avx512_functions;
    if (use_avx2()) return &avx2_functions;
#endif
    return &scalar_functions;
}

static void load_row(const RowFunctions *f, const FDYUVPlan *p, const void *plane, ptrdiff_t stride,
    int row, float *d, int n) {
    const char *s = (const char *)plane + stride * row;
    if (p->depth == 8)
        f->load8((const uint8_t *)s, d, n);
    else
        f->load16((const uint16_t *)s, d, n);
}

// ---------------------------------------------------------------------------------------------
// YUV → RGB, one output row at a time

// Widened chroma rows (4 slots per plane, kept while consecutive output rows need them) and the float
// rows of one output row.
typedef struct {
    const FDYUVPlan *p;
    const RowFunctions *f;
    float *rows_u, *rows_v, *full_u, *full_v, *luma, *r, *g, *b, *padded;
    int cached[4];  // chroma row held in each slot of rows_u / rows_v
} Widening;

// Floats a Widening needs: 14 rows of the width and a padded chroma row.
static size_t widening_floats(const FDYUVPlan *p) {
    return 14 * (size_t)p->width + (size_t)p->chroma_width + 4;
}

static void widening_init(Widening *s, const FDYUVPlan *p, const RowFunctions *f, float *scratch) {
    const size_t w = (size_t)p->width;
    s->p = p;
    s->f = f;
    s->rows_u = scratch;
    s->rows_v = s->rows_u + 4 * w;
    s->full_u = s->rows_v + 4 * w;
    s->full_v = s->full_u + w;
    s->luma = s->full_v + w;
    s->r = s->luma + w;
    s->g = s->r + w;
    s->b = s->g + w;
    s->padded = s->b + w;
    for (int k = 0; k < 4; k++) s->cached[k] = -1;
}

// Enlarges chroma row `row` of `plane` to full width into `d`: 2× by the fixed even/odd taps for even
// widths, by each column's taps otherwise; then clips at swscale's intermediate ceiling.
static void widen_chroma(const Widening *s, const void *plane, ptrdiff_t stride, int row, float *d) {
    const FDYUVPlan *p = s->p;
    const int w = p->width, cw = p->chroma_width;
    float *padded = s->padded;
    load_row(s->f, p, plane, stride, row, padded + 2, cw);
    for (int k = 0; k < 2; k++) {
        padded[k] = padded[2];
        padded[cw + 2 + k] = padded[cw + 1];
    }
    if (w % 2 == 0) {
        s->f->twice(padded, p->even_weights, p->odd_weights, p->chroma_ceiling, d, cw);
        // The outermost columns take their own taps (see make_taps).
        for (int x = 0; x < w; x++) {
            if (x == 4 && w > 8) x = w - 4;
            const Taps *c = &p->up_columns[x];
            float sum = 0;
            for (int k = 0; k < 4; k++) sum += c->weight[k] * padded[clamp_index(c->first + k, cw) + 2];
            d[x] = sum < p->chroma_ceiling ? sum : p->chroma_ceiling;
        }
        return;
    }
    for (int x = 0; x < w; x++) {
        const Taps *c = &p->up_columns[x];
        float sum = 0;
        for (int k = 0; k < 4; k++) sum += c->weight[k] * padded[clamp_index(c->first + k, cw) + 2];
        d[x] = sum < p->chroma_ceiling ? sum : p->chroma_ceiling;
    }
}

// Points su, sv at the 4 widened chroma rows output row `row` blends, widening those not cached.
static void chroma_rows(Widening *s, const void *u, ptrdiff_t u_stride, const void *v, ptrdiff_t v_stride,
    int row, const float *su[4], const float *sv[4]) {
    const FDYUVPlan *p = s->p;
    const size_t w = (size_t)p->width;
    const Taps *t = &p->up_rows[row];
    int wanted[4];
    for (int k = 0; k < 4; k++) wanted[k] = clamp_index(t->first + k, p->chroma_height);
    for (int k = 0; k < 4; k++) {
        int slot = -1;
        for (int c = 0; c < 4; c++)
            if (s->cached[c] == wanted[k]) slot = c;
        if (slot < 0) {
            // Reuse a slot no tap of this row needs.
            for (int c = 0; c < 4 && slot < 0; c++) {
                int needed = 0;
                for (int m = 0; m < 4; m++) needed |= s->cached[c] == wanted[m];
                if (!needed) slot = c;
            }
            s->cached[slot] = wanted[k];
            widen_chroma(s, u, u_stride, wanted[k], s->rows_u + (size_t)slot * w);
            widen_chroma(s, v, v_stride, wanted[k], s->rows_v + (size_t)slot * w);
        }
        su[k] = s->rows_u + (size_t)slot * w;
        sv[k] = s->rows_v + (size_t)slot * w;
    }
}

// Converts columns [x, width) of output row `row` into the rounded, clamped RGB codes s->r, s->g, s->b
// (from index x), given its chroma rows su, sv.
static void widen_columns(Widening *s, const void *y, ptrdiff_t y_stride, int row, const float *su[4],
    const float *sv[4], int x) {
    const FDYUVPlan *p = s->p;
    const RowFunctions *f = s->f;
    const int n = p->width - x;
    const float *weight = p->up_rows[row].weight;
    f->blend4(su[0] + x, su[1] + x, su[2] + x, su[3] + x, weight, s->full_u + x, n);
    f->blend4(sv[0] + x, sv[1] + x, sv[2] + x, sv[3] + x, weight, s->full_v + x, n);
    const char *luma = (const char *)y + y_stride * row + (p->depth == 8 ? 1 : 2) * (size_t)x;
    if (p->depth == 8)
        f->load8((const uint8_t *)luma, s->luma + x, n);
    else
        f->load16((const uint16_t *)luma, s->luma + x, n);
    f->to_rgb(p, s->luma + x, s->full_u + x, s->full_v + x, s->r + x, s->g + x, s->b + x, n);
}

// Converts 8-bit output row `row` into rgb24 `d`: whole 16-pixel blocks in registers where the CPU
// can, the rest through the float rows.
static void widen_row8(Widening *s, const void *y, ptrdiff_t y_stride, const void *u, ptrdiff_t u_stride,
    const void *v, ptrdiff_t v_stride, int row, uint8_t *d) {
    const FDYUVPlan *p = s->p;
    const float *su[4], *sv[4];
    chroma_rows(s, u, u_stride, v, v_stride, row, su, sv);
    const int blocks = s->f->to_rgb8_blocks ? p->width / 16 * 16 : 0;
    if (blocks)
        s->f->to_rgb8_blocks(p, (const uint8_t *)y + y_stride * row, su, sv, p->up_rows[row].weight, d,
            blocks);
    if (blocks == p->width) return;
    widen_columns(s, y, y_stride, row, su, sv, blocks);
    s->f->store_rgb8(s->r + blocks, s->g + blocks, s->b + blocks, d + 3 * (size_t)blocks,
        p->width - blocks);
}

void fd_yuv420_to_rgb(const FDYUVPlan *p, const void *y, ptrdiff_t y_stride, const void *u,
    ptrdiff_t u_stride, const void *v, ptrdiff_t v_stride, void *rgb, ptrdiff_t rgb_stride,
    int row_start, int row_end) {
    const RowFunctions *f = row_functions();
    float *scratch = malloc(sizeof(float) * widening_floats(p));
    if (!scratch) return;
    Widening s;
    widening_init(&s, p, f, scratch);
    for (int row = row_start; row < row_end; row++) {
        char *target = (char *)rgb + rgb_stride * row;
        if (p->depth == 8) {
            widen_row8(&s, y, y_stride, u, u_stride, v, v_stride, row, (uint8_t *)target);
            continue;
        }
        const float *su[4], *sv[4];
        chroma_rows(&s, u, u_stride, v, v_stride, row, su, sv);
        widen_columns(&s, y, y_stride, row, su, sv, 0);
        f->store_rgb16(s.r, s.g, s.b, (uint16_t *)target, p->width);
    }
    free(scratch);
}

// ---------------------------------------------------------------------------------------------
// RGB → YUV, one source row at a time

// Rows of half-width chroma in a ring (a chroma row reads at most TAPS_DOWN_MAX consecutive source
// rows, all still in the ring when its last one arrives), and the float rows of one source row.
enum { RING = TAPS_DOWN_MAX };

typedef struct {
    const FDYUVPlan *p;
    const RowFunctions *f;
    float *ring_u, *ring_v, *r, *g, *b, *yq, *acc_u, *acc_v;
    int first, last;            // source rows the chroma rows read, clamped to the frame
    int luma_start, luma_end;   // luma rows written
    int next_chroma, chroma_end;
} Narrowing;

static size_t narrowing_floats(const FDYUVPlan *p) {
    return 2 * (size_t)RING * (size_t)p->chroma_width + 4 * (size_t)p->width +
        2 * (size_t)p->chroma_width;
}

// Prepares the conversion of chroma rows [chroma_start, chroma_end) (chroma_start < chroma_end).
static void narrowing_init(Narrowing *s, const FDYUVPlan *p, const RowFunctions *f, float *scratch,
    int chroma_start, int chroma_end) {
    const size_t w = (size_t)p->width, cw = (size_t)p->chroma_width;
    s->p = p;
    s->f = f;
    s->ring_u = scratch;
    s->ring_v = s->ring_u + RING * cw;
    s->r = s->ring_v + RING * cw;
    s->g = s->r + w;
    s->b = s->g + w;
    s->yq = s->b + w;
    s->acc_u = s->yq + w;
    s->acc_v = s->acc_u + cw;
    int first = p->down_rows[chroma_start].first, last = first;
    for (int c = chroma_start; c < chroma_end; c++) {
        const Taps *t = &p->down_rows[c];
        if (t->first < first) first = t->first;
        if (t->first + t->count - 1 > last) last = t->first + t->count - 1;
    }
    s->first = clamp_index(first, p->height);
    s->last = clamp_index(last, p->height);
    s->luma_start = 2 * chroma_start;
    s->luma_end = 2 * chroma_end < p->height ? 2 * chroma_end : p->height;
    s->next_chroma = chroma_start;
    s->chroma_end = chroma_end;
}

// Converts columns [x, width) of source row `row` from s->r, s->g, s->b (from index x) into its ring
// slot's chroma and, when `luma` is not NULL, its luma codes there. x is even.
static void narrow_columns(Narrowing *s, int row, void *luma, int x) {
    const FDYUVPlan *p = s->p;
    const RowFunctions *f = s->f;
    const int w = p->width, cw = p->chroma_width;
    float *hu = s->ring_u + (size_t)(row % RING) * cw, *hv = s->ring_v + (size_t)(row % RING) * cw;
    f->from_rgb(p, s->r + x, s->g + x, s->b + x, s->yq + x, hu + x / 2, hv + x / 2, w - x);
    if (w % 2) {
        // The last chroma column covers one pixel: its own chroma. (swscale averages that pixel with
        // the one after the row in memory.)
        const int last = w - 1;
        hu[w / 2] = p->ru * s->r[last] + p->gu2 * s->g[last] + p->bu2 * s->b[last];
        hv[w / 2] = p->rv2 * s->r[last] + p->gv2 * s->g[last] + p->bv2 * s->b[last];
    }
    if (luma) f->store_luma(p, s->yq + x, (char *)luma + (p->depth == 8 ? 1 : 2) * (size_t)x, w - x);
}

// Writes every chroma row whose last source row is `row` (rows arrive in order from s->first).
static void emit_chroma(Narrowing *s, int row, void *u, ptrdiff_t u_stride, void *v, ptrdiff_t v_stride) {
    const FDYUVPlan *p = s->p;
    const RowFunctions *f = s->f;
    const int h = p->height, cw = p->chroma_width;
    while (s->next_chroma < s->chroma_end) {
        const int c = s->next_chroma;
        const Taps *t = &p->down_rows[c];
        if (clamp_index(t->first + t->count - 1, h) > row) break;
        const float *rows_u[TAPS_DOWN_MAX], *rows_v[TAPS_DOWN_MAX];
        for (int k = 0; k < t->count; k++) {
            const size_t slot = (size_t)(clamp_index(t->first + k, h) % RING);
            rows_u[k] = s->ring_u + slot * cw;
            rows_v[k] = s->ring_v + slot * cw;
        }
        f->reduce(rows_u, t->weight, t->count, s->acc_u, cw);
        f->reduce(rows_v, t->weight, t->count, s->acc_v, cw);
        f->store_chroma(p, s->acc_u, (char *)u + u_stride * c, cw);
        f->store_chroma(p, s->acc_v, (char *)v + v_stride * c, cw);
        s->next_chroma++;
    }
}

// The luma row `row` of plane y when the range writes it, else NULL.
static void *luma_target(const Narrowing *s, int row, void *y, ptrdiff_t y_stride) {
    return row >= s->luma_start && row < s->luma_end ? (char *)y + y_stride * row : NULL;
}

// Takes 8-bit source row `row` from rgb24 `rgb`: whole 16-pixel blocks in registers where the CPU can,
// the rest through the float rows.
static void narrow_row8(Narrowing *s, int row, const uint8_t *rgb, void *y, ptrdiff_t y_stride, void *u,
    ptrdiff_t u_stride, void *v, ptrdiff_t v_stride) {
    const FDYUVPlan *p = s->p;
    const int cw = p->chroma_width;
    uint8_t *luma = luma_target(s, row, y, y_stride);
    const int blocks = s->f->from_rgb8_blocks ? p->width / 16 * 16 : 0;
    if (blocks)
        s->f->from_rgb8_blocks(p, rgb, luma, s->ring_u + (size_t)(row % RING) * cw,
            s->ring_v + (size_t)(row % RING) * cw, blocks);
    if (blocks < p->width) {
        s->f->split_rgb8(rgb + 3 * (size_t)blocks, s->r + blocks, s->g + blocks, s->b + blocks,
            p->width - blocks);
        narrow_columns(s, row, luma, blocks);
    }
    emit_chroma(s, row, u, u_stride, v, v_stride);
}

void fd_rgb_to_yuv420(const FDYUVPlan *p, const void *rgb, ptrdiff_t rgb_stride, void *y,
    ptrdiff_t y_stride, void *u, ptrdiff_t u_stride, void *v, ptrdiff_t v_stride, int chroma_start,
    int chroma_end) {
    if (chroma_start >= chroma_end) return;
    const RowFunctions *f = row_functions();
    float *scratch = malloc(sizeof(float) * narrowing_floats(p));
    if (!scratch) return;
    Narrowing s;
    narrowing_init(&s, p, f, scratch, chroma_start, chroma_end);
    for (int row = s.first; row <= s.last; row++) {
        const char *source = (const char *)rgb + rgb_stride * row;
        if (p->depth == 8) {
            narrow_row8(&s, row, (const uint8_t *)source, y, y_stride, u, u_stride, v, v_stride);
            continue;
        }
        f->split_rgb16((const uint16_t *)source, s.r, s.g, s.b, p->width);
        narrow_columns(&s, row, luma_target(&s, row, y, y_stride), 0);
        emit_chroma(&s, row, u, u_stride, v, v_stride);
    }
    free(scratch);
}

// ---------------------------------------------------------------------------------------------
// YUV → RGB → transform → YUV in one pass

// Rows converted before each call of the transform: the transform's tables and the conversions' rows
// take turns in the caches a group at a time, not a row at a time.
enum { TRANSFORM_ROWS = 8 };

int fd_yuv420_transform(const FDYUVPlan *p, FDRGBRowTransform transform, const void *context,
    const void *y, ptrdiff_t y_stride, const void *u, ptrdiff_t u_stride, const void *v,
    ptrdiff_t v_stride, void *out_y, ptrdiff_t out_y_stride, void *out_u, ptrdiff_t out_u_stride,
    void *out_v, ptrdiff_t out_v_stride, int chroma_start, int chroma_end) {
    if (p->depth != 8 || !transform) return -1;
    if (chroma_start >= chroma_end) return 0;
    const RowFunctions *f = row_functions();
    const size_t w = (size_t)p->width, group = TRANSFORM_ROWS;
    const size_t floats = widening_floats(p) + narrowing_floats(p);
    float *scratch = malloc(sizeof(float) * floats + 2 * 3 * w * group + 64);
    if (!scratch) return -1;
    uint8_t *converted = (uint8_t *)(scratch + floats), *transformed = converted + 3 * w * group + 32;
    Widening wide;
    Narrowing narrow;
    widening_init(&wide, p, f, scratch);
    narrowing_init(&narrow, p, f, scratch + widening_floats(p), chroma_start, chroma_end);
    for (int first = narrow.first; first <= narrow.last; first += (int)group) {
        const int rows = narrow.last - first + 1 < (int)group ? narrow.last - first + 1 : (int)group;
        for (int k = 0; k < rows; k++)
            widen_row8(&wide, y, y_stride, u, u_stride, v, v_stride, first + k, converted + 3 * w * k);
        transform(context, converted, transformed, rows * p->width);
        for (int k = 0; k < rows; k++)
            narrow_row8(&narrow, first + k, transformed + 3 * w * k, out_y, out_y_stride, out_u,
                out_u_stride, out_v, out_v_stride);
    }
    free(scratch);
    return 0;
}
