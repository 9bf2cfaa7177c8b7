// fd_kernel_resample_bilinear8 and fd_kernel_resize_bilinear8 (see FrameKernels.h): separable
// bilinear resampling of 8-bit images.
//
// Horizontal pass: each needed input row becomes a row of 16-bit values, value × 128, from
// 8-bit weights (of 256). Vertical pass: two such rows blend with 14-bit weights (of 16384) and
// round to 8 bits. The worst-case error against exact bilinear is about 0.51 of a level, so every
// output is within ±1 of the exact value rounded half up.

#include "kernel_support.h"

#include <math.h>

// As in mix.c: the resize weights are evaluated as separate multiplies and adds (never fused), so that
// every platform computes the same weights.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

enum { H_WEIGHT_ONE = 256, V_WEIGHT_BITS = 14, V_WEIGHT_ONE = 1 << V_WEIGHT_BITS, V_SHIFT = V_WEIGHT_BITS + 7 };

typedef struct {
    int in_width, in_height, width, height, bands;
    int *x0, *x1;      // per output column: byte offsets of the two input pixels in a row
    int16_t *x_weight; // per output column: weight of the right pixel, 0 … 256
    int *y0, *y1;      // per output row: the two input rows
    int16_t *y_weight; // per output row: weight of the lower row, 0 … 16384
    struct ResizeChunk *chunks; // AVX-512 horizontal pass: per 32 output values of a row, or NULL
    VipsImage *input;  // the output image keeps its input alive
} ResizeParams;

// One libvips sequence: the input region and two cached horizontally-resampled rows.
typedef struct {
    VipsRegion *region;
    int16_t *rows[2];
    int row_y[2];           // input row held by each cache slot, -1 for none
    int row_left, row_width; // output columns the cached rows cover
} ResizeSequence;

