// Lanczos 3 reduction of 16-bit images, one node per axis (fd_kernel_reducev_lanczos3_16 and
// fd_kernel_reduceh_lanczos3_16, see FrameKernels.h).
//
// The taps are fd_kernel_reduceh_lanczos3's (fd_lanczos3_taps), kept as floats: a 16-bit value times a
// weight summed over the taps in single precision stays well within a code of the exact sum. Rows are
// reduced by accumulating whole input rows (contiguous, so the compiler vectorises the loop); columns by
// reading each output pixel's taps through a table of input offsets, the edges clamped.
//
// The AVX2 and AVX-512 paths do the same single-precision multiplies and adds in the same order (no
// fused multiply-add), so every path gives the scalar path's codes: rows 8 or 16 samples a vector,
// RGB columns two output pixels a vector (each pixel's red, green and blue plus one unused lane, read
// with one 64-bit load per tap where that stays inside the row).

#include "kernel_support.h"

#include <math.h>

typedef struct {
    int in_length, length, bands, taps;
    int *first;     // per output row or column: its first tap's input position (unclamped)
    float *weights; // per output row or column: `taps` weights summing to 1
    int *offsets;   // columns only: per output column and tap, the clamped input sample's offset
    // RGB columns only: per output column x and tap, the weights of x and x + 1 side by side (AVX2), and
    // how many output columns from the left have all their taps but the input row's last pixel.
    float *pair_weights;
    int vector_columns;
    VipsImage *input;
} Reduce16Params;

typedef struct {
    VipsRegion *region;
    float *sums; // rows only: one output row's running sums
} Reduce16Sequence;

static void free_reduce16_params(VipsImage *image, Reduce16Params *params) {
    (void)image;
    g_free(params->first);
    g_free(params->weights);
    g_free(params->offsets);
    g_free(params->pair_weights);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

static void *reduce16_start(VipsImage *out, void *a, void *b) {
    const Reduce16Params *params = (const Reduce16Params *)b;
    Reduce16Sequence *seq = g_new0(Reduce16Sequence, 1);
    seq->region = vips_region_new((VipsImage *)a);
    // The rows node (the one without column offsets) sums whole output rows.
    if (!params->offsets) seq->sums = g_new(float, (size_t)out->Xsize * out->Bands);
    return seq;
}

static int reduce16_stop(void *sequence, void *a, void *b) {
    Reduce16Sequence *seq = (Reduce16Sequence *)sequence;
    (void)a;
    (void)b;
    g_object_unref(seq->region);
    g_free(seq->sums);
    g_free(seq);
    return 0;
}

static inline uint16_t reduce16_round(float sum) {
    return sum <= 0.0f ? 0 : sum >= 65535.0f ? 65535 : (uint16_t)(sum + 0.5f);
}

static inline int clamp_position(int position, int length) {
    return position < 0 ? 0 : position >= length ? length - 1 : position;
}

// The most taps the vector rows pass takes (a shrink of up to 8 on the axis; larger shrinks run scalar).
enum { REDUCE16_MAX_TAPS = 48 };

#if FD_X86_SIMD
// The 8 samples at `p` as floats.
FD_AVX2 static inline __m256 samples8(const uint16_t *p) {
    return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p)));
}

// 8 sums rounded as reduce16_round rounds them, packed as 16-bit codes.
FD_AVX2 static inline __m128i codes8(__m256 sum) {
    const __m256 clamped = _mm256_min_ps(_mm256_max_ps(sum, _mm256_setzero_ps()), _mm256_set1_ps(65535.0f));
    const __m256i codes = _mm256_cvttps_epi32(_mm256_add_ps(clamped, _mm256_set1_ps(0.5f)));
    return _mm_packus_epi32(_mm256_castsi256_si128(codes), _mm256_extracti128_si256(codes, 1));
}

