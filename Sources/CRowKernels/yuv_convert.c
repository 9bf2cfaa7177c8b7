// The plan of a frame size, depth, matrix and range (filters, coefficients, the 8-bit paths'
// fixed-point constants), the entry points, and the 10-bit conversions in float: built once portable
// and once each for AVX2 and AVX-512 (the compiler vectorizes the same loops). The 8-bit conversions
// are in yuv_fixed8.c.
#include "yuv_plan.h"

#include "ColourRows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Separate multiplies and adds everywhere, so that the scalar and AVX2 builds of each row function
// (the same C, vectorized by the compiler) give the same float results.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

// swscale's bicubic kernel (B = 0, C = 0.6) at distance d.
static double cubic(double d) {
    const double c = 0.6;
    d = fabs(d);
    if (d < 1) return ((12 - 6 * c) * d * d * d + (-18 + 6 * c) * d * d + 6) / 6;
    if (d < 2) return ((-6 * c) * d * d * d + 30 * c * d * d - 48 * c * d + 24 * c) / 6;
    return 0;
}

// `n` weights summing to 1 as Q15 integers summing to 32768 (the largest takes the rounding), a
// weight of 1 as 32767.
static void quantize_weights(const double *w, int n, int16_t *fixed) {
    int sum = 0, largest = 0;
    long q[TAPS_DOWN_MAX];
    for (int k = 0; k < n; k++) {
        q[k] = lround(w[k] * 32768);
        sum += (int)q[k];
        if (fabs(w[k]) > fabs(w[largest])) largest = k;
    }
    q[largest] += 32768 - sum;
    for (int k = 0; k < n; k++)
        fixed[k] = (int16_t)(q[k] > 32767 ? 32767 : q[k] < -32768 ? -32768 : q[k]);
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
        for (int j = 0; j <= last - first; j++) taps[i].weight[j] = (float)(w[j] = w[j] / sum);
        quantize_weights(w, last - first + 1, taps[i].fixed);
    }
}

