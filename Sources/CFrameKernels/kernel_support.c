// The parameters and CPU dispatch shared by the per-pixel kernel families (see kernel_support.h).

#include "kernel_support.h"

void fd_free_params(VipsImage *image, KernelParams *params) {
    (void)image;
    g_free(params->tables);
    g_free(params->output_tables);
    g_free(params->lut8_blocks);
    g_free(params->mix_terms);
    g_free(params->mix_tables);
    g_free(params->mix_codes);
    if (params->input) g_object_unref(params->input);
    g_free(params);
}

// True when the AVX2 paths may run on this CPU.
int fd_cpu_has_avx2(void) {
#if FD_HAVE_X86_SIMD
    static int cached = -1;
    if (cached < 0) cached = __builtin_cpu_supports("avx2") ? 1 : 0;
    return cached;
#else
    return 0;
#endif
}

// True when the AVX-512 byte-permute (VBMI) lookups may run on this CPU.
int fd_cpu_has_avx512_vbmi(void) {
#if FD_HAVE_X86_SIMD
    static int cached = -1;
    if (cached < 0)
        cached = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512vbmi")
            ? 1
            : 0;
    return cached;
#else
    return 0;
#endif
}

// Makes `*out` a new image like `in` whose pixels `generate` computes from `in`, owning `params`.
int fd_attach(VipsImage *in, VipsImage **out, VipsGenerateFn generate, KernelParams *params) {
    if (vips_image_pio_input(in)) {
        fd_free_params(NULL, params);
        return -1;
    }
    VipsImage *image = vips_image_new();
    params->input = in;
    g_object_ref(in);
    g_signal_connect(image, "close", G_CALLBACK(fd_free_params), params);
    if (vips_image_pipelinev(image, VIPS_DEMAND_STYLE_THINSTRIP, in, NULL) ||
        vips_image_generate(image, vips_start_one, generate, vips_stop_one, in, params)) {
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
