// Horizontal Lanczos 3 reduction of 8-bit images (fd_kernel_reduceh_lanczos3, see FrameKernels.h).
//
// Each output column has its own taps: N consecutive input pixels from `start[x]`, weighted by
// lanczos3((i - centre) / shrink), normalised to sum to 1 << 14 exactly. A row is first split into one
// 16-bit plane per band, padded at both ends with copies of the edge pixel; then every output value is
// the sum of tap × weight, rounded and clamped to 0 … 255. The AVX-512 path computes 16 outputs of a
// plane at once: per pair of taps, one word permute gathers the (left, right) inputs of all 16 from a
// 64-word window and one multiply-add applies the weights; it gives the scalar path's values exactly.

#include "FrameKernels.h"

#include <math.h>
#include <string.h>
#include <vips/vips.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(FRAMEDIAL_NO_SIMD)
#include <immintrin.h>
#define FD_REDUCE_SIMD 1
#else
#define FD_REDUCE_SIMD 0
#endif

enum { REDUCE_BITS = 14, REDUCE_CHUNK = 16, REDUCE_WINDOW = 64 };

typedef struct {
    int in_width, width, bands, taps, pairs;
    int pad;          // copies of the edge pixel before (and at least after) each plane
    int plane_length; // words per plane: pad + in_width + pad
    int *start;       // per output column: first tap's position in the padded plane
    int16_t *weights; // per output column: taps weights (of 1 << 14), then zeros up to 2 × pairs
    // AVX-512: per chunk of 16 columns, its window start and per tap pair the permute control
    // (window positions of the two taps of each column) and the weight pairs.
    int *chunk_start;
    int16_t *chunk_control; // [chunk][pair][32]
    int16_t *chunk_weights; // [chunk][pair][32]
    VipsImage *input;
} ReduceParams;

typedef struct {
    VipsRegion *region;
    int16_t *planes; // bands × plane_length words
} ReduceSequence;

static int reduce_has_avx512(void) {
#if FD_REDUCE_SIMD
    static int cached = -1;
    if (cached < 0) cached = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") ? 1 : 0;
    return cached;
#else
    return 0;
#endif
}

static double lanczos3(double x) {
    if (x == 0.0) return 1.0;
    if (x <= -3.0 || x >= 3.0) return 0.0;
    const double px = M_PI * x;
    return 3.0 * sin(px) * sin(px / 3.0) / (px * px);
}

