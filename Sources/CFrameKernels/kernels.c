#include "FrameKernels.h"

#include <string.h>
#include <vips/vips.h>

// Parameters live as long as the output image: they are freed when libvips closes it.
typedef struct {
    int colour_bands;
    int entries;
    int output_count;
    float scale;
    float matrix[9];
    void *tables;         // lut8 / lut16 tables, or mix input tables (floats)
    void *output_tables;  // mix only
    VipsImage *input;     // the output image keeps its input alive
} KernelParams;

static void free_params(VipsImage *image, KernelParams *params) {
    (void)image;
    g_free(params->tables);
    g_free(params->output_tables);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

static int generate_lut8(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    VipsRegion *in_region = (VipsRegion *)seq;
    const KernelParams *params = (const KernelParams *)b;
    (void)a;
    (void)stop;
    VipsRect *rect = &out_region->valid;
    if (vips_region_prepare(in_region, rect)) return -1;
    const int bands = out_region->im->Bands;
    const int colour = params->colour_bands;
    const uint8_t *t = (const uint8_t *)params->tables;
    const size_t n = (size_t)rect->width;
    for (int y = 0; y < rect->height; y++) {
        const uint8_t *p = VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
        uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
        if (bands == 3 && colour == 3) {
            const uint8_t *t0 = t, *t1 = t + 256, *t2 = t + 512;
            for (size_t x = 0; x < n; x++) {
                q[0] = t0[p[0]];
                q[1] = t1[p[1]];
                q[2] = t2[p[2]];
                p += 3;
                q += 3;
            }
        } else {
            for (size_t x = 0; x < n; x++) {
                for (int c = 0; c < bands; c++) q[c] = c < colour ? t[c * 256 + p[c]] : p[c];
                p += bands;
                q += bands;
            }
        }
    }
    return 0;
}

static int generate_lut16(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    VipsRegion *in_region = (VipsRegion *)seq;
    const KernelParams *params = (const KernelParams *)b;
    (void)a;
    (void)stop;
    VipsRect *rect = &out_region->valid;
    if (vips_region_prepare(in_region, rect)) return -1;
    const int bands = out_region->im->Bands;
    const int colour = params->colour_bands;
    const uint16_t *t = (const uint16_t *)params->tables;
    for (int y = 0; y < rect->height; y++) {
        const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
        uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
        for (int x = 0; x < rect->width; x++) {
            for (int c = 0; c < bands; c++) q[c] = c < colour ? t[c * 65536 + p[c]] : p[c];
            p += bands;
            q += bands;
        }
    }
    return 0;
}

static inline int output_index(float value, float scale, int last) {
    float position = value * scale + 0.5f;
    if (!(position > 0.0f)) return 0;  // also catches NaN
    if (position >= (float)last) return last;
    return (int)position;
}

static int generate_mix(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    VipsRegion *in_region = (VipsRegion *)seq;
    const KernelParams *params = (const KernelParams *)b;
    (void)a;
    (void)stop;
    VipsRect *rect = &out_region->valid;
    if (vips_region_prepare(in_region, rect)) return -1;
    const int bands = out_region->im->Bands;
    const int entries = params->entries;
    const float *in_t = (const float *)params->tables;
    const float *i0 = in_t, *i1 = in_t + entries, *i2 = in_t + 2 * entries;
    const float *m = params->matrix;
    const float scale = params->scale;
    const int count = params->output_count;
    const int last = count - 1;
    for (int y = 0; y < rect->height; y++) {
        if (entries == 256) {
            const uint8_t *p = VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
            uint8_t *q = VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
            const uint8_t *o = (const uint8_t *)params->output_tables;
            const uint8_t *o0 = o, *o1 = o + count, *o2 = o + 2 * count;
            for (int x = 0; x < rect->width; x++) {
                const float r = i0[p[0]], g = i1[p[1]], bl = i2[p[2]];
                q[0] = o0[output_index(m[0] * r + m[1] * g + m[2] * bl, scale, last)];
                q[1] = o1[output_index(m[3] * r + m[4] * g + m[5] * bl, scale, last)];
                q[2] = o2[output_index(m[6] * r + m[7] * g + m[8] * bl, scale, last)];
                for (int c = 3; c < bands; c++) q[c] = p[c];
                p += bands;
                q += bands;
            }
        } else {
            const uint16_t *p = (const uint16_t *)VIPS_REGION_ADDR(in_region, rect->left, rect->top + y);
            uint16_t *q = (uint16_t *)VIPS_REGION_ADDR(out_region, rect->left, rect->top + y);
            const uint16_t *o = (const uint16_t *)params->output_tables;
            const uint16_t *o0 = o, *o1 = o + count, *o2 = o + 2 * count;
            for (int x = 0; x < rect->width; x++) {
                const float r = i0[p[0]], g = i1[p[1]], bl = i2[p[2]];
                q[0] = o0[output_index(m[0] * r + m[1] * g + m[2] * bl, scale, last)];
                q[1] = o1[output_index(m[3] * r + m[4] * g + m[5] * bl, scale, last)];
                q[2] = o2[output_index(m[6] * r + m[7] * g + m[8] * bl, scale, last)];
                for (int c = 3; c < bands; c++) q[c] = p[c];
                p += bands;
                q += bands;
            }
        }
    }
    return 0;
}

// Makes `*out` a new image like `in` whose pixels `generate` computes from `in`, owning `params`.
static int attach(VipsImage *in, VipsImage **out, VipsGenerateFn generate, KernelParams *params) {
    if (vips_image_pio_input(in)) {
        free_params(NULL, params);
        return -1;
    }
    VipsImage *image = vips_image_new();
    params->input = in;
    g_object_ref(in);
    g_signal_connect(image, "close", G_CALLBACK(free_params), params);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(image, vips_start_one, generate, vips_stop_one, in, params)) {
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}

static int check(VipsImage *in, VipsBandFormat format, int colour_bands, const char *name) {
    if (in->BandFmt != format) {
        vips_error(name, "expects %s input", format == VIPS_FORMAT_UCHAR ? "8-bit" : "16-bit");
        return -1;
    }
    if (colour_bands < 1 || colour_bands > 3 || in->Bands < colour_bands) {
        vips_error(name, "image has %d bands, kernel needs %d colour bands", in->Bands, colour_bands);
        return -1;
    }
    return 0;
}

int fd_kernel_lut8(VipsImage *in, VipsImage **out, const uint8_t *tables, int colour_bands) {
    if (check(in, VIPS_FORMAT_UCHAR, colour_bands, "framedial_lut8")) return -1;
    KernelParams *params = g_new0(KernelParams, 1);
    params->colour_bands = colour_bands;
    params->tables = g_memdup2(tables, (gsize)colour_bands * 256);
    return attach(in, out, generate_lut8, params);
}

int fd_kernel_lut16(VipsImage *in, VipsImage **out, const uint16_t *tables, int colour_bands) {
    if (check(in, VIPS_FORMAT_USHORT, colour_bands, "framedial_lut16")) return -1;
    KernelParams *params = g_new0(KernelParams, 1);
    params->colour_bands = colour_bands;
    params->tables = g_memdup2(tables, (gsize)colour_bands * 65536 * sizeof(uint16_t));
    return attach(in, out, generate_lut16, params);
}

int fd_kernel_mix(VipsImage *in, VipsImage **out, int entries, const float *input_tables,
    const float *matrix, const void *output_tables, int output_count, float scale) {
    VipsBandFormat format = entries == 256 ? VIPS_FORMAT_UCHAR : VIPS_FORMAT_USHORT;
    if ((entries != 256 && entries != 65536) || output_count < 1) {
        vips_error("framedial_mix", "bad table sizes %d and %d", entries, output_count);
        return -1;
    }
    if (check(in, format, 3, "framedial_mix")) return -1;
    KernelParams *params = g_new0(KernelParams, 1);
    params->colour_bands = 3;
    params->entries = entries;
    params->output_count = output_count;
    params->scale = scale;
    memcpy(params->matrix, matrix, sizeof params->matrix);
    params->tables = g_memdup2(input_tables, (gsize)3 * entries * sizeof(float));
    size_t output_size = entries == 256 ? sizeof(uint8_t) : sizeof(uint16_t);
    params->output_tables = g_memdup2(output_tables, (gsize)3 * output_count * output_size);
    return attach(in, out, generate_mix, params);
}
