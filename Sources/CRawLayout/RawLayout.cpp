// See RawLayout.h. LibRaw 0.20 only: the members read here are that series' (Debian 12 ships 0.20.2).
#include "RawLayout.h"

#include <libraw/libraw.h>

#include <climits>
#include <new>
#include <vector>

namespace {

// A value table of one tag, as LibRaw's parser showed it.
struct Table {
    bool seen = false;
    bool usable = false;  // its type is an integer type and every value was read
    std::vector<long long> values;
};

// The tables of one TIFF directory (LibRaw's tiff_ifd index).
struct Directory {
    Table strip_offsets, strip_counts, tile_offsets, tile_counts;
};

// Protected members of LibRaw, reached as members of a subclass (no object of it is ever made).
struct Inside : LibRaw {
    static tiff_ifd_t *directories(LibRaw *raw) { return raw->*(&Inside::tiff_ifd); }
};

LibRaw *libraw_of(void *raw) {
    return raw ? static_cast<LibRaw *>(static_cast<libraw_data_t *>(raw)->parent_class) : nullptr;
}

// The most values of one table kept: tables longer than this are left unchecked.
const unsigned maximum_values = 1u << 18;
// The most bytes of text kept.
const unsigned maximum_text = 255;

}  // namespace

struct fd_raw_tags {
    LibRaw *owner = nullptr;
    Directory directories[LIBRAW_IFD_MAXCOUNT];
    bool has_artist = false, has_copyright = false, has_altitude = false;
    std::vector<char> artist, copyright;
};

namespace {

// Reads `count` integers of TIFF `type` in byte order `order` from `stream`'s position, `base` added.
void read_table(Table &table, LibRaw_abstract_datastream *stream, int type, unsigned count,
                unsigned order, long long base) {
    table = Table();
    table.seen = true;
    int size = type == 3 ? 2 : (type == 4 || type == 13) ? 4 : 0;
    if (size == 0 || count == 0 || count > maximum_values) return;
    std::vector<unsigned char> bytes(size_t(count) * size);
    if (stream->read(bytes.data(), size, count) != int(count)) return;
    table.values.reserve(count);
    for (unsigned index = 0; index < count; index++) {
        const unsigned char *b = &bytes[size_t(index) * size];
        unsigned long long value = 0;
        for (int i = 0; i < size; i++) {
            int shift = order == 0x4949 ? 8 * i : 8 * (size - 1 - i);
            value |= (unsigned long long)b[i] << shift;
        }
        table.values.push_back((long long)value + base);
    }
    table.usable = true;
}

void read_text(std::vector<char> &text, LibRaw_abstract_datastream *stream, int type,
               unsigned count) {
    text.clear();
    if (type != 2 || count == 0) return;
    text.resize(count < maximum_text ? count : maximum_text);
    int got = stream->read(text.data(), 1, text.size());
    text.resize(got > 0 ? size_t(got) : 0);
    while (!text.empty() && (text.back() == 0 || text.back() == ' ')) text.pop_back();
}

void watch(void *context, int tag, int type, int count, unsigned order, void *input, INT64 base) {
    fd_raw_tags *tags = static_cast<fd_raw_tags *>(context);
    LibRaw_abstract_datastream *stream = static_cast<LibRaw_abstract_datastream *>(input);
    if (!tags || !stream || count < 0) return;
    int group = tag >> 16;
    int number = tag & 0xFFFF;
    if (group == 5) {  // the GPS directory
        if (number == 6) tags->has_altitude = true;
        return;
    }
    int directory;
    if (group == 3) {  // a Panasonic RW2 directory: the one being parsed, the last LibRaw counted
        directory = int(tags->owner->get_internal_data_pointer()->identify_data.tiff_nifds) - 1;
    } else if (tag >= 1 << 20) {
        directory = (tag >> 20) - 1;
        if (group & 0xF) return;
    } else {
        return;
    }
    if (directory < 0 || directory >= LIBRAW_IFD_MAXCOUNT) return;
    INT64 position = stream->tell();
    try {
        Directory &tables = tags->directories[directory];
        // A Panasonic directory's strip tables are not kept: its StripOffsets is 0xFFFFFFFF for
        // some models (LibRaw reads its RawDataOffset), and its StripByteCounts is zero or the
        // unpacked size for others (as ExifTool's notes say); LibRaw's own start is checked instead.
        bool panasonic = group == 3;
        switch (number) {
        case 273:  // StripOffsets
            if (!panasonic)
                read_table(tables.strip_offsets, stream, type, unsigned(count), order, base);
            break;
        case 279:  // StripByteCounts
            if (!panasonic) read_table(tables.strip_counts, stream, type, unsigned(count), order, 0);
            break;
        case 324:  // TileOffsets
            read_table(tables.tile_offsets, stream, type, unsigned(count), order, base);
            break;
        case 325:  // TileByteCounts
            read_table(tables.tile_counts, stream, type, unsigned(count), order, 0);
            break;
        case 315:  // Artist
            if (directory == 0 && !tags->has_artist) {
                read_text(tags->artist, stream, type, unsigned(count));
                tags->has_artist = !tags->artist.empty();
            }
            break;
        case 33432:  // Copyright
            if (directory == 0 && !tags->has_copyright) {
                read_text(tags->copyright, stream, type, unsigned(count));
                tags->has_copyright = !tags->copyright.empty();
            }
            break;
        }
    } catch (...) {
        // Out of memory for a table: it stays unusable, and nothing is checked against it.
    }
    stream->seek(position, SEEK_SET);
}

// The directory LibRaw decodes: a DNG's chosen frame, else the first whose data starts where the
// decoder reads (LibRaw's own find_ifd_by_offset).
int raw_directory(LibRaw *owner) {
    const libraw_data_t &data = owner->imgdata;
    libraw_internal_data_t *internal = owner->get_internal_data_pointer();
    tiff_ifd_t *directories = Inside::directories(owner);
    unsigned count = internal->identify_data.tiff_nifds;
    if (count > LIBRAW_IFD_MAXCOUNT) count = LIBRAW_IFD_MAXCOUNT;
    if (data.idata.dng_version) {
        unsigned select = data.params.shot_select;
        if (select >= LIBRAW_IFD_MAXCOUNT * 2) select = LIBRAW_IFD_MAXCOUNT * 2 - 1;
        unsigned index = (internal->unpacker_data.dng_frames[select] >> 8) & 0xFF;
        if (index < count && directories[index].offset == internal->unpacker_data.data_offset)
            return int(index);
    }
    for (unsigned index = 0; index < count; index++)
        if (directories[index].offset == internal->unpacker_data.data_offset) return int(index);
    return -1;
}

// The table pair of the directory's pieces: its tiles when it lists tile offsets, else its strips.
void piece_tables(const Directory &tables, const Table **offsets, const Table **counts,
                  bool *tiled) {
    *tiled = tables.tile_offsets.seen;
    *offsets = *tiled ? &tables.tile_offsets : &tables.strip_offsets;
    *counts = *tiled ? &tables.tile_counts : &tables.strip_counts;
}

}  // namespace

