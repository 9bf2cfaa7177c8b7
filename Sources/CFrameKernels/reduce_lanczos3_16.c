// Lanczos 3 reduction of 16-bit images, one node per axis (fd_kernel_reducev_lanczos3_16 and
// fd_kernel_reduceh_lanczos3_16, see FrameKernels.h).
//
// The taps are fd_kernel_reduceh_lanczos3's (fd_lanczos3_taps), kept as floats: a 16-bit value times a
// weight summed over the taps in single precision stays well within a code of the exact sum. Rows are
// reduced by accumulating whole input rows (contiguous, so the compiler vectorises the loop). Columns
// are reduced on one float plane per band: each input row's span is split into its bands once, the
// edges repeated, so that an output sample's taps are consecutive floats of its plane; the taps are
// read 8 at a time ("lanes", the weights zero past the last tap) and summed in a fixed order: lane l
// adds its products in turn, then the 8 lanes add up pairwise, ((l0 + l1) + (l2 + l3)) + ((l4 + l5) +
// (l6 + l7)).
//
// The AVX2 and AVX-512 paths do the same single-precision multiplies and adds in the same order (no
// fused multiply-add), so every path gives the scalar path's codes: rows 8 or 16 samples a vector;
// columns 8 output samples of a band at once, one vector of lanes each, added up across the 8 vectors
// by horizontal adds, which pair the lanes in that order.

#include "kernel_support.h"

#include <math.h>

typedef struct {
    int in_length, length, bands, taps;
    int *first;     // per output row or column: its first tap's input position (unclamped)
    float *weights; // per output row or column: `taps` weights summing to 1
    // Columns only: the 8-tap groups an output sample reads, and per output column its weights in
    // groups × 8 lanes (zero past the last tap).
    int groups;
    float *lane_weights;
    VipsImage *input;
} Reduce16Params;

typedef struct {
    VipsRegion *region;
    float *sums;   // rows only: one output row's running sums
    float *planes; // columns only: one input row's span as a float plane per band
} Reduce16Sequence;

