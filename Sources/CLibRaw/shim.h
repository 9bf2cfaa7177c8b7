// Small accessors over LibRaw's C API (the thread-safe libraw_r), so that Swift reads the few fields of
// libraw_data_t it needs by name rather than through its deep nested structs.
#ifndef FRAMEDIAL_CLIBRAW_SHIM_H
#define FRAMEDIAL_CLIBRAW_SHIM_H

#include <libraw/libraw.h>

// The camera as the file names it.
static inline const char *fd_raw_make(libraw_data_t *raw) { return raw->idata.make; }
static inline const char *fd_raw_model(libraw_data_t *raw) { return raw->idata.model; }

// 0 for a file that is not a DNG, else its DNGVersion (1.4.0.0 is 0x01040000).
static inline unsigned fd_raw_dng_version(libraw_data_t *raw) { return raw->idata.dng_version; }

// The colour filter array: 0 for none (a linear, demosaiced picture), else LibRaw's packed pattern.
static inline unsigned fd_raw_filters(libraw_data_t *raw) { return raw->idata.filters; }
static inline int fd_raw_colors(libraw_data_t *raw) { return raw->idata.colors; }
// The letters of the colours ("RGBG"), indexed by libraw_COLOR.
static inline const char *fd_raw_colour_letters(libraw_data_t *raw) { return raw->idata.cdesc; }

// The picture's visible size (before the orientation is applied) and the raw data's full size.
static inline int fd_raw_width(libraw_data_t *raw) { return raw->sizes.width; }
static inline int fd_raw_height(libraw_data_t *raw) { return raw->sizes.height; }
static inline int fd_raw_raw_width(libraw_data_t *raw) { return raw->sizes.raw_width; }
static inline int fd_raw_raw_height(libraw_data_t *raw) { return raw->sizes.raw_height; }
// dcraw's flip: 0 upright, 3 turned 180°, 5 turned 90° counter-clockwise, 6 turned 90° clockwise.
static inline int fd_raw_flip(libraw_data_t *raw) { return raw->sizes.flip; }

// Levels and the as-shot white balance multipliers (R, G, B, G2).
static inline unsigned fd_raw_black(libraw_data_t *raw) { return raw->color.black; }
static inline unsigned fd_raw_maximum(libraw_data_t *raw) { return raw->color.maximum; }
static inline float fd_raw_camera_multiplier(libraw_data_t *raw, int index) {
    return raw->color.cam_mul[index & 3];
}

// Shooting facts (0 when unknown).
static inline float fd_raw_iso(libraw_data_t *raw) { return raw->other.iso_speed; }
static inline float fd_raw_shutter(libraw_data_t *raw) { return raw->other.shutter; }
static inline float fd_raw_aperture(libraw_data_t *raw) { return raw->other.aperture; }
static inline float fd_raw_focal_length(libraw_data_t *raw) { return raw->other.focal_len; }
static inline long long fd_raw_timestamp(libraw_data_t *raw) { return (long long)raw->other.timestamp; }
static inline const char *fd_raw_lens(libraw_data_t *raw) { return raw->lens.Lens; }

// Where the picture was taken, when the file says (gpsparsed non-zero); degrees, minutes, seconds.
static inline int fd_raw_has_gps(libraw_data_t *raw) { return raw->other.parsed_gps.gpsparsed; }
static inline float fd_raw_latitude(libraw_data_t *raw, int index) {
    return raw->other.parsed_gps.latitude[index % 3];
}
static inline float fd_raw_longitude(libraw_data_t *raw, int index) {
    return raw->other.parsed_gps.longitude[index % 3];
}
static inline char fd_raw_latitude_ref(libraw_data_t *raw) { return raw->other.parsed_gps.latref; }
static inline char fd_raw_longitude_ref(libraw_data_t *raw) { return raw->other.parsed_gps.longref; }
static inline float fd_raw_altitude(libraw_data_t *raw) { return raw->other.parsed_gps.altitude; }
static inline char fd_raw_altitude_ref(libraw_data_t *raw) { return raw->other.parsed_gps.altref; }

// The XMP packet the file carries, or NULL.
static inline const char *fd_raw_xmp(libraw_data_t *raw, unsigned *length) {
    *length = raw->idata.xmpdata ? raw->idata.xmplen : 0;
    return raw->idata.xmpdata;
}

// LibRaw prints damaged data and failed allocations to standard error by default; these count them in
// `*count` instead, for the caller to report.
static inline void fd_raw_count_data_error(void *count, const char *file, const int offset) {
    (void)file;
    (void)offset;
    (*(int *)count)++;
}
static inline void fd_raw_count_memory_error(void *count, const char *file, const char *where) {
    (void)file;
    (void)where;
    (*(int *)count)++;
}
static inline void fd_raw_count_errors(libraw_data_t *raw, int *count) {
    libraw_set_dataerror_handler(raw, fd_raw_count_data_error, count);
    libraw_set_memerror_handler(raw, fd_raw_count_memory_error, count);
}