FDYUVPlan *fd_yuv_plan_create(int width, int height, int depth, int matrix, int full_range) {
    if (width < 1 || height < 1 || (depth != 8 && depth != 10) || matrix < 0 || matrix > 2) return NULL;
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
    double even[4], odd[4];
    for (int k = 0; k < 4; k++) {
        p->even_weights[k] = (float)(even[k] = cubic(k - 2 + 0.25));
        p->odd_weights[k] = (float)(odd[k] = cubic(k - 1 - 0.25));
    }
    quantize_weights(even, 4, p->fixed.even);
    quantize_weights(odd, 4, p->fixed.odd);
    // Kr and Kb of BT.601, BT.709 and BT.2020 non-constant luminance.
    const double kr = matrix == 2 ? 0.2627 : matrix == 1 ? 0.2126 : 0.299;
    const double kb = matrix == 2 ? 0.0593 : matrix == 1 ? 0.0722 : 0.114, kg = 1 - kr - kb;
    const double unit = depth == 8 ? 1 : 4;  // TV-range codes scale with depth
    // 10-bit video meets 16-bit RGB as swscale scales it: as 8-bit video × 256, so TV white (940)
    // is 65280 and full-range 1023 is 65472 (× 64).
    const double code_max = (1 << depth) - 1;
    const double rgb_max = depth == 8 ? 255 : full_range ? 65472 : 65280;
    const double ys = full_range ? code_max : 219 * unit, cs = full_range ? code_max : 224 * unit;
    p->yo = (float)(full_range ? 0 : 16 * unit);
    p->co = (float)(1 << (depth - 1));
    p->code_max = (float)code_max;
    p->chroma_ceiling = 524287.0f / 512;
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
    if (depth == 8) fd_yuv8_prepare(p);
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
// Shared by both depths

FDYUVNarrowRange fd_yuv_narrow_range(const FDYUVPlan *p, int chroma_start, int chroma_end) {
    int first = p->down_rows[chroma_start].first, last = first;
    for (int c = chroma_start; c < chroma_end; c++) {
        const Taps *t = &p->down_rows[c];
        if (t->first < first) first = t->first;
        if (t->first + t->count - 1 > last) last = t->first + t->count - 1;
    }
    FDYUVNarrowRange range = {clamp_index(first, p->height), clamp_index(last, p->height),
        2 * chroma_start, 2 * chroma_end < p->height ? 2 * chroma_end : p->height};
    return range;
}

void fd_yuv_chroma_slots(const FDYUVPlan *p, int row, int cached[4], int slots[4], int fresh[4]) {
    const Taps *t = &p->up_rows[row];
    int wanted[4];
    for (int k = 0; k < 4; k++) wanted[k] = clamp_index(t->first + k, p->chroma_height);
    for (int k = 0; k < 4; k++) {
        int slot = -1;
        for (int c = 0; c < 4; c++)
            if (cached[c] == wanted[k]) slot = c;
        fresh[k] = slot < 0;
        if (slot < 0) {
            // Reuse a slot no tap of this row needs.
            for (int c = 0; c < 4 && slot < 0; c++) {
                int needed = 0;
                for (int m = 0; m < 4; m++) needed |= cached[c] == wanted[m];
                if (!needed) slot = c;
            }
            cached[slot] = wanted[k];
        }
        slots[k] = slot;
    }
}

// ---------------------------------------------------------------------------------------------
// 10-bit row functions, built once portable and once each for AVX2 and AVX-512 (the compiler
// vectorizes the same loops).

#define YUV_ROW_FUNCTIONS(SUFFIX, ATTRIBUTES)                                                          \
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
    ATTRIBUTES static void split_rgb16_##SUFFIX(const uint16_t *s, float *r, float *g, float *b,       \
        int n) {                                                                                       \
        for (int i = 0; i < n; i++) {                                                                  \
            r[i] = s[3 * i];                                                                           \
            g[i] = s[3 * i + 1];                                                                       \
            b[i] = s[3 * i + 2];                                                                       \
        }                                                                                              \
    }                                                                                                  \
    /* Chroma codes: offset, rounded, clamped */                                                    \
    ATTRIBUTES static void store_chroma_##SUFFIX(const FDYUVPlan *p, const float *c, uint16_t *d,      \
        int n) {                                                                                       \
        const float co = p->co + 0.5f, top = p->code_max;                                              \
        for (int i = 0; i < n; i++) {                                                                  \
            float x = c[i] + co;                                                                       \
            d[i] = (uint16_t)(int)(x < 0 ? 0 : x > top ? top : x);                                     \
        }                                                                                              \
    }                                                                                                  \
    ATTRIBUTES static void store_luma_##SUFFIX(const float *c, uint16_t *d, int n) {                   \
        for (int i = 0; i < n; i++) d[i] = (uint16_t)(int)c[i];                                        \
    }

YUV_ROW_FUNCTIONS(scalar, )
#if FD_X86_SIMD
YUV_ROW_FUNCTIONS(avx2, FD_AVX2)
YUV_ROW_FUNCTIONS(avx512, FD_AVX512)
#endif

typedef struct {
    void (*load16)(const uint16_t *, float *, int);
    void (*blend4)(const float *, const float *, const float *, const float *, const float *, float *,
        int);
    void (*twice)(const float *, const float *, const float *, float, float *, int);
    void (*reduce)(const float *const *, const float *, int, float *, int);
    void (*to_rgb)(const FDYUVPlan *, const float *, const float *, const float *, float *, float *,
        float *, int);
    void (*store_rgb16)(const float *, const float *, const float *, uint16_t *, int);
    void (*from_rgb)(const FDYUVPlan *, const float *, const float *, const float *, float *, float *,
        float *, int);
    void (*split_rgb16)(const uint16_t *, float *, float *, float *, int);
    void (*store_chroma)(const FDYUVPlan *, const float *, uint16_t *, int);
    void (*store_luma)(const float *, uint16_t *, int);
} RowFunctions;

static const RowFunctions scalar_functions = {load16_scalar, blend4_scalar, double_scalar,
    reduce_scalar, to_rgb_scalar, store_rgb16_scalar, from_rgb_scalar, split_rgb16_scalar,
    store_chroma_scalar, store_luma_scalar};
#if FD_X86_SIMD
static const RowFunctions avx2_functions = {load16_avx2, blend4_avx2, double_avx2, reduce_avx2,
    to_rgb_avx2, store_rgb16_avx2, from_rgb_avx2, split_rgb16_avx2, store_chroma_avx2,
    store_luma_avx2};
