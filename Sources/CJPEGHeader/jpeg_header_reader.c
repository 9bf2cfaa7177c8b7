// Reads a JPEG header with libjpeg; a damaged file is an error return (see jpeg_error_trap.h), never an
// exit or a crash. Warnings are not printed.
#include "JPEGHeaderReader.h"
#include "jpeg_error_trap.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>

// A source that reads the file through pread from offset 0 on, in chunks.
typedef struct {
    struct jpeg_source_mgr manager;
    int descriptor;
    off_t offset;
    JOCTET buffer[16384];
} DescriptorSource;

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean source_fill(j_decompress_ptr cinfo) {
    DescriptorSource *source = (DescriptorSource *)cinfo->src;
    ssize_t got;
    do {
        got = pread(source->descriptor, source->buffer, sizeof source->buffer, source->offset);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) ERREXIT(cinfo, JERR_INPUT_EOF);
    source->offset += got;
    source->manager.next_input_byte = source->buffer;
    source->manager.bytes_in_buffer = (size_t)got;
    return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
    DescriptorSource *source = (DescriptorSource *)cinfo->src;
    if (count <= 0) return;
    if ((size_t)count <= source->manager.bytes_in_buffer) {
        source->manager.next_input_byte += count;
        source->manager.bytes_in_buffer -= (size_t)count;
        return;
    }
    // Skip past the buffer without reading what lies between.
    source->offset += count - (long)source->manager.bytes_in_buffer;
    source->manager.bytes_in_buffer = 0;
    source->manager.next_input_byte = source->buffer;
}

static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

static void copy_header(j_decompress_ptr cinfo, FDJPEGHeader *header) {
    memset(header, 0, sizeof *header);
    header->width = (int)cinfo->image_width;
    header->height = (int)cinfo->image_height;
    header->component_count = cinfo->num_components;
    for (int c = 0; c < cinfo->num_components && c < FD_JPEG_MAX_COMPONENTS; c++) {
        jpeg_component_info *component = &cinfo->comp_info[c];
        header->horizontal_sampling[c] = component->h_samp_factor;
        header->vertical_sampling[c] = component->v_samp_factor;
        header->table_slot[c] = component->quant_tbl_no;
    }
    for (int t = 0; t < FD_JPEG_MAX_TABLES && t < NUM_QUANT_TBLS; t++) {
        JQUANT_TBL *table = cinfo->quant_tbl_ptrs[t];
        if (!table) continue;
        header->table_present[t] = 1;
        // libjpeg keeps quantval in natural order.
        for (int i = 0; i < DCTSIZE2; i++) header->tables[t][i] = table->quantval[i];
    }
}

typedef void (*SourceSetup)(j_decompress_ptr cinfo, void *context);

static int read_header(SourceSetup setup, void *context, FDJPEGHeader *header, char *message,
    size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    JPEGErrorTrap trap;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = fd_jpeg_error_trap(&trap, message, message_size);
    if (setjmp(trap.resume)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    setup(&cinfo, context);
    jpeg_read_header(&cinfo, TRUE);
    copy_header(&cinfo, header);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

static void setup_descriptor(j_decompress_ptr cinfo, void *context) {
    DescriptorSource *source = (DescriptorSource *)(*cinfo->mem->alloc_small)(
        (j_common_ptr)cinfo, JPOOL_PERMANENT, sizeof(DescriptorSource));
    source->descriptor = *(int *)context;
    source->offset = 0;
    source->manager.init_source = source_init;
    source->manager.fill_input_buffer = source_fill;
    source->manager.skip_input_data = source_skip;
    source->manager.resync_to_restart = jpeg_resync_to_restart;
    source->manager.term_source = source_term;
    source->manager.bytes_in_buffer = 0;
    source->manager.next_input_byte = NULL;
    cinfo->src = &source->manager;
}

int fd_jpeg_read_header_descriptor(int descriptor, FDJPEGHeader *header, char *message,
    size_t message_size) {
    return read_header(setup_descriptor, &descriptor, header, message, message_size);
}

typedef struct {
    const void *bytes;
    size_t count;
} MemoryContext;

static void setup_memory(j_decompress_ptr cinfo, void *context) {
    MemoryContext *memory = (MemoryContext *)context;
    jpeg_mem_src(cinfo, (const unsigned char *)memory->bytes, (unsigned long)memory->count);
}

int fd_jpeg_read_header_memory(const void *bytes, size_t count, FDJPEGHeader *header,
    char *message, size_t message_size) {
    if (!bytes || count == 0) {
        if (message && message_size > 0) snprintf(message, message_size, "empty data");
        return -1;
    }
    MemoryContext memory = { bytes, count };
    return read_header(setup_memory, &memory, header, message, message_size);
}
