// fd_kernel_lut16 (see FrameKernels.h): per-channel tables on 16-bit pixels (stills), a node over
// CRowKernels' fd_lut16_row.

#include "kernel_support.h"

static int generate_lut16(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    (void)a, (void)stop;
    return fd_generate_rows(out_region, seq, (const KernelParams *)b, fd_lut16_row);
}

int fd_kernel_lut16(VipsImage *in, VipsImage **out, const uint16_t *tables, int colour_bands) {
    if (fd_check(in, VIPS_FORMAT_USHORT, colour_bands, "framedial_lut16")) return -1;
    KernelParams *params = fd_lut16_params(tables, colour_bands);
    if (!params) {
        vips_error("framedial_lut16", "out of memory");
        return -1;
    }
    return fd_attach(in, out, generate_lut16, params);
}
