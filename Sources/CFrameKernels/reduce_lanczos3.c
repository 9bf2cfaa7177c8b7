// Horizontal Lanczos 3 reduction of 8-bit images (fd_kernel_reduceh_lanczos3, see FrameKernels.h).
//
// Each output column has its own taps: N consecutive input pixels from `start[x]`, weighted by
// lanczos3((i - centre) / shrink), normalised to sum to 1 << 14 exactly. A row is first split into one
// 16-bit plane per band, padded at both ends with copies of the edge pixel; then every output value is
// the sum of tap × weight, rounded and clamped to 0 … 255. The AVX-512 path computes 16 outputs of a
// plane at once: per pair of taps, one word permute gathers the (left, right) inputs of all 16 from a
// 64-word window and one multiply-add applies the weights; it gives the scalar path's values exactly.

#include "kernel_support.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

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
    int vbmi_rgb;           // RGB rows split and interleaved with byte permutes (AVX-512 VBMI)
    uint8_t split[3][64];   // byte permutes from 64 RGB pixels (3 registers) to one plane per band
    uint64_t split_high[3]; // ... the bytes taken from the third register
    uint8_t interleave[64]; // 16 outputs of R, G and B (lanes 0, 1, 2) into 48 RGB bytes
    VipsImage *input;
} ReduceParams;

typedef struct {
    VipsRegion *region;
    int16_t *planes; // bands × plane_length words
} ReduceSequence;

static double lanczos3(double x) {
    if (x == 0.0) return 1.0;
    if (x <= -3.0 || x >= 3.0) return 0.0;
    const double px = M_PI * x;
    return 3.0 * sin(px) * sin(px / 3.0) / (px * px);
}

// The taps of the last reductions asked for, by lengths: a video's frames ask for the same ones every
// frame (three planes, two axes), and each weight costs two sines.
enum { TAPS_CACHED = 8 };
typedef struct {
    int in_length, out_length, taps;
    int *first;
    double *weights;
} CachedTaps;
static CachedTaps taps_cache[TAPS_CACHED];
static int taps_cache_next;
// A pthread mutex rather than a GMutex, which the thread sanitizer cannot see through.
static pthread_mutex_t taps_cache_lock = PTHREAD_MUTEX_INITIALIZER;

// fd_lanczos3_taps's values, computed.
static int compute_lanczos3_taps(int in_length, int out_length, int **first, double **weights) {
    const double shrink = (double)in_length / out_length;
    const double support = 3.0 * (shrink > 1.0 ? shrink : 1.0);
    const int taps = (int)ceil(2.0 * support) + 1;
    *first = g_new(int, out_length);
    *weights = g_new(double, (size_t)out_length * taps);
    for (int x = 0; x < out_length; x++) {
        const double centre = (x + 0.5) * shrink - 0.5;
        const int start = (int)floor(centre - support) + 1;
        double *w = *weights + (size_t)x * taps, sum = 0.0;
        for (int k = 0; k < taps; k++) {
            w[k] = lanczos3((start + k - centre) / (support / 3.0));
            sum += w[k];
        }
        for (int k = 0; k < taps; k++) w[k] /= sum;
        (*first)[x] = start;
    }
    return taps;
}

