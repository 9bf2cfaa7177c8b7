// fd_kernel_lut16 (see FrameKernels.h): per-channel tables on 16-bit pixels (stills).

#include "kernel_support.h"

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
        if (bands == 3 && colour == 3) {
            const uint16_t *t0 = t, *t1 = t + 65536, *t2 = t + 2 * 65536;
            for (int x = 0; x < rect->width; x++, p += 3, q += 3) {
                q[0] = t0[p[0]];
                q[1] = t1[p[1]];
                q[2] = t2[p[2]];
            }
            continue;
        }
        for (int x = 0; x < rect->width; x++) {
            for (int c = 0; c < bands; c++) q[c] = c < colour ? t[c * 65536 + p[c]] : p[c];
            p += bands;
            q += bands;
        }
    }
    return 0;
}

int fd_kernel_lut16(VipsImage *in, VipsImage **out, const uint16_t *tables, int colour_bands) {
    if (fd_check(in, VIPS_FORMAT_USHORT, colour_bands, "framedial_lut16")) return -1;
    KernelParams *params = g_new0(KernelParams, 1);
    params->colour_bands = colour_bands;
    params->tables = g_memdup2(tables, (gsize)colour_bands * 65536 * sizeof(uint16_t));
    return fd_attach(in, out, generate_lut16, params);
}
