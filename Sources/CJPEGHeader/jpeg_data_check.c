// Reads a JPEG's compressed data to its end and stops at libjpeg's first warning (see JPEGDataCheck.h).
// libjpeg's fatal errors jump back here (never exit or crash; see jpeg_error_trap.h).
#include "JPEGDataCheck.h"
#include "jpeg_error_trap.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

// libjpeg calls this with level -1 for a warning about damaged data: every one ends the check.
static void check_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) (*cinfo->err->error_exit)(cinfo);
}

int fd_jpeg_check_data(const void *bytes, size_t count, char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    JPEGErrorTrap trap;
    if (message && message_size > 0) message[0] = '\0';
    cinfo.err = fd_jpeg_error_trap(&trap, message, message_size);
    trap.manager.emit_message = check_emit_message;
    // Volatile: changed between setjmp and a possible longjmp.
    JSAMPROW volatile row = NULL;
    if (setjmp(trap.resume)) {
        jpeg_destroy_decompress(&cinfo);
        free(row);
        return FD_JPEG_DATA_DAMAGED;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (const unsigned char *)bytes, (unsigned long)count);
    jpeg_read_header(&cinfo, TRUE);
    // The cheapest output: the data must still be entropy-decoded to find where each scan ends.
    cinfo.dct_method = JDCT_IFAST;
    cinfo.do_fancy_upsampling = FALSE;
    jpeg_start_decompress(&cinfo);
    // Skipping to the very end would mark the data read without decoding it, so the last row is read.
    row = malloc((size_t)cinfo.output_width * (size_t)cinfo.output_components);
    if (!row) {
        if (message && message_size > 0) snprintf(message, message_size, "out of memory for a row");
        jpeg_destroy_decompress(&cinfo);
        return FD_JPEG_DATA_DAMAGED;
    }
    if (cinfo.output_height > 1) jpeg_skip_scanlines(&cinfo, cinfo.output_height - 1);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[1] = {row};
        jpeg_read_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(row);
    return FD_JPEG_DATA_CLEAN;
}