// Samples `from` … `count` - 1 of one output row from the `taps` input rows, 8 a vector; returns where
// it stopped (fewer than 8 samples before `count`), the rest left to the caller.
FD_AVX2 static int reducev16_row_avx2(const uint16_t *const *rows, const float *w, int taps, int from,
    int count, uint16_t *q) {
    int i = from;
    for (; i + 32 <= count; i += 32) {
        __m256 a = _mm256_setzero_ps(), b = a, c = a, d = a;
        for (int k = 0; k < taps; k++) {
            const __m256 weight = _mm256_set1_ps(w[k]);
            const uint16_t *p = rows[k] + i;
            a = _mm256_add_ps(a, _mm256_mul_ps(weight, samples8(p)));
            b = _mm256_add_ps(b, _mm256_mul_ps(weight, samples8(p + 8)));
            c = _mm256_add_ps(c, _mm256_mul_ps(weight, samples8(p + 16)));
            d = _mm256_add_ps(d, _mm256_mul_ps(weight, samples8(p + 24)));
        }
        _mm_storeu_si128((__m128i *)(void *)(q + i), codes8(a));
        _mm_storeu_si128((__m128i *)(void *)(q + i + 8), codes8(b));
        _mm_storeu_si128((__m128i *)(void *)(q + i + 16), codes8(c));
        _mm_storeu_si128((__m128i *)(void *)(q + i + 24), codes8(d));
    }
    for (; i + 8 <= count; i += 8) {
        __m256 a = _mm256_setzero_ps();
        for (int k = 0; k < taps; k++)
            a = _mm256_add_ps(a, _mm256_mul_ps(_mm256_set1_ps(w[k]), samples8(rows[k] + i)));
        _mm_storeu_si128((__m128i *)(void *)(q + i), codes8(a));
    }
    return i;
}

// As reducev16_row_avx2 from sample 0, 32 samples a loop in two 16-sample vectors.
FD_AVX512 static int reducev16_row_avx512(const uint16_t *const *rows, const float *w, int taps, int count,
    uint16_t *q) {
    const __m512 low = _mm512_setzero_ps(), high = _mm512_set1_ps(65535.0f), half = _mm512_set1_ps(0.5f);
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        __m512 a = _mm512_setzero_ps(), b = a;
        for (int k = 0; k < taps; k++) {
            const __m512 weight = _mm512_set1_ps(w[k]);
            const uint16_t *p = rows[k] + i;
            a = _mm512_add_ps(a, _mm512_mul_ps(weight,
                _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p)))));
            b = _mm512_add_ps(b, _mm512_mul_ps(weight,
                _mm512_cvtepi32_ps(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(p + 16))))));
        }
        _mm256_storeu_si256((__m256i *)(q + i), _mm512_cvtusepi32_epi16(_mm512_cvttps_epu32(
            _mm512_add_ps(_mm512_min_ps(_mm512_max_ps(a, low), high), half))));
        _mm256_storeu_si256((__m256i *)(q + i + 16), _mm512_cvtusepi32_epi16(_mm512_cvttps_epu32(
            _mm512_add_ps(_mm512_min_ps(_mm512_max_ps(b, low), high), half))));
    }
    return reducev16_row_avx2(rows, w, taps, i, count, q);
}
#endif

static int generate_reducev16(VipsRegion *out_region, void *sequence, void *a, void *b, gboolean *stop) {
    Reduce16Sequence *seq = (Reduce16Sequence *)sequence;
    const Reduce16Params *params = (const Reduce16Params *)b;
    (void)a;
    (void)stop;
    const VipsRect *rect = &out_region->valid;
    const int last = rect->top + rect->height - 1;
    const int top = clamp_position(params->first[rect->top], params->in_length);
    const int bottom = clamp_position(params->first[last] + params->taps - 1, params->in_length);
    VipsRect in_rect = { rect->left, top, rect->width, bottom - top + 1 };
    if (vips_region_prepare(seq->region, &in_rect)) return -1;
    const int count = rect->width * params->bands;
    float *sums = seq->sums;
    const FDSIMDPath path = fd_simd_path();
    for (int y = rect->top; y <= last; y++) {
        const float *w = params->weights + (size_t)y * params->taps;
        uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, rect->left, y);
#if FD_X86_SIMD
        if (path != FD_SIMD_SCALAR) {
            const uint16_t *rows[REDUCE16_MAX_TAPS];
            if (params->taps <= REDUCE16_MAX_TAPS) {
                for (int k = 0; k < params->taps; k++)
                    rows[k] = (const uint16_t *)VIPS_REGION_ADDR(seq->region, rect->left,
                        clamp_position(params->first[y] + k, params->in_length));
                int done = path == FD_SIMD_AVX512 ? reducev16_row_avx512(rows, w, params->taps, count, q)
                                                  : reducev16_row_avx2(rows, w, params->taps, 0, count, q);
                for (; done < count; done++) {
                    float sum = 0.0f;
                    for (int k = 0; k < params->taps; k++) sum += w[k] * (float)rows[k][done];
                    q[done] = reduce16_round(sum);
                }
                continue;
            }
        }
#else
        (void)path;
#endif
        for (int i = 0; i < count; i++) sums[i] = 0.0f;
        for (int k = 0; k < params->taps; k++) {
            const int row = clamp_position(params->first[y] + k, params->in_length);
            const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(seq->region, rect->left, row);
            const float weight = w[k];
            for (int i = 0; i < count; i++) sums[i] += weight * (float)p[i];
        }
        for (int i = 0; i < count; i++) q[i] = reduce16_round(sums[i]);
    }
    return 0;
}

