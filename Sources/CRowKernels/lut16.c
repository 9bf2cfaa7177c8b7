// fd_lut16_params and fd_lut16_row (see colour_kernels.h): per-channel tables on 16-bit pixels, for
// CFrameKernels' fd_kernel_lut16 node and colour_rows.c.

#include "colour_kernels.h"

#include <stdlib.h>
#include <string.h>

KernelParams *fd_lut16_params(const uint16_t *tables, int colour_bands) {
    KernelParams *params = calloc(1, sizeof *params);
    const size_t size = (size_t)colour_bands * 65536 * sizeof(uint16_t);
    if (params) params->tables = malloc(size);
    if (!params || !params->tables) {
        fd_kernel_params_free(params);
        return NULL;
    }
    params->colour_bands = colour_bands;
    params->entries = 65536;
    memcpy(params->tables, tables, size);
    return params;
}

void fd_lut16_row(const KernelParams *params, const uint8_t *in, uint8_t *out, int pixels, int bands) {
    const int colour = params->colour_bands;
    const uint16_t *t = (const uint16_t *)params->tables;
    const uint16_t *p = (const uint16_t *)(const void *)in;
    uint16_t *q = (uint16_t *)(void *)out;
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
