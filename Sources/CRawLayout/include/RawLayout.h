// What LibRaw found in a raw file when it opened it and keeps to itself: where its decoder will read
// the raw data (LibRaw 0.20's protected members, read through a subclass), the raw directory's strip
// or tile tables and the tags FrameDial carries into its outputs (as LibRaw's EXIF parser callback
// hands each tag over, with its type, count and byte order). No TIFF is parsed here: LibRaw walks the
// file, these functions only keep what it shows.
#ifndef FRAMEDIAL_RAW_LAYOUT_H
#define FRAMEDIAL_RAW_LAYOUT_H

#ifdef __cplusplus
extern "C" {
#endif

// `raw` is LibRaw's `libraw_data_t *` (from libraw_init), given untyped so that this header does not
// bring LibRaw's headers into a second Swift module beside CLibRaw.

// The tags kept while LibRaw opens a file (see fd_raw_watch_tags).
typedef struct fd_raw_tags fd_raw_tags;

fd_raw_tags *fd_raw_tags_create(void);
void fd_raw_tags_free(fd_raw_tags *tags);

// Keeps, in `tags`, what LibRaw's parser shows of the next file `raw` opens: every TIFF directory's
// strip and tile tables, the main directory's Artist and Copyright, and whether the GPS directory
// gives an altitude. Call before libraw_open_file; `tags` must live as long as `raw` parses.
void fd_raw_watch_tags(void *raw, fd_raw_tags *tags);

// The main directory's Artist and Copyright as the file spells them, `*length` bytes (at most 255,
// trailing NULs and spaces left out, not NUL-terminated), or NULL when the file has none.
const char *fd_raw_artist(const fd_raw_tags *tags, int *length);
const char *fd_raw_copyright(const fd_raw_tags *tags, int *length);
// 1 when the file's GPS directory has an altitude (LibRaw reads 0 for none).
int fd_raw_has_altitude(const fd_raw_tags *tags);

// Where the decoder LibRaw chose reads the raw data, after libraw_open_file.
typedef struct {
    long long file_size;     // the bytes LibRaw's input holds
    long long data_offset;   // where the decoder starts reading (a tiled DNG's: its table of tiles)
    int raw_width, raw_height;  // the raw data's size as the decoder reads it
    unsigned bits;           // bits a sample as the decoder reads them
    unsigned samples;        // samples a pixel
    unsigned compression;    // the TIFF compression code
    int tiled;               // 1 when the decoder reads tiles from a table at data_offset
    // The TIFF directory whose data LibRaw reads from data_offset (LibRaw's own rule), or -1 when no
    // directory's does (the data was found by a maker's own rule); the rest is 0 then.
    int directory;
    int width, height;       // the directory's picture
    int tile_width, tile_length;  // its tiles, 0 for strips
    int pieces;              // its strips or tiles, as its tables list them; 0 for none
} fd_raw_layout;

// Fills `layout` for the file `raw` opened; 0 on success, -1 when nothing is open.
int fd_raw_read_layout(void *raw, const fd_raw_tags *tags, fd_raw_layout *layout);

// The offsets and byte counts of the raw directory's first `capacity` strips or tiles, in the order
// its tables list them (a byte count of -1 where the directory gives none), and the first two bytes at
// each offset (byte 0 in bits 8-15; -1 where the file has not two bytes there). Returns how many were
// written.
int fd_raw_read_pieces(
    void *raw, const fd_raw_tags *tags, long long *offsets, long long *counts, int *starts,
    int capacity);

#ifdef __cplusplus
}
#endif

#endif
