// Reads the header of a JPEG file with libjpeg: its quantisation tables and sampling factors.
#ifndef FRAMEDIAL_JPEG_HEADER_READER_H
#define FRAMEDIAL_JPEG_HEADER_READER_H

#include <stddef.h>

#define FD_JPEG_MAX_COMPONENTS 4
#define FD_JPEG_MAX_TABLES 4

// What a JPEG header says about how the file was compressed.
typedef struct {
    int width;
    int height;
    int component_count;
    // Per component (the first FD_JPEG_MAX_COMPONENTS): sampling factors and quantisation table slot.
    int horizontal_sampling[FD_JPEG_MAX_COMPONENTS];
    int vertical_sampling[FD_JPEG_MAX_COMPONENTS];
    int table_slot[FD_JPEG_MAX_COMPONENTS];
    // Per table slot: 1 when the file defines it; its 64 entries in natural (row-major) order.
    int table_present[FD_JPEG_MAX_TABLES];
    unsigned short tables[FD_JPEG_MAX_TABLES][64];
} FDJPEGHeader;

// Reads the header of the JPEG open on `descriptor`, from its start, with pread (the descriptor's file
// offset is left alone). Returns 0, or -1 with a message in `message` for a damaged or non-JPEG file.
int fd_jpeg_read_header_descriptor(int descriptor, FDJPEGHeader *header, char *message,
    size_t message_size);

// Reads the header of the JPEG held in `bytes`. Returns 0, or -1 with a message in `message`.
int fd_jpeg_read_header_memory(const void *bytes, size_t count, FDJPEGHeader *header,
    char *message, size_t message_size);

#endif