// Output pixels x and x + 1 of an RGB row: six running sums at once, so that each waits less on the
// one before it (each sum still adds its taps in order, as for a single pixel).
static inline void reduceh16_rgb_pair(const uint16_t *p, const Reduce16Params *params, int x, uint16_t *q) {
    const int taps = params->taps;
    const float *w0 = params->weights + (size_t)x * taps, *w1 = w0 + taps;
    const int *o0 = params->offsets + (size_t)x * taps, *o1 = o0 + taps;
    float r0 = 0.0f, g0 = 0.0f, b0 = 0.0f, r1 = 0.0f, g1 = 0.0f, b1 = 0.0f;
    for (int k = 0; k < taps; k++) {
        const uint16_t *s0 = p + o0[k], *s1 = p + o1[k];
        r0 += w0[k] * (float)s0[0];
        g0 += w0[k] * (float)s0[1];
        b0 += w0[k] * (float)s0[2];
        r1 += w1[k] * (float)s1[0];
        g1 += w1[k] * (float)s1[1];
        b1 += w1[k] * (float)s1[2];
    }
    q[0] = reduce16_round(r0);
    q[1] = reduce16_round(g0);
    q[2] = reduce16_round(b0);
    q[3] = reduce16_round(r1);
    q[4] = reduce16_round(g1);
    q[5] = reduce16_round(b1);
}

#if FD_X86_SIMD
// Tap k of output pixels x and x + 1 (pair weights `w`, taps at offsets `o0` and `o1`) added to `sum`: red,
// green, blue and an unused lane (the next input sample) of x, then of x + 1.
FD_AVX2 static inline __m256 reduceh16_pair_tap(__m256 sum, const uint16_t *p, const float *w,
    const int *o0, const int *o1, int k) {
    const __m128i both = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(p + o0[k])),
        _mm_loadl_epi64((const __m128i *)(p + o1[k])));
    const __m256 weights = _mm256_permutevar8x32_ps(
        _mm256_castps128_ps256(_mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(w + 2 * k)))),
        _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1));
    return _mm256_add_ps(sum, _mm256_mul_ps(weights, _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(both))));
}

// The pair's sums rounded into q[0 … 5].
FD_AVX2 static inline void reduceh16_pair_store(__m256 sum, uint16_t *q) {
    uint16_t lanes[8];
    _mm_storeu_si128((__m128i *)(void *)lanes, codes8(sum));
    q[0] = lanes[0];
    q[1] = lanes[1];
    q[2] = lanes[2];
    q[3] = lanes[4];
    q[4] = lanes[5];
    q[5] = lanes[6];
}

// Output pixels x … end - 1 of an RGB row, as reduceh16_rgb_pair computes them, eight at a time in four
// independent sums (each sum waits on its own taps only), then a pair at a time; returns where it
// stopped (at most one pixel before `end`).
FD_AVX2 static int reduceh16_rgb_avx2(const uint16_t *p, const Reduce16Params *params, int x, int end,
    uint16_t *q) {
    const int taps = params->taps;
    for (; x + 7 < end; x += 8, q += 24) {
        const float *w = params->pair_weights + (size_t)x * taps * 2;
        const int *o = params->offsets + (size_t)x * taps;
        __m256 a = _mm256_setzero_ps(), b = a, c = a, d = a;
        for (int k = 0; k < taps; k++) {
            a = reduceh16_pair_tap(a, p, w, o, o + taps, k);
            b = reduceh16_pair_tap(b, p, w + 4 * taps, o + 2 * taps, o + 3 * taps, k);
            c = reduceh16_pair_tap(c, p, w + 8 * taps, o + 4 * taps, o + 5 * taps, k);
            d = reduceh16_pair_tap(d, p, w + 12 * taps, o + 6 * taps, o + 7 * taps, k);
        }
        reduceh16_pair_store(a, q);
        reduceh16_pair_store(b, q + 6);
        reduceh16_pair_store(c, q + 12);
        reduceh16_pair_store(d, q + 18);
    }
    for (; x + 1 < end; x += 2, q += 6) {
        const float *w = params->pair_weights + (size_t)x * taps * 2;
        const int *o = params->offsets + (size_t)x * taps;
        __m256 a = _mm256_setzero_ps();
        for (int k = 0; k < taps; k++) a = reduceh16_pair_tap(a, p, w, o, o + taps, k);
        reduceh16_pair_store(a, q);
    }
    return x;
}
#endif

