// libtiff's reading of a TIFF's directory chain from an open file or from memory, for Swift: the I/O
// procedures libtiff's client open takes (pread on a descriptor, so the descriptor's own offset never
// moves; or a copy out of memory), per-handle error and warning handlers that keep libtiff's messages
// off standard error (libvips keeps the process-wide handlers for its own TIFF loader; a directory
// libtiff cannot read ends the walk, and libvips's loader then says what is wrong), and the variadic
// TIFFGetField for the one tag read.
#ifndef FRAMEDIAL_CTIFF_SHIM_H
#define FRAMEDIAL_CTIFF_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <tiffio.h>

// Where libtiff reads from: an open descriptor (bytes NULL) or `size` bytes in memory.
typedef struct {
    int descriptor;
    const unsigned char *bytes;
    uint64_t size;
    uint64_t offset;
} fd_tiff_input;

static inline tmsize_t fd_tiff_read(thandle_t handle, void *buffer, tmsize_t count) {
    fd_tiff_input *input = (fd_tiff_input *)handle;
    if (count <= 0 || input->offset >= input->size) return 0;
    uint64_t left = input->size - input->offset;
    uint64_t wanted = (uint64_t)count < left ? (uint64_t)count : left;
    if (input->bytes) {
        memcpy(buffer, input->bytes + input->offset, (size_t)wanted);
        input->offset += wanted;
        return (tmsize_t)wanted;
    }
    uint64_t done = 0;
    while (done < wanted) {
        ssize_t got = pread(input->descriptor, (char *)buffer + done, (size_t)(wanted - done),
                            (off_t)(input->offset + done));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        done += (uint64_t)got;
    }
    input->offset += done;
    return (tmsize_t)done;
}

static inline tmsize_t fd_tiff_write(thandle_t handle, void *buffer, tmsize_t count) {
    (void)handle;
    (void)buffer;
    (void)count;
    return -1;
}

static inline toff_t fd_tiff_seek(thandle_t handle, toff_t offset, int whence) {
    fd_tiff_input *input = (fd_tiff_input *)handle;
    uint64_t base = whence == SEEK_CUR ? input->offset : whence == SEEK_END ? input->size : 0;
    input->offset = base + (uint64_t)offset;
    return (toff_t)input->offset;
}

static inline int fd_tiff_close(thandle_t handle) {
    (void)handle;
    return 0;
}

static inline toff_t fd_tiff_size(thandle_t handle) { return ((fd_tiff_input *)handle)->size; }

static inline int fd_tiff_map(thandle_t handle, void **base, toff_t *size) {
    (void)handle;
    (void)base;
    (void)size;
    return 0;
}

static inline void fd_tiff_unmap(thandle_t handle, void *base, toff_t size) {
    (void)handle;
    (void)base;
    (void)size;
}

static inline int fd_tiff_quiet(TIFF *tiff, void *user_data, const char *module,
                                const char *format, va_list arguments) {
    (void)tiff;
    (void)user_data;
    (void)module;
    (void)format;
    (void)arguments;
    return 1;  // handled: libtiff's process-wide handlers (libvips's) are not called
}

// Opens `input` for reading its directories (no memory mapping, at most `largest_allocation` bytes
// for any one allocation); NULL when libtiff cannot read its header or first directory.
static inline TIFF *fd_tiff_open(fd_tiff_input *input, tmsize_t largest_allocation) {
    TIFFOpenOptions *options = TIFFOpenOptionsAlloc();
    if (!options) return NULL;
    TIFFOpenOptionsSetMaxSingleMemAlloc(options, largest_allocation);
    TIFFOpenOptionsSetErrorHandlerExtR(options, fd_tiff_quiet, NULL);
    TIFFOpenOptionsSetWarningHandlerExtR(options, fd_tiff_quiet, NULL);
    TIFF *tiff = TIFFClientOpenExt("TIFF", "rmO", (thandle_t)input, fd_tiff_read, fd_tiff_write,
                                   fd_tiff_seek, fd_tiff_close, fd_tiff_size, fd_tiff_map,
                                   fd_tiff_unmap, options);
    TIFFOpenOptionsFree(options);
    return tiff;
}

// The current directory's NewSubfileType (TIFFTAG_SUBFILETYPE), 0 when it has none.
static inline uint32_t fd_tiff_subfile_type(TIFF *tiff) {
    uint32_t type = 0;
    if (!TIFFGetField(tiff, TIFFTAG_SUBFILETYPE, &type)) return 0;
    return type;
}

#endif
