// Lanczos 3 reduction of 16-bit images, one node per axis (fd_kernel_reducev_lanczos3_16 and
// fd_kernel_reduceh_lanczos3_16, see FrameKernels.h).
//
// The taps are fd_kernel_reduceh_lanczos3's (fd_lanczos3_taps), kept as floats: a 16-bit value times a
// weight summed over the taps in single precision stays well within a code of the exact sum. Rows are
// reduced by accumulating whole input rows (contiguous, so the compiler vectorises the loop); columns by
// reading each output pixel's taps through a table of input offsets, the edges clamped.

#include "kernel_support.h"

#include <math.h>

typedef struct {
    int in_length, length, bands, taps;
    int *first;     // per output row or column: its first tap's input position (unclamped)
    float *weights; // per output row or column: `taps` weights summing to 1
    int *offsets;   // columns only: per output column and tap, the clamped input sample's offset
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
    for (int y = rect->top; y <= last; y++) {
        const float *w = params->weights + (size_t)y * params->taps;
        for (int i = 0; i < count; i++) sums[i] = 0.0f;
        for (int k = 0; k < params->taps; k++) {
            const int row = clamp_position(params->first[y] + k, params->in_length);
            const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(seq->region, rect->left, row);
            const float weight = w[k];
            for (int i = 0; i < count; i++) sums[i] += weight * (float)p[i];
        }
        uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, rect->left, y);
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
    for (int y = rect->top; y < rect->top + rect->height; y++) {
        const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(seq->region, 0, y);
        uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, rect->left, y);
        int x = rect->left;
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