// Output pixel x of a row of `bands` samples a pixel.
static inline void reduceh16_pixel(const uint16_t *p, const Reduce16Params *params, int x, uint16_t *q) {
    const int taps = params->taps;
    const float *w = params->weights + (size_t)x * taps;
    const int *offset = params->offsets + (size_t)x * taps;
    for (int c = 0; c < params->bands; c++) {
        float sum = 0.0f;
        for (int k = 0; k < taps; k++) sum += w[k] * (float)p[offset[k] + c];
        q[c] = reduce16_round(sum);
    }
}

static int generate_reduceh16(VipsRegion *out_region, void *sequence, void *a, void *b, gboolean *stop) {
    Reduce16Sequence *seq = (Reduce16Sequence *)sequence;
    const Reduce16Params *params = (const Reduce16Params *)b;
    (void)a;
    (void)stop;
    const VipsRect *rect = &out_region->valid;
    VipsRect in_rect = { 0, rect->top, params->in_length, rect->height };
    if (vips_region_prepare(seq->region, &in_rect)) return -1;
    const int bands = params->bands, to = rect->left + rect->width;
    const int vector = fd_simd_path() != FD_SIMD_SCALAR;
    (void)vector;
    for (int y = rect->top; y < rect->top + rect->height; y++) {
        const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(seq->region, 0, y);
        uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, rect->left, y);
        int x = rect->left;
#if FD_X86_SIMD
        if (vector && bands == 3) {
            const int end = to < params->vector_columns ? to : params->vector_columns;
            const int from = x;
            x = reduceh16_rgb_avx2(p, params, x, end, q);
            q += (x - from) * 3;
        }
#endif
        if (bands == 3)
            for (; x + 1 < to; x += 2, q += 6) reduceh16_rgb_pair(p, params, x, q);
        for (; x < to; x++, q += bands) reduceh16_pixel(p, params, x, q);
    }
    return 0;
}

// The node reducing `in` along one axis to `length` samples; `vertical` picks the axis.
static int reduce16(VipsImage *in, VipsImage **out, int length, int vertical) {
    const char *name = vertical ? "framedial_reducev16" : "framedial_reduceh16";
    if (in->BandFmt != VIPS_FORMAT_USHORT || in->Bands < 1 || in->Bands > 4) {
        vips_error(name, "expects a 16-bit image of 1 to 4 bands");
        return -1;
    }
    const int in_length = vertical ? in->Ysize : in->Xsize;
    if (length < 1 || length > in_length) {
        vips_error(name, "cannot reduce %d %s to %d", in_length, vertical ? "rows" : "columns", length);
        return -1;
    }
    if (vips_image_pio_input(in)) return -1;
    Reduce16Params *params = g_new0(Reduce16Params, 1);
    params->in_length = in_length;
    params->length = length;
    params->bands = in->Bands;
    double *weights;
    params->taps = fd_lanczos3_taps(in_length, length, &params->first, &weights);
    const size_t count = (size_t)length * params->taps;
    params->weights = g_new(float, count);
    for (size_t i = 0; i < count; i++) params->weights[i] = (float)weights[i];
    g_free(weights);
    if (!vertical) {
        params->offsets = g_new(int, count);
        for (int x = 0; x < length; x++)
            for (int k = 0; k < params->taps; k++)
                params->offsets[(size_t)x * params->taps + k] =
                    clamp_position(params->first[x] + k, in_length) * params->bands;
        if (params->bands == 3) {
            // A 64-bit load at a tap reads one sample past its pixel: columns whose taps reach the
            // row's last pixel are left to the scalar code.
            params->vector_columns = 0;
            while (params->vector_columns < length &&
                   params->offsets[(size_t)params->vector_columns * params->taps + params->taps - 1] <
                       (in_length - 1) * 3)
                params->vector_columns++;
            params->pair_weights = g_new0(float, count * 2);
            for (int x = 0; x < length; x++)
                for (int k = 0; k < params->taps; k++) {
                    float *pair = params->pair_weights + ((size_t)x * params->taps + k) * 2;
                    pair[0] = params->weights[(size_t)x * params->taps + k];
                    pair[1] = x + 1 < length ? params->weights[(size_t)(x + 1) * params->taps + k] : 0.0f;
                }
        }
    }
    return fd_attach_image(in, out, vertical ? in->Xsize : length, vertical ? length : in->Ysize,
        reduce16_start, vertical ? generate_reducev16 : generate_reduceh16, reduce16_stop, params,
        &params->input, G_CALLBACK(free_reduce16_params));
}

int fd_kernel_reducev_lanczos3_16(VipsImage *in, VipsImage **out, int height) {
    return reduce16(in, out, height, 1);
}

int fd_kernel_reduceh_lanczos3_16(VipsImage *in, VipsImage **out, int width) {
    return reduce16(in, out, width, 0);
}