extern "C" {

fd_raw_tags *fd_raw_tags_create(void) { return new (std::nothrow) fd_raw_tags(); }

void fd_raw_tags_free(fd_raw_tags *tags) { delete tags; }

void fd_raw_watch_tags(void *raw, fd_raw_tags *tags) {
    LibRaw *owner = libraw_of(raw);
    if (!owner || !tags) return;
    tags->owner = owner;
    owner->set_exifparser_handler(watch, tags);
}

const char *fd_raw_artist(const fd_raw_tags *tags, int *length) {
    *length = tags && tags->has_artist ? int(tags->artist.size()) : 0;
    return *length ? tags->artist.data() : nullptr;
}

const char *fd_raw_copyright(const fd_raw_tags *tags, int *length) {
    *length = tags && tags->has_copyright ? int(tags->copyright.size()) : 0;
    return *length ? tags->copyright.data() : nullptr;
}

int fd_raw_has_altitude(const fd_raw_tags *tags) { return tags && tags->has_altitude ? 1 : 0; }

int fd_raw_read_layout(void *raw, const fd_raw_tags *tags, fd_raw_layout *layout) {
    *layout = fd_raw_layout();
    layout->directory = -1;
    LibRaw *owner = libraw_of(raw);
    if (!owner) return -1;
    libraw_internal_data_t *internal = owner->get_internal_data_pointer();
    LibRaw_abstract_datastream *input = internal->internal_data.input;
    if (!input) return -1;
    const unpacker_data_t &unpacker = internal->unpacker_data;
    layout->file_size = input->size();
    layout->data_offset = unpacker.data_offset;
    layout->raw_width = owner->imgdata.sizes.raw_width;
    layout->raw_height = owner->imgdata.sizes.raw_height;
    layout->bits = unpacker.tiff_bps;
    layout->samples = unpacker.tiff_samples;
    layout->compression = unpacker.tiff_compress;
    layout->tiled = unpacker.tile_length < INT_MAX && unpacker.tile_width < INT_MAX;
    int index = raw_directory(owner);
    if (index < 0) return 0;
    const tiff_ifd_t &directory = Inside::directories(owner)[index];
    layout->directory = index;
    layout->width = directory.t_width;
    layout->height = directory.t_height;
    layout->tile_width = directory.t_tile_width;
    layout->tile_length = directory.t_tile_length;
    if (tags) {
        const Table *offsets, *counts;
        bool tiled;
        piece_tables(tags->directories[index], &offsets, &counts, &tiled);
        if (offsets->usable) layout->pieces = int(offsets->values.size());
        if (tiled && layout->tile_width == 0) {
            // One tile: LibRaw reads it as a strip, and its size is the picture's.
            layout->tile_width = directory.t_width;
            layout->tile_length = directory.t_height;
        }
    }
    return 0;
}

int fd_raw_read_pieces(void *raw, const fd_raw_tags *tags, long long *offsets, long long *counts,
                       int *starts, int capacity) {
    fd_raw_layout layout;
    if (!tags || fd_raw_read_layout(raw, tags, &layout) != 0 || layout.directory < 0) return 0;
    const Table *offset_table, *count_table;
    bool tiled;
    piece_tables(tags->directories[layout.directory], &offset_table, &count_table, &tiled);
    if (!offset_table->usable) return 0;
    LibRaw_abstract_datastream *input = libraw_of(raw)->get_internal_data_pointer()->internal_data.input;
    INT64 position = input->tell();
    int written = 0;
    for (size_t index = 0; index < offset_table->values.size() && written < capacity; index++) {
        long long offset = offset_table->values[index];
        offsets[written] = offset;
        counts[written] = count_table->usable && index < count_table->values.size()
                              ? count_table->values[index]
                              : -1;
        unsigned char start[2];
        starts[written] = offset >= 0 && offset + 2 <= layout.file_size &&
                                  input->seek(offset, SEEK_SET) == 0 && input->read(start, 1, 2) == 2
                              ? start[0] << 8 | start[1]
                              : -1;
        written++;
    }
    input->seek(position, SEEK_SET);
    return written;
}

}  // extern "C"
