// Reads a JPEG's compressed data through to its end with libjpeg, to hear every warning libjpeg gives
// about it, without producing a picture.
#ifndef FRAMEDIAL_JPEG_DATA_CHECK_H
#define FRAMEDIAL_JPEG_DATA_CHECK_H

#include <stddef.h>

// What fd_jpeg_check_data returns.
enum {
    // libjpeg read every scan and the end marker without a warning.
    FD_JPEG_DATA_CLEAN = 0,
    // libjpeg warned about the data (the first warning is in `message`), or could not read it at all
    // (the error is in `message`).
    FD_JPEG_DATA_DAMAGED = 1,
};

// Entropy-decodes every scan of the JPEG held in `bytes` (output rows are skipped, so no inverse DCT or
// colour conversion runs) and reads the markers after the last one, as jpeg_finish_decompress does:
// damage libjpeg only notices there ("N extraneous bytes before marker 0xd9") is reported too. Costs
// about half of a full decode.
int fd_jpeg_check_data(const void *bytes, size_t count, char *message, size_t message_size);

#endif