// Development settings (dcraw_emu's options in brackets).
// Linear 16-bit output in the sRGB primaries, never brightened.
static inline void fd_raw_set_linear_output(libraw_data_t *raw) {
    raw->params.output_bps = 16;  // [-4]
    raw->params.gamm[0] = 1.0;       // [-g 1 1]
    raw->params.gamm[1] = 1.0;
    raw->params.no_auto_bright = 1;  // [-W]
    raw->params.output_color = 1;    // sRGB primaries [-o 1]
}
// The camera's colours kept (no [-o]: output_color 0): convert_to_rgb then only counts its histogram,
// and the caller converts with fd_raw_camera_matrix. (LibRaw 0.20.2 formats an unused profile name from
// a null pointer in that case, which glibc prints as "(null)".)
static inline void fd_raw_set_camera_colour_output(libraw_data_t *raw) {
    raw->params.output_color = 0;
}
// What FrameDial does at two steps of libraw_dcraw_process, from LibRaw's progress calls:
// - after pre_interpolate (its last progress call), with no_interpolation set: `demosaic` demosaics the
//   working picture (LibRaw's pattern is final there) and returns non-zero, or returns 0 and
//   no_interpolation is cleared for LibRaw's own demosaicing to run, as it would have;
// - with `skip_histogram`, when the camera's colours are kept: convert_to_rgb's histogram is left out.
//   LibRaw 0.20 counts it over every pixel's first `colors` samples for dcraw's automatic brightening,
//   which FrameDial never asks for. The colour count reads 0 from that step's first progress call to
//   its last, and is given back there; `colours` holds it meanwhile. Nothing else runs in between.
typedef struct {
    libraw_data_t *raw;
    int (*demosaic)(libraw_data_t *raw, int bands);
    int bands;
    int demosaiced;  // set when `demosaic` did
    int skip_histogram;
    int colours;
} fd_raw_development;
static inline int fd_raw_development_progress(
    void *data, enum LibRaw_progress stage, int iteration, int expected) {
    (void)expected;
    fd_raw_development *development = (fd_raw_development *)data;
    libraw_data_t *raw = development->raw;
    if (stage == LIBRAW_PROGRESS_PRE_INTERPOLATE && iteration == 1 && raw->params.no_interpolation &&
        development->demosaic) {
        if (development->demosaic(raw, development->bands))
            development->demosaiced = 1;
        else
            raw->params.no_interpolation = 0;
    }
    if (stage == LIBRAW_PROGRESS_CONVERT_RGB && development->skip_histogram && raw->params.output_color == 0) {
        if (iteration == 0) {
            development->colours = raw->idata.colors;
            raw->idata.colors = 0;
        } else {
            raw->idata.colors = development->colours;
        }
    }
    return 0;
}
// Only on the LibRaw series whose progress calls this relies on (0.20, as Debian 12 ships): any other
// LibRaw (the library loaded, not the headers built against) develops as usual, on its own.
static inline int fd_raw_progress_steps_known(void) {
    return libraw_versionNumber() / 256 == LIBRAW_MAKE_VERSION(0, 20, 0) / 256;
}
// Follows `development` through the next libraw_dcraw_process; returns 0 (and follows nothing) on a
// LibRaw whose progress calls are not known.
static inline int fd_raw_follow_development(libraw_data_t *raw, fd_raw_development *development) {
    if (!fd_raw_progress_steps_known()) return 0;
    development->raw = raw;
    development->colours = raw->idata.colors;
    libraw_set_progress_handler(raw, fd_raw_development_progress, development);
    return 1;
}

// The camera → sRGB matrix that convert_to_rgb applies for sRGB output (rgb_cam; row and column 0 … 2).
static inline float fd_raw_camera_matrix(libraw_data_t *raw, int row, int column) {
    return raw->color.rgb_cam[row % 3][column % 3];
}
static inline void fd_raw_set_camera_white_balance(libraw_data_t *raw, int on) {
    raw->params.use_camera_wb = on;  // [-w]
}
static inline void fd_raw_set_demosaic(libraw_data_t *raw, int quality) {
    raw->params.user_qual = quality;  // [-q]
}
// LibRaw's demosaicing left out [no_interpolation], for fd_raw_development's `demosaic` to do (or,
// without one, for a picture that keeps each pixel's own colour only).
static inline void fd_raw_set_no_interpolation(libraw_data_t *raw, int on) {
    raw->params.no_interpolation = on;
}
static inline void fd_raw_set_half_size(libraw_data_t *raw, int on) {
    raw->params.half_size = on;  // [-h]
}
static inline void fd_raw_set_highlight(libraw_data_t *raw, int mode) {
    raw->params.highlight = mode;  // [-H]
}

// LibRaw's working picture after libraw_dcraw_process: four samples a pixel (the first `colors` of
// them the developed colours), width × height pixels, the raw's flip not yet applied; NULL if none.
static inline unsigned short *fd_raw_working_picture(libraw_data_t *raw) {
    return raw->image ? raw->image[0] : NULL;
}

// The pixels of a developed image (libraw_processed_image_t ends in a flexible array).
static inline void *fd_raw_image_pixels(libraw_processed_image_t *image) {
    return image->data;
}

#endif
