// Decodes a JPEG with libjpeg at M/8 of its size (libjpeg-turbo's DCT scaling, M = 1 … 8).
#ifndef FRAMEDIAL_JPEG_SCALED_DECODER_H
#define FRAMEDIAL_JPEG_SCALED_DECODER_H

#include <stddef.h>

// What fd_jpeg_decode_scaled returns.
enum {
    FD_JPEG_SCALED_OK = 0,
    // The file is valid but not YCbCr, RGB or grey (CMYK, YCCK): decode it another way.
    FD_JPEG_SCALED_UNSUPPORTED = 1,
    // The scaled size (in `width`, `height`) is over the pixel limit; nothing was decoded.
    FD_JPEG_SCALED_OVER_LIMIT = 2,
    // Not a JPEG, or its header is damaged: the reason is in `message`.
    FD_JPEG_SCALED_FAILED = -1,
    // The header was read but the compressed data is damaged: the reason is in `message`.
    FD_JPEG_SCALED_DAMAGED = -2,
};

// How much damage stops a decode.
enum {
    // Decode whatever can be decoded.
    FD_JPEG_FAIL_ON_NONE = 0,
    // Stop when the data ends early.
    FD_JPEG_FAIL_ON_TRUNCATED = 1,
    // Stop on any warning libjpeg gives about the data.
    FD_JPEG_FAIL_ON_WARNING = 2,
};

// A decoded picture: 8-bit samples, `bands` (3: RGB, 1: grey) a pixel, packed rows. `pixels` is
// malloc'ed; release it with fd_jpeg_scaled_free.
typedef struct {
    int width;
    int height;
    int bands;
    unsigned char *pixels;
} FDJPEGScaledImage;

// Decodes the JPEG held in `bytes` at `eighths`/8 of its size (1 … 8; libjpeg rounds each side up).
// `pixel_limit` (0: none) is checked on the scaled size before any pixel is decoded; `fail_on` is one of
// the FD_JPEG_FAIL_ON values. Returns one of the FD_JPEG_SCALED values; on FD_JPEG_SCALED_OK `image`
// holds the pixels.
int fd_jpeg_decode_scaled(const void *bytes, size_t count, int eighths, int fail_on,
    long long pixel_limit, FDJPEGScaledImage *image, char *message, size_t message_size);

// Releases the pixels of `image` (safe on an image that holds none).
void fd_jpeg_scaled_free(FDJPEGScaledImage *image);

#endif