static void free_resize_params(VipsImage *image, ResizeParams *params) {
    (void)image;
    g_free(params->x0);
    g_free(params->x1);
    g_free(params->x_weight);
    g_free(params->y0);
    g_free(params->y1);
    g_free(params->y_weight);
    g_free(params->chunks);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

// Maps output positions 0 … out_size-1 onto input pixel centres of the window start … start + span:
// first/second input pixel and the second one's weight out of `one`.
static void resize_axis(int in_size, double start, double span, int out_size, int one, int *first, int *second,
    int16_t *weight) {
    for (int i = 0; i < out_size; i++) {
        double position = start + (i + 0.5) * span / out_size - 0.5;
        if (position < 0.0) position = 0.0;
        if (position > in_size - 1) position = in_size - 1;
        int index = (int)position;
        first[i] = index;
        second[i] = index + 1 < in_size ? index + 1 : index;
        weight[i] = (int16_t)(int)((position - index) * one + 0.5);
    }
}

static void *resize_start(VipsImage *out, void *a, void *b) {
    const ResizeParams *params = (const ResizeParams *)b;
    (void)out;
    ResizeSequence *seq = g_new0(ResizeSequence, 1);
    seq->region = vips_region_new((VipsImage *)a);
    size_t row_values = (size_t)params->width * params->bands + 32;
    seq->rows[0] = g_new(int16_t, row_values);
    seq->rows[1] = g_new(int16_t, row_values);
    seq->row_y[0] = seq->row_y[1] = -1;
    return seq;
}

static int resize_stop(void *sequence, void *a, void *b) {
    ResizeSequence *seq = (ResizeSequence *)sequence;
    (void)a;
    (void)b;
    g_object_unref(seq->region);
    g_free(seq->rows[0]);
    g_free(seq->rows[1]);
    g_free(seq);
    return 0;
}

// Horizontal pass over output columns [left, left + n) for a fixed band count; `row` is the input
// row with `base` the byte offset of its first pixel.
static inline __attribute__((always_inline)) void resize_horizontal_bands(const uint8_t *row, int base,
    const ResizeParams *params, int left, int n, int16_t *out, const int bands) {
    const int *x0 = params->x0 + left, *x1 = params->x1 + left;
    const int16_t *w = params->x_weight + left;
    for (int x = 0; x < n; x++) {
        const uint8_t *a = row + (x0[x] - base), *b = row + (x1[x] - base);
        const int wb = w[x], wa = H_WEIGHT_ONE - wb;
        for (int c = 0; c < bands; c++) out[x * bands + c] = (int16_t)((a[c] * wa + b[c] * wb + 1) >> 1);
    }
}

static void resize_horizontal(const uint8_t *row, int base, const ResizeParams *params, int left, int n,
    int16_t *out) {
    switch (params->bands) {
    case 1: resize_horizontal_bands(row, base, params, left, n, out, 1); break;
    case 2: resize_horizontal_bands(row, base, params, left, n, out, 2); break;
    case 3: resize_horizontal_bands(row, base, params, left, n, out, 3); break;
    default: resize_horizontal_bands(row, base, params, left, n, out, 4); break;
    }
}

// Vertical pass: blends `count` values of rows a and b with weight wb (of 16384) of b.
static void resize_vertical_scalar(const int16_t *a, const int16_t *b, int wb, uint8_t *out, int count) {
    const int wa = V_WEIGHT_ONE - wb;
    const int round = 1 << (V_SHIFT - 1);
    for (int i = 0; i < count; i++) out[i] = (uint8_t)((a[i] * wa + b[i] * wb + round) >> V_SHIFT);
}

#if FD_X86_SIMD
// AVX2 vertical pass: interleaved (a, b) pairs times (wa, wb) pairs with madd, 32 values a step.
FD_AVX2 static void resize_vertical_avx2(const int16_t *a, const int16_t *b, int wb,
    uint8_t *out, int count) {
    const __m256i weights = _mm256_set1_epi32((V_WEIGHT_ONE - wb) | (wb << 16));
    const __m256i round = _mm256_set1_epi32(1 << (V_SHIFT - 1));
    int i = 0;
    for (; i + 32 <= count; i += 32) {
        __m256i half[2];
        for (int h = 0; h < 2; h++) {
            const __m256i va = _mm256_loadu_si256((const __m256i *)(a + i + 16 * h));
            const __m256i vb = _mm256_loadu_si256((const __m256i *)(b + i + 16 * h));
            __m256i lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(va, vb), weights);
            __m256i hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(va, vb), weights);
            lo = _mm256_srai_epi32(_mm256_add_epi32(lo, round), V_SHIFT);
            hi = _mm256_srai_epi32(_mm256_add_epi32(hi, round), V_SHIFT);
            half[h] = _mm256_packs_epi32(lo, hi);
        }
        const __m256i bytes = _mm256_packus_epi16(half[0], half[1]);
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_permute4x64_epi64(bytes, 0xd8));
    }
    resize_vertical_scalar(a + i, b + i, wb, out + i, count - i);
}
#endif

// The AVX-512 horizontal pass works on chunks of 32 output values (bytes of output pixels, bands
// interleaved): one or two masked loads fetch the input bytes the chunk needs (a window of at most 128
// bytes), one two-register byte permute lays out its (left, right) byte pairs, and 16-bit multiply-adds
// with the (256 - w, w) weights give the scalar pass's values exactly. The pairs are ordered so that the
// in-lane 32-to-16-bit pack puts the values back in order.
enum { RESIZE_CHUNK = 32 };

typedef struct ResizeChunk {
    uint8_t control[64];  // window positions of the left and right bytes of each pair
    int16_t weights[64];  // per pair (256 - w, w)
    uint64_t mask[2];     // window bytes to load from start and start + 64
    int32_t start;        // byte offset of the window in an input row; -1 when wider than 128 bytes
} ResizeChunk;