int fd_lanczos3_taps(int in_length, int out_length, int **first, double **weights) {
    pthread_mutex_lock(&taps_cache_lock);
    for (int i = 0; i < TAPS_CACHED; i++) {
        const CachedTaps *cached = &taps_cache[i];
        if (cached->first && cached->in_length == in_length && cached->out_length == out_length) {
            *first = g_memdup2(cached->first, sizeof(int) * (size_t)out_length);
            *weights = g_memdup2(cached->weights, sizeof(double) * (size_t)out_length * cached->taps);
            const int taps = cached->taps;
            pthread_mutex_unlock(&taps_cache_lock);
            return taps;
        }
    }
    pthread_mutex_unlock(&taps_cache_lock);
    const int taps = compute_lanczos3_taps(in_length, out_length, first, weights);
    pthread_mutex_lock(&taps_cache_lock);
    CachedTaps *slot = &taps_cache[taps_cache_next];
    taps_cache_next = (taps_cache_next + 1) % TAPS_CACHED;
    g_free(slot->first);
    g_free(slot->weights);
    *slot = (CachedTaps){ in_length, out_length, taps, g_memdup2(*first, sizeof(int) * (size_t)out_length),
        g_memdup2(*weights, sizeof(double) * (size_t)out_length * taps) };
    pthread_mutex_unlock(&taps_cache_lock);
    return taps;
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

// Taps and weights of every output column; the AVX-512 chunk tables when that path is in force and every
// chunk's window fits in 64 words.
static void prepare_reduce(ReduceParams *params) {
    int *first;
    double *w;
    const int taps = fd_lanczos3_taps(params->in_width, params->width, &first, &w);
    params->taps = taps;
    params->pairs = (taps + 1) / 2;
    params->pad = taps + 1;
    params->plane_length = params->pad + params->in_width + params->pad + REDUCE_WINDOW;
    const int stride = 2 * params->pairs;
    params->start = g_new(int, params->width);
    params->weights = g_new0(int16_t, (size_t)params->width * stride);
    for (int x = 0; x < params->width; x++) {
        int16_t *out = params->weights + (size_t)x * stride;
        int total = 0, biggest = 0;
        for (int k = 0; k < taps; k++) {
            out[k] = (int16_t)lrint(w[(size_t)x * taps + k] * (1 << REDUCE_BITS));
            total += out[k];
            if (out[k] > out[biggest]) biggest = k;
        }
        out[biggest] = (int16_t)(out[biggest] + ((1 << REDUCE_BITS) - total));
        params->start[x] = first[x] + params->pad;
    }
    g_free(first);
    g_free(w);
    if (fd_simd_path() != FD_SIMD_AVX512) return;
    const int chunks = params->width / REDUCE_CHUNK;
    for (int c = 0; c < chunks; c++) {
        const int last = c * REDUCE_CHUNK + REDUCE_CHUNK - 1;
        if (params->start[last] + stride - params->start[c * REDUCE_CHUNK] > REDUCE_WINDOW) return;
    }
    if (params->bands == 3) {
        params->vbmi_rgb = 1;
        for (int c = 0; c < 3; c++)
            for (int i = 0; i < 64; i++) {
                const int position = 3 * i + c;
                params->split[c][i] = (uint8_t)(position % 128);
                if (position >= 128) params->split_high[c] |= (uint64_t)1 << i;
            }
        for (int i = 0; i < 48; i++) params->interleave[i] = (uint8_t)(16 * (i % 3) + i / 3);
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

#if FD_X86_SIMD

// reduce_split for RGB rows, 64 pixels a step: byte permutes gather each band, then widen to words.
FD_AVX512 static void reduce_split_rgb_vbmi(const uint8_t *row, const ReduceParams *params, int16_t *planes) {
    const int width = params->in_width;
    int x = 0;
    for (; x + 64 <= width; x += 64) {
        const __m512i d0 = _mm512_loadu_si512(row + 3 * x), d1 = _mm512_loadu_si512(row + 3 * x + 64),
                      d2 = _mm512_loadu_si512(row + 3 * x + 128);
        for (int c = 0; c < 3; c++) {
            const __m512i split = _mm512_loadu_si512(params->split[c]);
            __m512i plane = _mm512_permutex2var_epi8(d0, split, d1);
            plane = _mm512_mask_permutexvar_epi8(plane, params->split_high[c], split, d2);
            int16_t *out = planes + (size_t)c * params->plane_length + params->pad + x;
            _mm512_storeu_si512(out, _mm512_cvtepu8_epi16(_mm512_castsi512_si256(plane)));
            _mm512_storeu_si512(out + 32, _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(plane, 1)));
        }
    }
    for (; x < width; x++)
        for (int c = 0; c < 3; c++) planes[(size_t)c * params->plane_length + params->pad + x] = row[3 * x + c];
}
#endif

// Splits an input row into padded 16-bit planes.
static void reduce_split(const uint8_t *row, const ReduceParams *params, int avx512, int16_t *planes) {
    const int bands = params->bands, width = params->in_width, pad = params->pad;
    for (int c = 0; c < bands; c++) {
        int16_t *plane = planes + (size_t)c * params->plane_length;
        for (int i = 0; i < pad; i++) plane[i] = row[c];
        for (int i = params->pad + width; i < params->plane_length; i++) plane[i] = row[(width - 1) * bands + c];
    }
#if FD_X86_SIMD
    if (avx512 && params->vbmi_rgb) {
        reduce_split_rgb_vbmi(row, params, planes);
        return;
    }
#else
    (void)avx512;
#endif
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

#if FD_X86_SIMD
// The 16 outputs of chunk c of one plane, as bytes.
FD_AVX512 static inline __m128i reduce_chunk(const int16_t *plane,
    const ReduceParams *params, int c) {
    const int pairs = params->pairs;
    const int16_t *window = plane + params->chunk_start[c];
    const __m512i w0 = _mm512_loadu_si512(window), w1 = _mm512_loadu_si512(window + 32);
    const int16_t *control = params->chunk_control + (size_t)c * pairs * 32;
    const int16_t *weights = params->chunk_weights + (size_t)c * pairs * 32;
    __m512i sum = _mm512_set1_epi32(1 << (REDUCE_BITS - 1));
    for (int p = 0; p < pairs; p++) {
        const __m512i values = _mm512_permutex2var_epi16(w0, _mm512_loadu_si512(control + 32 * p), w1);
        sum = _mm512_add_epi32(sum, _mm512_madd_epi16(values, _mm512_loadu_si512(weights + 32 * p)));
    }
    sum = _mm512_srai_epi32(sum, REDUCE_BITS);
    return _mm512_cvtusepi32_epi8(_mm512_max_epi32(sum, _mm512_setzero_si512()));
}

// Output columns [from, to) of an RGB row: whole chunks computed for the three planes at once and
// interleaved by one byte permute; the columns around them by the scalar path.
FD_AVX512 static void reduce_row_rgb_vbmi(const int16_t *planes, const ReduceParams *params, int from, int to,
    uint8_t *q) {
    const int first_chunk = (from + REDUCE_CHUNK - 1) / REDUCE_CHUNK, end_chunk = to / REDUCE_CHUNK;
    const int16_t *r = planes, *g = r + params->plane_length, *b = g + params->plane_length;
    if (first_chunk >= end_chunk) {
        for (int c = 0; c < 3; c++) reduce_plane_scalar(planes + (size_t)c * params->plane_length, params, from, to, q + c, 3);
        return;
    }
    const int head = first_chunk * REDUCE_CHUNK, tail = end_chunk * REDUCE_CHUNK;
    const __m512i interleave = _mm512_loadu_si512(params->interleave);
    for (int c = 0; c < 3; c++)
        reduce_plane_scalar(planes + (size_t)c * params->plane_length, params, from, head, q + c, 3);
    for (int c = first_chunk; c < end_chunk; c++) {
        __m512i all = _mm512_castsi128_si512(reduce_chunk(r, params, c));
        all = _mm512_inserti32x4(all, reduce_chunk(g, params, c), 1);
        all = _mm512_inserti32x4(all, reduce_chunk(b, params, c), 2);
        _mm512_mask_storeu_epi8(q + 3 * (c * REDUCE_CHUNK - from), 0xFFFFFFFFFFFFULL,
            _mm512_permutexvar_epi8(interleave, all));
    }
    for (int c = 0; c < 3; c++)
        reduce_plane_scalar(planes + (size_t)c * params->plane_length, params, tail, to, q + 3 * (tail - from) + c, 3);
}

FD_AVX512 static void reduce_plane_avx512(const int16_t *plane,
    const ReduceParams *params, int from, int to, uint8_t *q, int bands) {
    int x = from;
    const int first_chunk = (from + REDUCE_CHUNK - 1) / REDUCE_CHUNK, end_chunk = to / REDUCE_CHUNK;
    if (first_chunk >= end_chunk) {
        reduce_plane_scalar(plane, params, from, to, q, bands);
        return;
    }
    reduce_plane_scalar(plane, params, from, first_chunk * REDUCE_CHUNK, q, bands);
    for (int c = first_chunk; c < end_chunk; c++) {
        const __m128i bytes = reduce_chunk(plane, params, c);
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
    const int avx512 = fd_simd_path() == FD_SIMD_AVX512;
    for (int y = rect->top; y < rect->top + rect->height; y++) {
        reduce_split(VIPS_REGION_ADDR(seq->region, 0, y), params, avx512, seq->planes);
        uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, y);
#if FD_X86_SIMD
        if (avx512 && params->vbmi_rgb) {
            reduce_row_rgb_vbmi(seq->planes, params, from, to, q);
            continue;
        }
#endif
        for (int c = 0; c < bands; c++) {
            const int16_t *plane = seq->planes + (size_t)c * params->plane_length;
#if FD_X86_SIMD
            if (avx512 && params->chunk_start) {
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
    return fd_attach_image(in, out, width, in->Ysize, reduce_start, generate_reduce, reduce_stop, params,
        &params->input, G_CALLBACK(free_reduce_params));
}
