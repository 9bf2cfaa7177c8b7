// The parameters and libvips plumbing shared by the per-pixel kernel families (see kernel_support.h).

#include "kernel_support.h"

void fd_free_params(VipsImage *image, KernelParams *params) {
    (void)image;
    if (params->input) g_object_unref(params->input);
    fd_kernel_params_free(params);
}

// Makes `*out` a new image like `in` whose pixels `generate` computes from `in`, owning `params`.
int fd_attach(VipsImage *in, VipsImage **out, VipsGenerateFn generate, KernelParams *params) {
    if (vips_image_pio_input(in)) {
        fd_free_params(NULL, params);
        return -1;
    }
    return fd_attach_image(in, out, in->Xsize, in->Ysize, vips_start_one, generate, vips_stop_one, params,
        &params->input, G_CALLBACK(fd_free_params));
}

int fd_attach_image(VipsImage *in, VipsImage **out, int width, int height, VipsStartFn start,
    VipsGenerateFn generate, VipsStopFn stop, void *params, VipsImage **input, GCallback free_params) {
    VipsImage *image = vips_image_new();
    *input = in;
    g_object_ref(in);
    g_signal_connect(image, "close", free_params, params);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL)) {
        g_object_unref(image);
        return -1;
    }
    image->Xsize = width;
    image->Ysize = height;
    if (vips_image_generate(image, start, generate, stop, in, params)) {
        g_object_unref(image);
        return -1;
    }
    *out = image;
    return 0;
}

int fd_check(VipsImage *in, VipsBandFormat format, int colour_bands, const char *name) {
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
