#include "YUVConvert.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Defining FRAMEDIAL_NO_SIMD builds only the portable scalar paths.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FRAMEDIAL_NO_SIMD)
#define FD_YUV_X86 1
#define FD_AVX2 __attribute__((target("avx2")))
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
    /* d += w a */                                                                                     \
    ATTRIBUTES static void accumulate_##SUFFIX(const float *a, float w, float *d, int n) {             \
        for (int i = 0; i < n; i++) d[i] += w * a[i];                                                  \
    }                                                                                                  \
    /* 2× horizontal enlargement of a row padded by 2 samples each side, into even and odd columns */  \
    ATTRIBUTES static void double_##SUFFIX(const float *c, const float *we, const float *wo,           \
        float *even, float *odd, int n) {                                                              \
        for (int j = 0; j < n; j++) {                                                                  \
            even[j] = we[0] * c[j] + we[1] * c[j + 1] + we[2] * c[j + 2] + we[3] * c[j + 3];           \
            odd[j] = wo[0] * c[j + 1] + wo[1] * c[j + 2] + wo[2] * c[j + 3] + wo[3] * c[j + 4];        \
        }                                                                                              \
    }                                                                                                  \
    /* d[2j] = min(e[j], top), d[2j + 1] = min(o[j], top) */                                          \
    ATTRIBUTES static void interleave_##SUFFIX(const float *e, const float *o, float top, float *d,     \
        int n) {                                                                                       \
        for (int j = 0; j < n; j++) {                                                                  \
            d[2 * j] = e[j] < top ? e[j] : top;                                                        \
            d[2 * j + 1] = o[j] < top ? o[j] : top;                                                    \
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

typedef struct {
    void (*load8)(const uint8_t *, float *, int);
    void (*load16)(const uint16_t *, float *, int);
    void (*blend4)(const float *, const float *, const float *, const float *, const float *, float *,
        int);
    void (*accumulate)(const float *, float, float *, int);
    void (*twice)(const float *, const float *, const float *, float *, float *, int);
    void (*interleave)(const float *, const float *, float, float *, int);
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
} RowFunctions;

#define ROW_FUNCTIONS(SUFFIX)                                                                          \
    {load8_##SUFFIX, load16_##SUFFIX, blend4_##SUFFIX, accumulate_##SUFFIX, double_##SUFFIX,           \
        interleave_##SUFFIX, to_rgb_##SUFFIX, store_rgb8_##SUFFIX, store_rgb16_##SUFFIX, from_rgb_##SUFFIX,                 \
        split_rgb8_##SUFFIX, split_rgb16_##SUFFIX, store_chroma_##SUFFIX, store_luma_##SUFFIX}

static const RowFunctions scalar_functions = ROW_FUNCTIONS(scalar);
#if FD_YUV_X86
static const RowFunctions avx2_functions = ROW_FUNCTIONS(avx2);
#endif

static const RowFunctions *row_functions(void) {
#if FD_YUV_X86
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
// YUV → RGB

// Enlarges chroma row `row` of `plane` to full width into `d`: 2× by the fixed even/odd taps for even
// widths, by each column's taps otherwise; then clips at swscale's intermediate ceiling.
static void widen_chroma(const RowFunctions *f, const FDYUVPlan *p, const void *plane,
    ptrdiff_t stride, int row, float *padded, float *half_e, float *half_o, float *d) {
    const int w = p->width, cw = p->chroma_width;
    load_row(f, p, plane, stride, row, padded + 2, cw);
    for (int k = 0; k < 2; k++) {
        padded[k] = padded[2];
        padded[cw + 2 + k] = padded[cw + 1];
    }
    if (w % 2 == 0) {
        f->twice(padded, p->even_weights, p->odd_weights, half_e, half_o, cw);
        f->interleave(half_e, half_o, p->chroma_ceiling, d, cw);
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

void fd_yuv420_to_rgb(const FDYUVPlan *p, const void *y, ptrdiff_t y_stride, const void *u,
    ptrdiff_t u_stride, const void *v, ptrdiff_t v_stride, void *rgb, ptrdiff_t rgb_stride,
    int row_start, int row_end) {
    const RowFunctions *f = row_functions();
    const int w = p->width, cw = p->chroma_width;
    // Scratch: 4 widened chroma rows per plane, a padded source row, output rows.
    const size_t half = (size_t)cw + 1;
    float *scratch = malloc(sizeof(float) * (14 * (size_t)w + (size_t)cw + 4 + 2 * half));
    if (!scratch) return;
    float *rows_u = scratch, *rows_v = rows_u + 4 * (size_t)w, *full_u = rows_v + 4 * (size_t)w;
    float *full_v = full_u + w, *luma = full_v + w, *r = luma + w, *g = r + w, *b = g + w;
    float *padded = b + w, *half_e = padded + cw + 4, *half_o = half_e + half;
    int cached[4] = {-1, -1, -1, -1};  // chroma row held in each slot of rows_u / rows_v
    for (int row = row_start; row < row_end; row++) {
        const Taps *t = &p->up_rows[row];
        int wanted[4];
        for (int k = 0; k < 4; k++) wanted[k] = clamp_index(t->first + k, p->chroma_height);
        const float *su[4], *sv[4];
        for (int k = 0; k < 4; k++) {
            int slot = -1;
            for (int s = 0; s < 4; s++)
                if (cached[s] == wanted[k]) slot = s;
            if (slot < 0) {
                // Reuse a slot no tap of this row needs.
                for (int s = 0; s < 4 && slot < 0; s++) {
                    int needed = 0;
                    for (int m = 0; m < 4; m++) needed |= cached[s] == wanted[m];
                    if (!needed) slot = s;
                }
                cached[slot] = wanted[k];
                widen_chroma(f, p, u, u_stride, wanted[k], padded, half_e, half_o,
                    rows_u + (size_t)slot * w);
                widen_chroma(f, p, v, v_stride, wanted[k], padded, half_e, half_o,
                    rows_v + (size_t)slot * w);
            }
            su[k] = rows_u + (size_t)slot * w;
            sv[k] = rows_v + (size_t)slot * w;
        }
        f->blend4(su[0], su[1], su[2], su[3], t->weight, full_u, w);
        f->blend4(sv[0], sv[1], sv[2], sv[3], t->weight, full_v, w);
        load_row(f, p, y, y_stride, row, luma, w);
        f->to_rgb(p, luma, full_u, full_v, r, g, b, w);
        char *target = (char *)rgb + rgb_stride * row;
        if (p->depth == 8)
            f->store_rgb8(r, g, b, (uint8_t *)target, w);
        else
            f->store_rgb16(r, g, b, (uint16_t *)target, w);
    }
    free(scratch);
}

// ---------------------------------------------------------------------------------------------
// RGB → YUV

void fd_rgb_to_yuv420(const FDYUVPlan *p, const void *rgb, ptrdiff_t rgb_stride, void *y,
    ptrdiff_t y_stride, void *u, ptrdiff_t u_stride, void *v, ptrdiff_t v_stride, int chroma_start,
    int chroma_end) {
    if (chroma_start >= chroma_end) return;
    const RowFunctions *f = row_functions();
    const int w = p->width, h = p->height, cw = p->chroma_width;
    // Luma rows whose chroma the range needs, clamped to the frame.
    int first = p->down_rows[chroma_start].first, last = first;
    for (int c = chroma_start; c < chroma_end; c++) {
        const Taps *t = &p->down_rows[c];
        if (t->first < first) first = t->first;
        if (t->first + t->count - 1 > last) last = t->first + t->count - 1;
    }
    first = clamp_index(first, h);
    last = clamp_index(last, h);
    const int rows = last - first + 1;
    float *scratch = malloc(sizeof(float) * (2 * (size_t)rows * cw + 5 * (size_t)w + 2 * (size_t)cw));
    if (!scratch) return;
    float *half_u = scratch, *half_v = half_u + (size_t)rows * cw;
    float *r = half_v + (size_t)rows * cw, *g = r + w, *b = g + w, *yq = b + w, *spare = yq + w;
    float *acc_u = spare + w, *acc_v = acc_u + cw;
    const int luma_start = 2 * chroma_start, luma_end = 2 * chroma_end < h ? 2 * chroma_end : h;
    for (int row = first; row <= last; row++) {
        const char *source = (const char *)rgb + rgb_stride * row;
        if (p->depth == 8)
            f->split_rgb8((const uint8_t *)source, r, g, b, w);
        else
            f->split_rgb16((const uint16_t *)source, r, g, b, w);
        float *hu = half_u + (size_t)(row - first) * cw, *hv = half_v + (size_t)(row - first) * cw;
        f->from_rgb(p, r, g, b, yq, hu, hv, w);
        if (w % 2) {
            // The last chroma column covers one pixel: its own chroma. (swscale averages that pixel
            // with the one after the row in memory.)
            const int x = w - 1;
            hu[w / 2] = p->ru * r[x] + p->gu2 * g[x] + p->bu2 * b[x];
            hv[w / 2] = p->rv2 * r[x] + p->gv2 * g[x] + p->bv2 * b[x];
        }
        if (row >= luma_start && row < luma_end)
            f->store_luma(p, yq, (char *)y + y_stride * row, w);
    }
    (void)spare;
    for (int c = chroma_start; c < chroma_end; c++) {
        const Taps *t = &p->down_rows[c];
        memset(acc_u, 0, sizeof(float) * (size_t)cw);
        memset(acc_v, 0, sizeof(float) * (size_t)cw);
        for (int k = 0; k < t->count; k++) {
            const int source = clamp_index(t->first + k, h) - first;
            f->accumulate(half_u + (size_t)source * cw, t->weight[k], acc_u, cw);
            f->accumulate(half_v + (size_t)source * cw, t->weight[k], acc_v, cw);
        }
        f->store_chroma(p, acc_u, (char *)u + u_stride * c, cw);
        f->store_chroma(p, acc_v, (char *)v + v_stride * c, cw);
    }
    free(scratch);
}