static const RowFunctions avx512_functions = {load16_avx512, blend4_avx512, double_avx512,
    reduce_avx512, to_rgb_avx512, store_rgb16_avx512, from_rgb_avx512, split_rgb16_avx512,
    store_chroma_avx512, store_luma_avx512};
#endif

static const RowFunctions *row_functions(void) {
#if FD_X86_SIMD
    if (fd_simd_path() == FD_SIMD_AVX512) return &avx512_functions;
    if (fd_simd_path() != FD_SIMD_SCALAR) return &avx2_functions;
#endif
    return &scalar_functions;
}

// ---------------------------------------------------------------------------------------------
// 10-bit YUV → RGB, one output row at a time

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

// The sum of column x's taps over the padded row, clipped at swscale's intermediate ceiling.
static float widen_column(const FDYUVPlan *p, const float *padded, int x) {
    const Taps *c = &p->up_columns[x];
    float sum = 0;
    for (int k = 0; k < 4; k++)
        sum += c->weight[k] * padded[clamp_index(c->first + k, p->chroma_width) + 2];
    return sum < p->chroma_ceiling ? sum : p->chroma_ceiling;
}

// Enlarges chroma row `row` of `plane` to full width into `d`: 2× by the fixed even/odd taps for even
// widths (the outermost columns by their own, see make_taps), by each column's taps otherwise.
static void widen_chroma(const Widening *s, const uint16_t *plane, ptrdiff_t stride, int row,
    float *d) {
    const FDYUVPlan *p = s->p;
    const int w = p->width, cw = p->chroma_width;
    float *padded = s->padded;
    s->f->load16((const uint16_t *)((const char *)plane + stride * row), padded + 2, cw);
    for (int k = 0; k < 2; k++) {
        padded[k] = padded[2];
        padded[cw + 2 + k] = padded[cw + 1];
    }
    if (w % 2) {
        for (int x = 0; x < w; x++) d[x] = widen_column(p, padded, x);
        return;
    }
    s->f->twice(padded, p->even_weights, p->odd_weights, p->chroma_ceiling, d, cw);
    for (int x = 0; x < w; x++) {
        if (x == 4 && w > 8) x = w - 4;
        d[x] = widen_column(p, padded, x);
    }
}

// Converts output row `row` into 16-bit RGB `d`.
static void widen_row(Widening *s, const uint16_t *y, ptrdiff_t y_stride, const uint16_t *u,
    ptrdiff_t u_stride, const uint16_t *v, ptrdiff_t v_stride, int row, uint16_t *d) {
    const FDYUVPlan *p = s->p;
    const RowFunctions *f = s->f;
    const size_t w = (size_t)p->width;
    int slots[4], fresh[4];
    fd_yuv_chroma_slots(p, row, s->cached, slots, fresh);
    const float *su[4], *sv[4];
    for (int k = 0; k < 4; k++) {
        float *ru = s->rows_u + (size_t)slots[k] * w, *rv = s->rows_v + (size_t)slots[k] * w;
        if (fresh[k]) {
            widen_chroma(s, u, u_stride, s->cached[slots[k]], ru);
            widen_chroma(s, v, v_stride, s->cached[slots[k]], rv);
        }
        su[k] = ru;
        sv[k] = rv;
    }
    const float *weight = p->up_rows[row].weight;
    f->blend4(su[0], su[1], su[2], su[3], weight, s->full_u, p->width);
    f->blend4(sv[0], sv[1], sv[2], sv[3], weight, s->full_v, p->width);
    f->load16((const uint16_t *)((const char *)y + y_stride * row), s->luma, p->width);
    f->to_rgb(p, s->luma, s->full_u, s->full_v, s->r, s->g, s->b, p->width);
    f->store_rgb16(s->r, s->g, s->b, d, p->width);
}