static void free_reduce16_params(VipsImage *image, Reduce16Params *params) {
    (void)image;
    g_free(params->first);
    g_free(params->weights);
    g_free(params->lane_weights);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

// The planes' first input position for output columns from … to - 1 (the first column's first tap) is
// params->first[from]; this is how many positions they span, the last column's last group included.
static inline int reduceh16_span(const Reduce16Params *params, int from, int to) {
    return params->first[to - 1] + 8 * params->groups - params->first[from];
}

static void *reduce16_start(VipsImage *out, void *a, void *b) {
    const Reduce16Params *params = (const Reduce16Params *)b;
    Reduce16Sequence *seq = g_new0(Reduce16Sequence, 1);
    seq->region = vips_region_new((VipsImage *)a);
    // The rows node (the one without lane weights) sums whole output rows; the columns node splits
    // input rows into planes, as long as the whole row's span.
    if (!params->lane_weights) seq->sums = g_new(float, (size_t)out->Xsize * out->Bands);
    else seq->planes = g_new(float, (size_t)reduceh16_span(params, 0, params->length) * params->bands);
    return seq;
}

static int reduce16_stop(void *sequence, void *a, void *b) {
    Reduce16Sequence *seq = (Reduce16Sequence *)sequence;
    (void)a;
    (void)b;
    g_object_unref(seq->region);
    g_free(seq->sums);
    g_free(seq->planes);
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

// Positions i … inside - 1 of reduceh16_split's planes from the samples at `p` (position i's), 8
// positions a step for 1 or 3 bands; returns where it stopped, the rest left to the caller.
FD_AVX2 static int reduceh16_split_avx2(const uint16_t *p, int bands, int i, int inside, int span,
    float *planes) {
    if (bands == 1) {
        for (; i + 8 <= inside; i += 8, p += 8) _mm256_storeu_ps(planes + i, samples8(p));
    } else if (bands == 3) {
        uint8_t shuffles[3][3][16];
        fd_rgb16_split_shuffles(shuffles);
        __m128i split[3][3];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) split[c][r] = _mm_loadu_si128((const __m128i *)(const void *)shuffles[c][r]);
        for (; i + 8 <= inside; i += 8, p += 24) {
            __m256i channels[3];
            fd_rgb16_split8(p, split, channels);
            for (int c = 0; c < 3; c++) _mm256_storeu_ps(planes + (size_t)c * span + i, _mm256_cvtepi32_ps(channels[c]));
        }
    }
    return i;
}

// Column j's sum from h0 (j < 4) and h1 (j - 4), whose lane j holds the column's lanes 0 … 3 added
// up in the low half and 4 … 7 in the high half: the two halves added, in lane j.
FD_AVX2 static inline __m256 reduceh16_halves(__m256 h0, __m256 h1) {
    return _mm256_add_ps(_mm256_permute2f128_ps(h0, h1, 0x20), _mm256_permute2f128_ps(h0, h1, 0x31));
}

// The sums of 8 columns' lanes, added up as reduceh16_sample adds them: the lanes of `v[j]` into lane j,
// ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7)). Horizontal adds pair neighbouring lanes.
FD_AVX2 static inline __m256 reduceh16_sums8(const __m256 v[8]) {
    return reduceh16_halves(_mm256_hadd_ps(_mm256_hadd_ps(v[0], v[1]), _mm256_hadd_ps(v[2], v[3])),
        _mm256_hadd_ps(_mm256_hadd_ps(v[4], v[5]), _mm256_hadd_ps(v[6], v[7])));
}

// 8 RGB pixels' codes, a register per band, packed into `out` (24 samples) by the shuffles `merge`: word p
// of packed register r is sample 8r + p, channel (8r + p) % 3's word (8r + p) / 3, and merge[c][r] takes
// channel c's words for register r, zeroing the rest.
FD_AVX2 static inline void reduceh16_store_rgb(const __m128i codes[3], __m128i merge[3][3], uint16_t *out) {
    for (int r = 0; r < 3; r++)
        _mm_storeu_si128((__m128i *)(void *)(out + 8 * r),
            _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(codes[0], merge[0][r]), _mm_shuffle_epi8(codes[1], merge[1][r])),
                _mm_shuffle_epi8(codes[2], merge[2][r])));
}

// Columns x and x + 1 of RGB planes (`span` apart) with two groups of taps, their lanes paired by a
// horizontal add, a register per band: reduceh16_sums8's first step.
FD_AVX2 static inline void reduceh16_rgb_pair(const float *planes, int span, const Reduce16Params *params,
    int origin, int x, __m256 pairs[3]) {
    __m256 lanes[2][3];
    for (int j = 0; j < 2; j++) {
        const float *w = params->lane_weights + (size_t)(x + j) * 16;
        const __m256 w0 = _mm256_loadu_ps(w), w1 = _mm256_loadu_ps(w + 8);
        const float *v = planes + params->first[x + j] - origin;
        for (int c = 0; c < 3; c++)
            lanes[j][c] = _mm256_add_ps(_mm256_mul_ps(w0, _mm256_loadu_ps(v + (size_t)c * span)),
                _mm256_mul_ps(w1, _mm256_loadu_ps(v + (size_t)c * span + 8)));
    }
    for (int c = 0; c < 3; c++) pairs[c] = _mm256_hadd_ps(lanes[0][c], lanes[1][c]);
}

// Columns x … x + 3 of RGB planes as reduceh16_rgb_pair, their pairs paired again (reduceh16_sums8's h0).
FD_AVX2 static inline void reduceh16_rgb_quad(const float *planes, int span, const Reduce16Params *params,
    int origin, int x, __m256 quads[3]) {
    __m256 low[3], high[3];
    reduceh16_rgb_pair(planes, span, params, origin, x, low);
    reduceh16_rgb_pair(planes, span, params, origin, x + 2, high);
    for (int c = 0; c < 3; c++) quads[c] = _mm256_hadd_ps(low[c], high[c]);
}

