// fd_kernel_lut8 and fd_kernel_mix (see FrameKernels.h): the colour kernels' row functions
// (CRowKernels' lut8.c and mix.c) as nodes of the libvips graph.

#include "kernel_support.h"

static int generate_lut8(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    (void)a, (void)stop;
    return fd_generate_rows(out_region, seq, (const KernelParams *)b, fd_lut8_row);
}

int fd_kernel_lut8(VipsImage *in, VipsImage **out, const uint8_t *tables, int colour_bands) {
    if (fd_check(in, VIPS_FORMAT_UCHAR, colour_bands, "framedial_lut8")) return -1;
    KernelParams *params = fd_lut8_params(tables, colour_bands);
    if (!params) {
        vips_error("framedial_lut8", "out of memory");
        return -1;
    }
    return fd_attach(in, out, generate_lut8, params);
}

static int generate_mix(VipsRegion *out_region, void *seq, void *a, void *b, gboolean *stop) {
    (void)a, (void)stop;
    return fd_generate_rows(out_region, seq, (const KernelParams *)b, fd_mix_row);
}

int fd_kernel_mix(VipsImage *in, VipsImage **out, int entries, const float *input_tables,
    const float *matrix, const void *output_tables, int output_count, float scale, int square_root_index) {
    VipsBandFormat format = entries == 256 ? VIPS_FORMAT_UCHAR : VIPS_FORMAT_USHORT;
    if ((entries != 256 && entries != 65536) || output_count < 1) {
        vips_error("framedial_mix", "bad table sizes %d and %d", entries, output_count);
        return -1;
    }
    if (fd_check(in, format, 3, "framedial_mix")) return -1;
    KernelParams *params =
        fd_mix_params(entries, input_tables, matrix, output_tables, output_count, scale, square_root_index);
    if (!params) {
        vips_error("framedial_mix", "out of memory");
        return -1;
    }
    return fd_attach(in, out, generate_mix, params);
}