// Fills params->chunks when the AVX-512 path is in force (after x0 and x1 became byte offsets).
static void prepare_resize_chunks(ResizeParams *params) {
    if (fd_simd_path() != FD_SIMD_AVX512) return;
    const int bands = params->bands, chunks = params->width * bands / RESIZE_CHUNK;
    if (chunks == 0) return;
    params->chunks = g_new0(ResizeChunk, chunks);
    for (int k = 0; k < chunks; k++) {
        ResizeChunk *chunk = &params->chunks[k];
        int low = INT32_MAX, high = 0;
        for (int i = 0; i < RESIZE_CHUNK; i++) {
            const int v = k * RESIZE_CHUNK + i, x = v / bands, c = v % bands;
            low = MIN(low, params->x0[x] + c);
            high = MAX(high, params->x1[x] + c);
        }
        const int span = high - low + 1;
        chunk->start = span <= 128 ? low : -1;
        if (chunk->start < 0) continue;
        chunk->mask[0] = span >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << span) - 1;
        chunk->mask[1] = span <= 64 ? 0 : span == 128 ? ~(uint64_t)0 : ((uint64_t)1 << (span - 64)) - 1;
        for (int i = 0; i < RESIZE_CHUNK; i++) {
            const int v = k * RESIZE_CHUNK + i, x = v / bands, c = v % bands;
            // Value i lands in word i of the packed result: lane i / 8, from the low (first 16 pairs)
            // or high (last 16) multiply-add when i % 8 is below or above 3.
            const int lane = i / 8, word = i % 8, pair = word < 4 ? 4 * lane + word : 16 + 4 * lane + word - 4;
            chunk->control[2 * pair] = (uint8_t)(params->x0[x] + c - low);
            chunk->control[2 * pair + 1] = (uint8_t)(params->x1[x] + c - low);
            chunk->weights[2 * pair] = (int16_t)(H_WEIGHT_ONE - params->x_weight[x]);
            chunk->weights[2 * pair + 1] = params->x_weight[x];
        }
    }
}

#if FD_X86_SIMD
// Scalar horizontal pass over output values [from, to) of a row, written to out[v - first].
static void resize_values_scalar(const uint8_t *row, int base, const ResizeParams *params, int first, int from,
    int to, int16_t *out) {
    const int bands = params->bands;
    for (int v = from; v < to; v++) {
        const int x = v / bands, c = v - x * bands;
        const int a = row[params->x0[x] + c - base], b = row[params->x1[x] + c - base];
        const int wb = params->x_weight[x], wa = H_WEIGHT_ONE - wb;
        out[v - first] = (int16_t)((a * wa + b * wb + 1) >> 1);
    }
}

// AVX-512 horizontal pass over output columns [left, left + n); columns outside whole chunks, and chunks
// of wide windows (shrinking by about 4 or more), take the scalar pass.
FD_AVX512 static void resize_horizontal_avx512(const uint8_t *row, int base, const ResizeParams *params,
    int left, int n, int16_t *out) {
    const int first = left * params->bands, end = (left + n) * params->bands;
    const __m512i one = _mm512_set1_epi32(1);
    int v = MIN(end, (first + RESIZE_CHUNK - 1) / RESIZE_CHUNK * RESIZE_CHUNK);
    resize_values_scalar(row, base, params, first, first, v, out);
    for (; v + RESIZE_CHUNK <= end; v += RESIZE_CHUNK) {
        const ResizeChunk *chunk = &params->chunks[v / RESIZE_CHUNK];
        if (chunk->start < 0) {
            resize_values_scalar(row, base, params, first, v, v + RESIZE_CHUNK, out);
            continue;
        }
        const uint8_t *window = row + (chunk->start - base);
        const __m512i w0 = _mm512_maskz_loadu_epi8(chunk->mask[0], window);
        const __m512i w1 = _mm512_maskz_loadu_epi8(chunk->mask[1], window + 64);
        const __m512i pairs = _mm512_permutex2var_epi8(w0, _mm512_loadu_si512(chunk->control), w1);
        const __m512i low = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(pairs));
        const __m512i high = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(pairs, 1));
        __m512i a = _mm512_madd_epi16(low, _mm512_loadu_si512(chunk->weights));
        __m512i b = _mm512_madd_epi16(high, _mm512_loadu_si512(chunk->weights + 32));
        a = _mm512_srai_epi32(_mm512_add_epi32(a, one), 1);
        b = _mm512_srai_epi32(_mm512_add_epi32(b, one), 1);
        _mm512_storeu_si512(out + (v - first), _mm512_packs_epi32(a, b));
    }
    resize_values_scalar(row, base, params, first, v, end, out);
}
#endif

// The cached horizontal row for input row `y`, computing it into the slot not holding row `keep`.
static const int16_t *resize_row(ResizeSequence *seq, const ResizeParams *params, const VipsRect *in_rect,
    int y, int keep, int left, int n) {
    for (int s = 0; s < 2; s++)
        if (seq->row_y[s] == y) return seq->rows[s];
    const int s = seq->row_y[0] == keep ? 1 : 0;
    const uint8_t *row = VIPS_REGION_ADDR(seq->region, in_rect->left, y);
#if FD_X86_SIMD
    if (params->chunks && fd_simd_path() == FD_SIMD_AVX512)
        resize_horizontal_avx512(row, in_rect->left * params->bands, params, left, n, seq->rows[s]);
    else
#endif
        resize_horizontal(row, in_rect->left * params->bands, params, left, n, seq->rows[s]);
    seq->row_y[s] = y;
    return seq->rows[s];
}

