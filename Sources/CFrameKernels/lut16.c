// fd_kernel_lut16 (see FrameKernels.h): per-channel tables on 16-bit pixels (stills).

#include "kernel_support.h"

#include <stdlib.h>
#include <string.h>

// lut16 of one row of `pixels` 16-bit pixels of `bands` bands.
static void lut16_row(const KernelParams *params, const VipsPel *in, VipsPel *out, int pixels, int bands) {
    const int colour = params->colour_bands;
    const uint16_t *t = (const uint16_t *)params->tables;
    const uint16_t *p = (const uint16_t *)in;
    uint16_t *q = (uint16_t *)out;
    if (bands == 3 && colour == 3) {
        const uint16_t *t0 = t, *t1 = t + 65536, *t2 = t + 2 * 65536;
        for (int x = 0; x < pixels; x++, p += 3, q += 3) {
            q[0] = t0[p[0]];
            q[1] = t1[p[1]];
            q[2] = t2[p[2]];
        }
        return;
    }
    for (int x = 0; x < pixels; x++) {
        for (int c = 0; c < bands; c++) q[c] = c < colour ? t[c * 65536 + p[c]] : p[c];
        p += bands;
        q += bands;
    }
}

static int generate_lut16(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    (void)a, (void)stop;
    return fd_generate_rows(out_region, seq, (const KernelParams *)b, lut16_row);
}

int fd_kernel_lut16(VipsImage *in, VipsImage **out, const uint16_t *tables, int colour_bands) {
    if (fd_check(in, VIPS_FORMAT_USHORT, colour_bands, "framedial_lut16")) return -1;
    // Allocated with malloc, as CRowKernels frees every KernelParams (fd_kernel_params_free).
    KernelParams *params = calloc(1, sizeof *params);
    const size_t size = (size_t)colour_bands * 65536 * sizeof(uint16_t);
    if (params) params->tables = malloc(size);
    if (!params || !params->tables) {
        fd_kernel_params_free(params);
        vips_error("framedial_lut16", "out of memory");
        return -1;
    }
    params->colour_bands = colour_bands;
    memcpy(params->tables, tables, size);
    return fd_attach(in, out, generate_lut16, params);
}