// Output columns from … to - 1 of every band's plane (planes `span` apart), 8 columns at a time, into
// the packed row q; returns where it stopped (fewer than 8 columns before `to`). Each column's weights
// are read once for all its bands; RGB codes are interleaved with byte shuffles.
FD_AVX2 static int reduceh16_columns_avx2(const float *planes, int span, const Reduce16Params *params,
    int origin, int from, int to, uint16_t *q) {
    const int bands = params->bands, groups = params->groups;
    __m128i merge[3][3];
    if (bands == 3) {
        uint8_t bytes[3][3][16];
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++)
                for (int p = 0; p < 8; p++) {
                    const int sample = 8 * r + p, mine = sample % 3 == c;
                    bytes[c][r][2 * p] = mine ? (uint8_t)(2 * (sample / 3)) : 0x80;
                    bytes[c][r][2 * p + 1] = mine ? (uint8_t)(2 * (sample / 3) + 1) : 0x80;
                }
        for (int c = 0; c < 3; c++)
            for (int r = 0; r < 3; r++) merge[c][r] = _mm_loadu_si128((const __m128i *)(const void *)bytes[c][r]);
    }
    int x = from;
    if (bands == 1 && groups == 2) {
        // One band with two groups of taps (a video frame's planes on a phone's viewfinder), kept in
        // registers: each pair of columns' lanes paired as soon as they are summed.
        for (; x + 8 <= to; x += 8) {
            __m256 pairs[4];
            for (int p = 0; p < 4; p++) {
                __m256 lanes[2];
                for (int j = 0; j < 2; j++) {
                    const int column = x + 2 * p + j;
                    const float *w = params->lane_weights + (size_t)column * 16;
                    const float *v = planes + params->first[column] - origin;
                    lanes[j] = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(w), _mm256_loadu_ps(v)),
                        _mm256_mul_ps(_mm256_loadu_ps(w + 8), _mm256_loadu_ps(v + 8)));
                }
                pairs[p] = _mm256_hadd_ps(lanes[0], lanes[1]);
            }
            const __m256 sums = reduceh16_halves(
                _mm256_hadd_ps(pairs[0], pairs[1]), _mm256_hadd_ps(pairs[2], pairs[3]));
            _mm_storeu_si128((__m128i *)(void *)(q + (x - from)), codes8(sums));
        }
        return x;
    }
    if (bands == 3 && groups == 2) {
        // The HDR viewfinder's case (shrinks of 4/3 to 5/2), kept in registers.
        for (; x + 8 <= to; x += 8) {
            __m256 h0[3], h1[3];
            reduceh16_rgb_quad(planes, span, params, origin, x, h0);
            reduceh16_rgb_quad(planes, span, params, origin, x + 4, h1);
            __m128i codes[3];
            for (int c = 0; c < 3; c++) codes[c] = codes8(reduceh16_halves(h0[c], h1[c]));
            reduceh16_store_rgb(codes, merge, q + (size_t)(x - from) * 3);
        }
        return x;
    }
    for (; x + 8 <= to; x += 8) {
        __m256 lanes[4][8];
        for (int j = 0; j < 8; j++) {
            const float *w = params->lane_weights + (size_t)(x + j) * groups * 8;
            const float *v = planes + params->first[x + j] - origin;
            for (int c = 0; c < bands; c++) {
                const float *plane = v + (size_t)c * span;
                __m256 sum = _mm256_mul_ps(_mm256_loadu_ps(w), _mm256_loadu_ps(plane));
                for (int g = 1; g < groups; g++)
                    sum = _mm256_add_ps(sum, _mm256_mul_ps(_mm256_loadu_ps(w + 8 * g), _mm256_loadu_ps(plane + 8 * g)));
                lanes[c][j] = sum;
            }
        }
        __m128i codes[4];
        for (int c = 0; c < bands; c++) codes[c] = codes8(reduceh16_sums8(lanes[c]));
        uint16_t *out = q + (size_t)(x - from) * bands;
        if (bands == 1) {
            _mm_storeu_si128((__m128i *)(void *)out, codes[0]);  // 8 consecutive samples
        } else if (bands == 3) {
            reduceh16_store_rgb(codes, merge, out);
        } else {
            for (int c = 0; c < bands; c++) {
                uint16_t words[8];
                _mm_storeu_si128((__m128i *)(void *)words, codes[c]);
                for (int j = 0; j < 8; j++) out[(size_t)j * bands + c] = words[j];
            }
        }
    }
    return x;
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