void fd_yuv420_to_rgb(const FDYUVPlan *p, const void *y, ptrdiff_t y_stride, const void *u,
    ptrdiff_t u_stride, const void *v, ptrdiff_t v_stride, void *rgb, ptrdiff_t rgb_stride,
    int row_start, int row_end) {
    if (p->depth == 8) {
        fd_yuv8_to_rgb(p, y, y_stride, u, u_stride, v, v_stride, rgb, rgb_stride, row_start, row_end);
        return;
    }
    float *scratch = malloc(sizeof(float) * widening_floats(p));
    if (!scratch) return;
    Widening s;
    widening_init(&s, p, row_functions(), scratch);
    for (int row = row_start; row < row_end; row++)
        widen_row(&s, y, y_stride, u, u_stride, v, v_stride, row,
            (uint16_t *)((char *)rgb + rgb_stride * row));
    free(scratch);
}

// ---------------------------------------------------------------------------------------------
// 10-bit RGB → YUV, one source row at a time

// Rows of half-width chroma in a ring (a chroma row reads at most TAPS_DOWN_MAX consecutive source
// rows, all still in the ring when its last one arrives), and the float rows of one source row.
enum { RING = TAPS_DOWN_MAX };

typedef struct {
    const FDYUVPlan *p;
    const RowFunctions *f;
    float *ring_u, *ring_v, *r, *g, *b, *yq, *acc_u, *acc_v;
    FDYUVNarrowRange range;
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
    s->range = fd_yuv_narrow_range(p, chroma_start, chroma_end);
    s->next_chroma = chroma_start;
    s->chroma_end = chroma_end;
}

// Takes source row `row` of 16-bit RGB: its luma codes when the range writes them, its ring slot's
// chroma, then every chroma row whose last source row it is.
static void narrow_row(Narrowing *s, int row, const uint16_t *rgb, uint16_t *y, ptrdiff_t y_stride,
    uint16_t *u, ptrdiff_t u_stride, uint16_t *v, ptrdiff_t v_stride) {
    const FDYUVPlan *p = s->p;
    const RowFunctions *f = s->f;
    const int w = p->width, h = p->height, cw = p->chroma_width;
    float *hu = s->ring_u + (size_t)(row % RING) * cw, *hv = s->ring_v + (size_t)(row % RING) * cw;
    f->split_rgb16(rgb, s->r, s->g, s->b, w);
    f->from_rgb(p, s->r, s->g, s->b, s->yq, hu, hv, w);
    if (w % 2) {
        // The last chroma column covers one pixel: its own chroma. (swscale averages that pixel with
        // the one after the row in memory.)
        const int last = w - 1;
        hu[w / 2] = p->ru * s->r[last] + p->gu2 * s->g[last] + p->bu2 * s->b[last];
        hv[w / 2] = p->rv2 * s->r[last] + p->gv2 * s->g[last] + p->bv2 * s->b[last];
    }
    if (row >= s->range.luma_start && row < s->range.luma_end)
        f->store_luma(s->yq, (uint16_t *)((char *)y + y_stride * row), w);
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
        f->store_chroma(p, s->acc_u, (uint16_t *)((char *)u + u_stride * c), cw);
        f->store_chroma(p, s->acc_v, (uint16_t *)((char *)v + v_stride * c), cw);
        s->next_chroma++;
    }
}

void fd_rgb_to_yuv420(const FDYUVPlan *p, const void *rgb, ptrdiff_t rgb_stride, void *y,
    ptrdiff_t y_stride, void *u, ptrdiff_t u_stride, void *v, ptrdiff_t v_stride, int chroma_start,
    int chroma_end) {
    if (chroma_start >= chroma_end) return;
    if (p->depth == 8) {
        fd_yuv8_from_rgb(p, rgb, rgb_stride, y, y_stride, u, u_stride, v, v_stride, chroma_start,
            chroma_end);
        return;
    }
    float *scratch = malloc(sizeof(float) * narrowing_floats(p));
    if (!scratch) return;
    Narrowing s;
    narrowing_init(&s, p, row_functions(), scratch, chroma_start, chroma_end);
    for (int row = s.range.first; row <= s.range.last; row++)
        narrow_row(&s, row, (const uint16_t *)((const char *)rgb + rgb_stride * row), y, y_stride, u,
            u_stride, v, v_stride);
    free(scratch);
}

// ---------------------------------------------------------------------------------------------
// 10-bit YUV → 16-bit RGB → colour → (second stage) → YUV in one pass

