// Small non-variadic wrappers over libvips and GObject macros that Swift cannot call directly.
#ifndef FRAMEDIAL_CVIPS_SHIM_H
#define FRAMEDIAL_CVIPS_SHIM_H

#include <string.h>
#include <vips/vips.h>

// GType constants (macros in GLib and libvips).
static inline GType fd_type_int(void) { return G_TYPE_INT; }
static inline GType fd_type_uint64(void) { return G_TYPE_UINT64; }
static inline GType fd_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType fd_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType fd_type_string(void) { return G_TYPE_STRING; }
static inline GType fd_type_enum(void) { return G_TYPE_ENUM; }
static inline GType fd_type_flags(void) { return G_TYPE_FLAGS; }
static inline GType fd_type_image(void) { return VIPS_TYPE_IMAGE; }
static inline GType fd_type_source(void) { return VIPS_TYPE_SOURCE; }
static inline GType fd_type_array_double(void) { return VIPS_TYPE_ARRAY_DOUBLE; }
static inline GType fd_type_array_int(void) { return VIPS_TYPE_ARRAY_INT; }
static inline GType fd_type_array_image(void) { return VIPS_TYPE_ARRAY_IMAGE; }
static inline GType fd_type_blob(void) { return VIPS_TYPE_BLOB; }
static inline GType fd_type_ref_string(void) { return VIPS_TYPE_REF_STRING; }
static inline GType fd_type_interpolate(void) { return VIPS_TYPE_INTERPOLATE; }
static inline GType fd_type_fundamental(GType type) { return G_TYPE_FUNDAMENTAL(type); }

// Casts between libvips object types.
static inline VipsObject *_Nonnull fd_operation_object(VipsOperation *_Nonnull op) { return VIPS_OBJECT(op); }
static inline GObject *_Nonnull fd_gobject(void *_Nonnull object) { return G_OBJECT(object); }
static inline VipsImage *fd_image_from_gobject(GObject *object) { return VIPS_IMAGE(object); }

// The value type a parameter spec holds.
static inline GType fd_param_spec_value_type(GParamSpec *pspec) {
    return G_PARAM_SPEC_VALUE_TYPE(pspec);
}

// libvips's version numbers (macros).
static inline int fd_version_major(void) { return VIPS_MAJOR_VERSION; }
static inline int fd_version_minor(void) { return VIPS_MINOR_VERSION; }
static inline int fd_version_micro(void) { return VIPS_MICRO_VERSION; }

// Copies the rows of each computed strip into a caller's buffer with its own row stride.
typedef struct {
    unsigned char *destination;
    size_t row_stride;
} FDStridedTarget;

static inline int fd_strided_write(VipsRegion *region, VipsRect *area, void *a) {
    FDStridedTarget *target = (FDStridedTarget *)a;
    size_t row_bytes = VIPS_IMAGE_SIZEOF_PEL(region->im) * (size_t)area->width;
    for (int y = 0; y < area->height; y++) {
        const VipsPel *source = VIPS_REGION_ADDR(region, area->left, area->top + y);
        unsigned char *row = target->destination + (size_t)(area->top + y) * target->row_stride
            + VIPS_IMAGE_SIZEOF_PEL(region->im) * (size_t)area->left;
        memcpy(row, source, row_bytes);
    }
    return 0;
}

// Computes every pixel of `image` into `destination`, row `y` starting at `y * row_stride`.
static inline int fd_write_strided(VipsImage *image, void *destination, size_t row_stride) {
    FDStridedTarget target = { (unsigned char *)destination, row_stride };
    return vips_sink_disc(image, fd_strided_write, &target);
}

// A sink callback that keeps nothing.
static inline int fd_discard_pixels(VipsRegion *region, VipsRect *area, void *a) {
    (void)region;
    (void)area;
    (void)a;
    return 0;
}

// Computes every pixel of `image` and discards it (decodes the whole file behind a loaded image).
static inline int fd_decode_all(VipsImage *image) {
    return vips_sink_disc(image, fd_discard_pixels, NULL);
}

// Asked between strips whether to abandon a band: `rows_done` of the band's `rows_total` rows are written.
// A non-zero answer stops the band.
typedef int (*FDBandStop)(void *_Nullable context, int rows_done, int rows_total);

// Computes rows [top, top + height) of `image` on the calling thread, straight into `destination`, whose
// rows are `row_stride` bytes apart (a whole number of pixels) and whose first row is image row `top`.
// The band is computed in strips of at most `strip_rows` rows, so the intermediate buffers of a deep
// graph stay strip-sized (and in cache) rather than band-sized. Several threads may compute different
// bands of the same image at once. When `stop` is given it is asked before every strip after the first;
// returns 0 when the band is complete, 1 when `stop` abandoned it, -1 on error.
static inline int fd_compute_band(VipsImage *image, void *destination, size_t row_stride, int top,
    int height, int strip_rows, FDBandStop _Nullable stop, void *_Nullable context) {
    size_t pixel = VIPS_IMAGE_SIZEOF_PEL(image);
    if (pixel == 0 || row_stride % pixel != 0 || height <= 0 || strip_rows <= 0) {
        vips_error("framedial", "bad band layout");
        return -1;
    }
    VipsImage *target = vips_image_new_from_memory(destination, row_stride * (size_t)height,
        (int)(row_stride / pixel), height, image->Bands, image->BandFmt);
    if (!target) return -1;
    VipsRegion *source = vips_region_new(image);
    VipsRegion *sink = vips_region_new(target);
    VipsRect whole = { 0, 0, image->Xsize, height };
    int result = -1;
    if (source && sink && !vips_region_image(sink, &whole)) {
        result = 0;
        for (int y = 0; y < height && result == 0; y += strip_rows) {
            if (y > 0 && stop && stop(context, y, height)) {
                result = 1;
                break;
            }
            int rows = height - y < strip_rows ? height - y : strip_rows;
            VipsRect strip = { 0, top + y, image->Xsize, rows };
            result = vips_region_prepare_to(source, sink, &strip, 0, y);
        }
    }
    if (sink) g_object_unref(sink);
    if (source) g_object_unref(source);
    g_object_unref(target);
    return result;
}

#endif