static void free_reduce_params(VipsImage *image, ReduceParams *params) {
    (void)image;
    g_free(params->start);
    g_free(params->weights);
    g_free(params->chunk_start);
    g_free(params->chunk_control);
    g_free(params->chunk_weights);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

// Taps and weights of every output column; the AVX-512 chunk tables when this CPU runs them and every
// chunk's window fits in 64 words.
static void prepare_reduce(ReduceParams *params) {
    const double shrink = (double)params->in_width / params->width;
    const double support = 3.0 * (shrink > 1.0 ? shrink : 1.0);
    const int taps = (int)ceil(2.0 * support) + 1;
    params->taps = taps;
    params->pairs = (taps + 1) / 2;
    params->pad = taps + 1;
    params->plane_length = params->pad + params->in_width + params->pad + REDUCE_WINDOW;
    const int stride = 2 * params->pairs;
    params->start = g_new(int, params->width);
    params->weights = g_new0(int16_t, (size_t)params->width * stride);
    double *w = g_new(double, taps);
    for (int x = 0; x < params->width; x++) {
        const double centre = (x + 0.5) * shrink - 0.5;
        const int first = (int)floor(centre - support) + 1;
        double sum = 0.0;
        for (int k = 0; k < taps; k++) {
            w[k] = lanczos3((first + k - centre) / (support / 3.0));
            sum += w[k];
        }
        int16_t *out = params->weights + (size_t)x * stride;
        int total = 0, biggest = 0;
        for (int k = 0; k < taps; k++) {
            out[k] = (int16_t)lrint(w[k] / sum * (1 << REDUCE_BITS));
            total += out[k];
            if (out[k] > out[biggest]) biggest = k;
        }
        out[biggest] = (int16_t)(out[biggest] + ((1 << REDUCE_BITS) - total));
        params->start[x] = first + params->pad;
    }
    g_free(w);
    if (!reduce_has_avx512()) return;
    const int chunks = params->width / REDUCE_CHUNK;
    for (int c = 0; c < chunks; c++) {
        const int last = c * REDUCE_CHUNK + REDUCE_CHUNK - 1;
        if (params->start[last] + stride - params->start[c * REDUCE_CHUNK] > REDUCE_WINDOW) return;
    }
    params->chunk_start = g_new(int, chunks);
    params->chunk_control = g_new(int16_t, (size_t)chunks * params->pairs * 32);
    params->chunk_weights = g_new(int16_t, (size_t)chunks * params->pairs * 32);
    for (int c = 0; c < chunks; c++) {
        const int base = params->start[c * REDUCE_CHUNK];
        params->chunk_start[c] = base;
        for (int p = 0; p < params->pairs; p++) {
            int16_t *control = params->chunk_control + ((size_t)c * params->pairs + p) * 32;
            int16_t *weights = params->chunk_weights + ((size_t)c * params->pairs + p) * 32;
            for (int i = 0; i < REDUCE_CHUNK; i++) {
                const int x = c * REDUCE_CHUNK + i;
                control[2 * i] = (int16_t)(params->start[x] - base + 2 * p);
                control[2 * i + 1] = (int16_t)(params->start[x] - base + 2 * p + 1);
                weights[2 * i] = params->weights[(size_t)x * stride + 2 * p];
                weights[2 * i + 1] = params->weights[(size_t)x * stride + 2 * p + 1];
            }
        }
    }
}

static void *reduce_start(VipsImage *out, void *a, void *b) {
    const ReduceParams *params = (const ReduceParams *)b;
    (void)out;
    ReduceSequence *seq = g_new0(ReduceSequence, 1);
    seq->region = vips_region_new((VipsImage *)a);
    seq->planes = g_new(int16_t, (size_t)params->bands * params->plane_length);
    return seq;
}

static int reduce_stop(void *sequence, void *a, void *b) {
    ReduceSequence *seq = (ReduceSequence *)sequence;
    (void)a;
    (void)b;
    g_object_unref(seq->region);
    g_free(seq->planes);
    g_free(seq);
    return 0;
}

// Splits an input row into padded 16-bit planes.
static void reduce_split(const uint8_t *row, const ReduceParams *params, int16_t *planes) {
    const int bands = params->bands, width = params->in_width, pad = params->pad;
    for (int c = 0; c < bands; c++) {
        int16_t *plane = planes + (size_t)c * params->plane_length;
        for (int i = 0; i < pad; i++) plane[i] = row[c];
        for (int i = params->pad + width; i < params->plane_length; i++) plane[i] = row[(width - 1) * bands + c];
    }
    if (bands == 3) {
        int16_t *r = planes + pad, *g = r + params->plane_length, *b = g + params->plane_length;
        for (int x = 0; x < width; x++) {
            r[x] = row[3 * x];
            g[x] = row[3 * x + 1];
            b[x] = row[3 * x + 2];
        }
        return;
    }
    for (int x = 0; x < width; x++)
        for (int c = 0; c < bands; c++) planes[(size_t)c * params->plane_length + pad + x] = row[x * bands + c];
}

static inline uint8_t reduce_round(int32_t sum) {
    const int32_t value = (sum + (1 << (REDUCE_BITS - 1))) >> REDUCE_BITS;
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

// Output columns [from, to) of one plane, written to q with a step of `bands`.
static void reduce_plane_scalar(const int16_t *plane, const ReduceParams *params, int from, int to, uint8_t *q,
    int bands) {
    const int stride = 2 * params->pairs;
    for (int x = from; x < to; x++) {
        const int16_t *v = plane + params->start[x], *w = params->weights + (size_t)x * stride;
        int32_t sum = 0;
        for (int k = 0; k < stride; k++) sum += v[k] * w[k];
        q[(x - from) * bands] = reduce_round(sum);
    }
}

#if FD_REDUCE_SIMD
__attribute__((target("avx512f,avx512bw"))) static void reduce_plane_avx512(const int16_t *plane,
    const ReduceParams *params, int from, int to, uint8_t *q, int bands) {
    int x = from;
    const int first_chunk = (from + REDUCE_CHUNK - 1) / REDUCE_CHUNK, end_chunk = to / REDUCE_CHUNK;
    if (first_chunk >= end_chunk) {
        reduce_plane_scalar(plane, params, from, to, q, bands);
        return;
    }
    reduce_plane_scalar(plane, params, from, first_chunk * REDUCE_CHUNK, q, bands);
    const __m512i round = _mm512_set1_epi32(1 << (REDUCE_BITS - 1));
    const int pairs = params->pairs;
    for (int c = first_chunk; c < end_chunk; c++) {
        const int16_t *window = plane + params->chunk_start[c];
        const __m512i w0 = _mm512_loadu_si512(window), w1 = _mm512_loadu_si512(window + 32);
        const int16_t *control = params->chunk_control + (size_t)c * pairs * 32;
        const int16_t *weights = params->chunk_weights + (size_t)c * pairs * 32;
        __m512i sum = round;
        for (int p = 0; p < pairs; p++) {
            const __m512i values =
                _mm512_permutex2var_epi16(w0, _mm512_loadu_si512(control + 32 * p), w1);
            sum = _mm512_add_epi32(sum, _mm512_madd_epi16(values, _mm512_loadu_si512(weights + 32 * p)));
        }
        sum = _mm512_srai_epi32(sum, REDUCE_BITS);
        const __m128i bytes = _mm512_cvtusepi32_epi8(_mm512_max_epi32(sum, _mm512_setzero_si512()));
        x = c * REDUCE_CHUNK;
        uint8_t *out = q + (x - from) * bands;
        if (bands == 1) {
            _mm_storeu_si128((__m128i *)out, bytes);
        } else {
            uint8_t lane[16];
            _mm_storeu_si128((__m128i *)lane, bytes);
            for (int i = 0; i < REDUCE_CHUNK; i++) out[i * bands] = lane[i];
        }
    }
    x = end_chunk * REDUCE_CHUNK;
    reduce_plane_scalar(plane, params, x, to, q + (x - from) * bands, bands);
}
#endif

static int generate_reduce(VipsRegion *out_region, void *sequence, void *a, void *b, gboolean *stop) {
    ReduceSequence *seq = (ReduceSequence *)sequence;
    const ReduceParams *params = (const ReduceParams *)b;
    (void)a;
    (void)stop;
    const VipsRect *rect = &out_region->valid;
    VipsRect in_rect = { 0, rect->top, params->in_width, rect->height };
    if (vips_region_prepare(seq->region, &in_rect)) return -1;
    const int bands = params->bands, from = rect->left, to = rect->left + rect->width;
    for (int y = rect->top; y < rect->top + rect->height; y++) {
        reduce_split(VIPS_REGION_ADDR(seq->region, 0, y), params, seq->planes);
        uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, y);
        for (int c = 0; c < bands; c++) {
            const int16_t *plane = seq->planes + (size_t)c * params->plane_length;
#if FD_REDUCE_SIMD
            if (params->chunk_start) {
                reduce_plane_avx512(plane, params, from, to, q + c, bands);
                continue;
            }
#endif
            reduce_plane_scalar(plane, params, from, to, q + c, bands);
        }
    }
    return 0;
}

int fd_kernel_reduceh_lanczos3(VipsImage *in, VipsImage **out, int width) {
    if (in->BandFmt != VIPS_FORMAT_UCHAR || in->Bands < 1 || in->Bands > 4) {
        vips_error("framedial_reduceh", "expects an 8-bit image of 1 to 4 bands");
        return -1;
    }
    if (width < 1 || width > in->Xsize) {
        vips_error("framedial_reduceh", "cannot reduce a width of %d to %d", in->Xsize, width);
        return -1;
    }
    if (vips_image_pio_input(in)) return -1;
    ReduceParams *params = g_new0(ReduceParams, 1);
    params->in_width = in->Xsize;
    params->width = width;
    params->bands = in->Bands;
    prepare_reduce(params);
    VipsImage *image = vips_image_new();
    params->input = in;
    g_object_ref(in);
    g_signal_connect(image, "close", G_CALLBACK(free_reduce_params), params);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
        g_object_unref(image);
        return -1;
    }
    image->Xsize = width;
    if (vips_image_generate(image, reduce_start, generate_reduce, reduce_stop, in, params)) {
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}