// Rows converted before each call of the colour rows and the second stage (as fd_yuv420_transform).
enum { TRANSFORM16_ROWS = 8 };

int fd_yuv420_transform16(const FDYUVPlan *p, const FDYUVPlan *out, const FDColourRows *colour,
    FDRGB16RowTransform stage, const void *context, const void *y, ptrdiff_t y_stride,
    const void *u, ptrdiff_t u_stride, const void *v, ptrdiff_t v_stride, void *out_y,
    ptrdiff_t out_y_stride, void *out_u, ptrdiff_t out_u_stride, void *out_v,
    ptrdiff_t out_v_stride, int chroma_start, int chroma_end) {
    if (p->depth != 10 || !out || out->width != p->width || out->height != p->height) return -1;
    if (out->depth != 10 && out->depth != 8) return -1;
    // An 8-bit output needs the stage that makes rgb24 of 16-bit RGB.
    if (out->depth == 8 && !stage) return -1;
    if (colour && fd_colour_rows_sample_bytes(colour) != 2) return -1;
    if (chroma_start >= chroma_end) return 0;
    const RowFunctions *f = row_functions();
    const size_t w = (size_t)p->width, group = TRANSFORM16_ROWS;
    const size_t rgb16 = group * w * 3 * sizeof(uint16_t);
    const size_t wide = (sizeof(float) * widening_floats(p) + 63) / 64 * 64;
    const size_t narrow = out->depth == 10 ? (sizeof(float) * narrowing_floats(out) + 63) / 64 * 64 : 0;
    // converted (16-bit RGB), coloured (16-bit RGB), staged (the stage's rgb24 or 16-bit RGB).
    uint8_t *scratch = aligned_alloc(64, wide + narrow + 3 * ((rgb16 + 63) / 64 * 64));
    FDYUV8Narrowing *narrow8 =
        out->depth == 8 ? fd_yuv8_narrowing_create(out, chroma_start, chroma_end) : NULL;
    if (!scratch || (out->depth == 8 && !narrow8)) {
        free(scratch);
        fd_yuv8_narrowing_free(narrow8);
        return -1;
    }
    uint16_t *converted = (uint16_t *)(void *)(scratch + wide + narrow);
    uint16_t *coloured = converted + (rgb16 + 63) / 64 * 64 / sizeof(uint16_t);
    uint8_t *staged = (uint8_t *)(coloured + (rgb16 + 63) / 64 * 64 / sizeof(uint16_t));
    const uint16_t *stage_input = colour ? coloured : converted;
    const uint8_t *narrowed = stage ? staged : (const uint8_t *)stage_input;
    const size_t narrowed_row = w * 3 * (size_t)(out->depth == 8 ? 1 : 2);
    Widening widening;
    Narrowing narrowing;
    widening_init(&widening, p, f, (float *)(void *)scratch);
    if (out->depth == 10)
        narrowing_init(&narrowing, out, f, (float *)(void *)(scratch + wide), chroma_start,
            chroma_end);
    const FDYUVNarrowRange range = fd_yuv_narrow_range(out, chroma_start, chroma_end);
    for (int first = range.first; first <= range.last; first += (int)group) {
        const int rows = range.last - first + 1 < (int)group ? range.last - first + 1 : (int)group;
        for (int r = 0; r < rows; r++)
            widen_row(&widening, y, y_stride, u, u_stride, v, v_stride, first + r,
                converted + (size_t)r * w * 3);
        if (colour) fd_colour_rows_apply16(colour, converted, coloured, rows * p->width);
        if (stage) stage(context, stage_input, staged, rows * p->width);
        for (int r = 0; r < rows; r++) {
            const uint8_t *row = narrowed + (size_t)r * narrowed_row;
            if (out->depth == 8)
                fd_yuv8_narrowing_row(narrow8, first + r, row, out_y, out_y_stride, out_u,
                    out_u_stride, out_v, out_v_stride);
            else
                narrow_row(&narrowing, first + r, (const uint16_t *)(const void *)row, out_y,
                    out_y_stride, out_u, out_u_stride, out_v, out_v_stride);
        }
    }
    fd_yuv8_narrowing_free(narrow8);
    free(scratch);
    return 0;
}