// Input positions origin … origin + span - 1 split into one float plane per band, each `span` long, from
// the row whose positions left … right (the span's, clamped to the image) start at `p`: positions
// outside them repeat the edge's samples.
static void reduceh16_split(const uint16_t *p, const Reduce16Params *params, int left, int right, int origin,
    int span, float *planes) {
    const int bands = params->bands;
    int i = 0;
    for (; i < span && origin + i < left; i++)
        for (int c = 0; c < bands; c++) planes[c * span + i] = (float)p[c];
    const int inside = right + 1 - origin < span ? right + 1 - origin : span;
#if FD_X86_SIMD
    if (fd_simd_path() != FD_SIMD_SCALAR)
        i = reduceh16_split_avx2(p + (size_t)(origin + i - left) * bands, bands, i, inside, span, planes);
#endif
    for (; i < inside; i++)
        for (int c = 0; c < bands; c++) planes[c * span + i] = (float)p[(size_t)(origin + i - left) * bands + c];
    for (; i < span; i++)
        for (int c = 0; c < bands; c++) planes[c * span + i] = (float)p[(size_t)(right - left) * bands + c];
}

// Output column x of the plane `plane` (position 0 being input position `origin`), as every path sums it.
static inline uint16_t reduceh16_sample(const float *plane, const Reduce16Params *params, int origin, int x) {
    const float *w = params->lane_weights + (size_t)x * params->groups * 8;
    const float *v = plane + params->first[x] - origin;
    float lanes[8];
    for (int l = 0; l < 8; l++) lanes[l] = w[l] * v[l];
    for (int g = 1; g < params->groups; g++)
        for (int l = 0; l < 8; l++) lanes[l] = lanes[l] + w[8 * g + l] * v[8 * g + l];
    return reduce16_round(((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
                          ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7])));
}

static int generate_reduceh16(VipsRegion *out_region, void *sequence, void *a, void *b, gboolean *stop) {
    Reduce16Sequence *seq = (Reduce16Sequence *)sequence;
    const Reduce16Params *params = (const Reduce16Params *)b;
    (void)a;
    (void)stop;
    const VipsRect *rect = &out_region->valid;
    const int from = rect->left, to = rect->left + rect->width, bands = params->bands;
    const int origin = params->first[from], span = reduceh16_span(params, from, to);
    const int left = clamp_position(origin, params->in_length);
    const int right = clamp_position(origin + span - 1, params->in_length);
    VipsRect in_rect = { left, rect->top, right - left + 1, rect->height };
    if (vips_region_prepare(seq->region, &in_rect)) return -1;
    const int vector = fd_simd_path() != FD_SIMD_SCALAR;
    (void)vector;
    for (int y = rect->top; y < rect->top + rect->height; y++) {
        const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(seq->region, left, y);
        uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, from, y);
        reduceh16_split(p, params, left, right, origin, span, seq->planes);
        int x = from;
#if FD_X86_SIMD
        if (vector) x = reduceh16_columns_avx2(seq->planes, span, params, origin, from, to, q);
#endif
        for (; x < to; x++)
            for (int c = 0; c < bands; c++)
                q[(size_t)(x - from) * bands + c] =
                    reduceh16_sample(seq->planes + (size_t)c * span, params, origin, x);
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
        params->groups = (params->taps + 7) / 8;
        params->lane_weights = g_new0(float, (size_t)length * params->groups * 8);
        for (int x = 0; x < length; x++)
            for (int k = 0; k < params->taps; k++)
                params->lane_weights[(size_t)x * params->groups * 8 + k] = params->weights[(size_t)x * params->taps + k];
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