static int generate_resize(VipsRegion *out_region, void *sequence, void *a, void *b, gboolean *stop) {
    ResizeSequence *seq = (ResizeSequence *)sequence;
    const ResizeParams *params = (const ResizeParams *)b;
    (void)a;
    (void)stop;
    const VipsRect *rect = &out_region->valid;
    const int right = rect->left + rect->width - 1, bottom = rect->top + rect->height - 1;
    VipsRect in_rect;
    in_rect.left = params->x0[rect->left] / params->bands;
    in_rect.top = params->y0[rect->top];
    in_rect.width = params->x1[right] / params->bands - in_rect.left + 1;
    in_rect.height = params->y1[bottom] - in_rect.top + 1;
    if (vips_region_prepare(seq->region, &in_rect)) return -1;
    if (seq->row_left != rect->left || seq->row_width != rect->width) {
        seq->row_y[0] = seq->row_y[1] = -1;
        seq->row_left = rect->left;
        seq->row_width = rect->width;
    }
    const int count = rect->width * params->bands;
    const int simd = fd_simd_path() != FD_SIMD_SCALAR;
    for (int y = rect->top; y <= bottom; y++) {
        const int16_t *upper = resize_row(seq, params, &in_rect, params->y0[y], params->y1[y], rect->left, rect->width);
        const int16_t *lower = resize_row(seq, params, &in_rect, params->y1[y], params->y0[y], rect->left, rect->width);
        uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, y);
#if FD_X86_SIMD
        if (simd) {
            resize_vertical_avx2(upper, lower, params->y_weight[y], q, count);
            continue;
        }
#endif
        (void)simd;
        resize_vertical_scalar(upper, lower, params->y_weight[y], q, count);
    }
    return 0;
}

int fd_kernel_resize_bilinear8(VipsImage *in, VipsImage **out, int width, int height) {
    return fd_kernel_resample_bilinear8(in, out, width, height, 0, 0, in->Xsize, in->Ysize);
}

int fd_kernel_resample_bilinear8(VipsImage *in, VipsImage **out, int width, int height, double left, double top,
    double window_width, double window_height) {
    if (in->BandFmt != VIPS_FORMAT_UCHAR || in->Bands < 1 || in->Bands > 4) {
        vips_error("framedial_resize", "expects an 8-bit image of 1 to 4 bands");
        return -1;
    }
    if (width < 1 || height < 1 || width > VIPS_MAX_COORD || height > VIPS_MAX_COORD) {
        vips_error("framedial_resize", "bad output size %d × %d", width, height);
        return -1;
    }
    if (!(window_width > 0 && window_height > 0 && isfinite(left) && isfinite(top) && isfinite(window_width)
            && isfinite(window_height))) {
        vips_error("framedial_resize", "bad window %g, %g, %g × %g", left, top, window_width, window_height);
        return -1;
    }
    if (vips_image_pio_input(in)) return -1;
    ResizeParams *params = g_new0(ResizeParams, 1);
    params->in_width = in->Xsize;
    params->in_height = in->Ysize;
    params->width = width;
    params->height = height;
    params->bands = in->Bands;
    params->x0 = g_new(int, width);
    params->x1 = g_new(int, width);
    params->x_weight = g_new(int16_t, width);
    params->y0 = g_new(int, height);
    params->y1 = g_new(int, height);
    params->y_weight = g_new(int16_t, height);
    resize_axis(in->Xsize, left, window_width, width, H_WEIGHT_ONE, params->x0, params->x1, params->x_weight);
    resize_axis(in->Ysize, top, window_height, height, V_WEIGHT_ONE, params->y0, params->y1, params->y_weight);
    for (int x = 0; x < width; x++) {
        params->x0[x] *= params->bands;
        params->x1[x] *= params->bands;
    }
    prepare_resize_chunks(params);
    return fd_attach_image(in, out, width, height, resize_start, generate_resize, resize_stop, params,
        &params->input, G_CALLBACK(free_resize_params));
}
