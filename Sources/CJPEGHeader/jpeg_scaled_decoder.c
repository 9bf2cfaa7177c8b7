// Decodes a JPEG at M/8 of its size with libjpeg's scale_num / scale_denom: libjpeg-turbo computes each
// 8×8 block's inverse DCT at M×M, so a picture that will be made smaller is never decoded in full.
// libjpeg's fatal errors jump back here (never exit or crash; see jpeg_error_trap.h); warnings stop the
// decode as `fail_on` says.
#include "JPEGScaledDecoder.h"
#include "jpeg_error_trap.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// libjpeg calls this with level -1 for a warning about damaged data (the decode goes on).
static void decode_emit_message(j_common_ptr cinfo, int level) {
    JPEGErrorTrap *trap = (JPEGErrorTrap *)cinfo->err;
    if (level >= 0) return;
    int stops = trap->fail_on == FD_JPEG_FAIL_ON_WARNING ||
        (trap->fail_on == FD_JPEG_FAIL_ON_TRUNCATED && cinfo->err->msg_code == JWRN_JPEG_EOF);
    if (stops) (*cinfo->err->error_exit)(cinfo);
}

int fd_jpeg_decode_scaled(const void *bytes, size_t count, int eighths, int fail_on,
    long long pixel_limit, FDJPEGScaledImage *image, char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    JPEGErrorTrap trap;
    memset(image, 0, sizeof *image);
    if (message && message_size > 0) message[0] = '\0';
    if (eighths < 1 || eighths > 8) {
        if (message && message_size > 0) snprintf(message, message_size, "scale %d/8 is not 1/8 … 8/8", eighths);
        return FD_JPEG_SCALED_FAILED;
    }
    cinfo.err = fd_jpeg_error_trap(&trap, message, message_size);
    trap.manager.emit_message = decode_emit_message;
    trap.fail_on = fail_on;
    // Volatile: changed between setjmp and a possible longjmp.
    unsigned char *volatile pixels = NULL;
    volatile int decoding = 0;
    if (setjmp(trap.resume)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        return decoding ? FD_JPEG_SCALED_DAMAGED : FD_JPEG_SCALED_FAILED;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (const unsigned char *)bytes, (unsigned long)count);
    jpeg_read_header(&cinfo, TRUE);
    int bands;
    switch (cinfo.jpeg_color_space) {
    case JCS_YCbCr:
    case JCS_RGB:
        cinfo.out_color_space = JCS_RGB;
        bands = 3;
        break;
    case JCS_GRAYSCALE:
        cinfo.out_color_space = JCS_GRAYSCALE;
        bands = 1;
        break;
    default:
        jpeg_destroy_decompress(&cinfo);
        return FD_JPEG_SCALED_UNSUPPORTED;
    }
    cinfo.scale_num = (unsigned int)eighths;
    cinfo.scale_denom = 8;
    jpeg_calc_output_dimensions(&cinfo);
    long long width = cinfo.output_width, height = cinfo.output_height;
    if (pixel_limit > 0 && width * height > pixel_limit) {
        image->width = (int)width;
        image->height = (int)height;
        jpeg_destroy_decompress(&cinfo);
        return FD_JPEG_SCALED_OVER_LIMIT;
    }
    size_t stride = (size_t)width * (size_t)bands;
    pixels = malloc(stride * (size_t)height);
    if (!pixels) {
        if (message && message_size > 0) snprintf(message, message_size, "out of memory for %lld×%lld pixels", width, height);
        jpeg_destroy_decompress(&cinfo);
        return FD_JPEG_SCALED_FAILED;
    }
    decoding = 1;
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[4];
        int wanted = 0;
        for (; wanted < 4 && cinfo.output_scanline + (JDIMENSION)wanted < cinfo.output_height; wanted++)
            rows[wanted] = pixels + (size_t)(cinfo.output_scanline + (JDIMENSION)wanted) * stride;
        jpeg_read_scanlines(&cinfo, rows, (JDIMENSION)wanted);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    image->width = (int)width;
    image->height = (int)height;
    image->bands = bands;
    image->pixels = pixels;
    return FD_JPEG_SCALED_OK;
}

void fd_jpeg_scaled_free(FDJPEGScaledImage *image) {
    free(image->pixels);
    image->pixels = NULL;
}
