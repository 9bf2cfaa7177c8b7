// FFmpeg's headers for the Video module, and small wrappers for the macros Swift cannot import. The
// module links no libavfilter: its headers are here for the tests' reference tone mapper, which links
// it itself (CToneMapTests).
#ifndef FRAMEDIAL_CFFMPEG_SHIM_H
#define FRAMEDIAL_CFFMPEG_SHIM_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <libavcodec/avcodec.h>
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/dovi_meta.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mastering_display_metadata.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

// Error codes that are function-like macros in libavutil/error.h.
static inline int fd_averror_again(void) { return AVERROR(EAGAIN); }
static inline int fd_averror_eof(void) { return AVERROR_EOF; }
static inline int fd_averror_invalid(void) { return AVERROR_INVALIDDATA; }

// The "no timestamp" value (a cast expression in libavutil/avutil.h).
static inline int64_t fd_no_pts(void) { return AV_NOPTS_VALUE; }

// libswscale between an AVFrame's planes and one packed buffer (AVFrame's plane arrays are fixed-size C
// arrays, which Swift sees as tuples).
static inline int fd_scale_frame_to_packed(struct SwsContext *c, const AVFrame *src, uint8_t *dst,
                                           int dst_stride) {
    uint8_t *planes[4] = {dst, NULL, NULL, NULL};
    int strides[4] = {dst_stride, 0, 0, 0};
    return sws_scale(c, (const uint8_t *const *)src->data, src->linesize, 0, src->height, planes,
                     strides);
}
static inline int fd_scale_packed_to_frame(struct SwsContext *c, const uint8_t *src, int src_stride,
                                           int height, AVFrame *dst) {
    const uint8_t *planes[4] = {src, NULL, NULL, NULL};
    int strides[4] = {src_stride, 0, 0, 0};
    return sws_scale(c, planes, strides, 0, height, dst->data, dst->linesize);
}

// The lines FFmpeg's decoder logs while it decodes one HEIC picture, kept for that decode rather than
// printed (the Video module's HEVCStillDecoder). fd_decode_log_attach points a codec context's opaque
// at an fd_decode_log and raises the level of every line it logs by FD_LOG_CAPTURED (through
// AVCodecContext.log_level_offset): a level no other line has, and one no log level prints. FrameDial's
// log callbacks (fd_log_line, fd_log_default_line) hand such lines to fd_log_capture first, which counts
// them in the context's fd_decode_log and keeps the first error's text. The decoder's slice threads may
// log at once: the counts are atomic and read atomically (fd_decode_log_errors), the text is written by
// the thread that counted the first error, and it is read (fd_decode_log_first_error) only after the
// decode has returned. (FFmpeg's slice threads hand their finished jobs back through atomics in
// libavutil, which a thread sanitizer cannot see: an atomic read keeps the count's read visibly ordered.)
enum { FD_LOG_CAPTURED = 1 << 20 };

typedef struct fd_decode_log {
    int errors;        // lines at FFmpeg's error level or worse
    int warnings;      // lines at its warning level
    int first_ready;   // 1 once first_error holds the first error's text
    char first_error[256];
} fd_decode_log;

static inline void fd_decode_log_attach(AVCodecContext *context, fd_decode_log *log) {
    memset(log, 0, sizeof *log);
    context->opaque = log;
    context->log_level_offset = FD_LOG_CAPTURED;
}

// How many lines at FFmpeg's error level or worse the decode logged.
static inline int fd_decode_log_errors(const fd_decode_log *log) {
    return __atomic_load_n(&log->errors, __ATOMIC_ACQUIRE);
}

// The first error's text, or NULL when no error was logged.
static inline const char *fd_decode_log_first_error(const fd_decode_log *log) {
    return __atomic_load_n(&log->first_ready, __ATOMIC_ACQUIRE) ? log->first_error : NULL;
}

// Keeps the line when it comes from a codec context attached to an fd_decode_log, and returns 1; returns
// 0, leaving `arguments` unread, for every other line.
static inline int fd_log_capture(void *context, int level, const char *format, va_list arguments) {
    if (level < FD_LOG_CAPTURED || !context || *(const AVClass *const *)context != avcodec_get_class())
        return 0;
    fd_decode_log *log = ((AVCodecContext *)context)->opaque;
    if (!log) return 1;
    int original = level - FD_LOG_CAPTURED;
    if (original <= AV_LOG_ERROR) {
        if (__atomic_fetch_add(&log->errors, 1, __ATOMIC_RELAXED) == 0) {
            vsnprintf(log->first_error, sizeof log->first_error, format, arguments);
            size_t length = strlen(log->first_error);
            while (length > 0 && (log->first_error[length - 1] == '\n' || log->first_error[length - 1] == '\r'))
                log->first_error[--length] = 0;
            __atomic_store_n(&log->first_ready, 1, __ATOMIC_RELEASE);
        }
    } else if (original <= AV_LOG_WARNING) {
        __atomic_fetch_add(&log->warnings, 1, __ATOMIC_RELAXED);
    }
    return 1;
}

// FFmpeg's own log callback, but with the lines of a HEIC picture's decode kept by fd_log_capture: the
// callback for a process whose FFmpeg lines are not routed (fd_log_route installs fd_log_line, which
// keeps them too).
static inline void fd_log_default_line(void *context, int level, const char *format, va_list arguments) {
    if (fd_log_capture(context, level, format, arguments)) return;
    av_log_default_callback(context, level, format, arguments);
}

static inline void fd_log_capture_unrouted(void) { av_log_set_callback(fd_log_default_line); }

// FFmpeg's log lines routed to standard error in FrameDial's own form: "PREFIX: FFmpeg (component):
// message" (the component as FFmpeg names it, without the object's address), at FFmpeg's log level or
// more severe. fd_log_route sets the prefix ("framedial video") and installs the callback. A HEIC picture's
// decoder lines are kept by fd_log_capture, not printed. A taker (fd_log_take) may take a line of INFO or
// more severe before it is printed, returning non-zero: the video layer gathers what the decoder and
// demuxer of a file it decodes say, into its own message.
static char fd_log_prefix[96] = "framedial";
typedef int (*fd_log_taker)(void *context, int level, const char *component, const char *message);
static fd_log_taker fd_log_taken_by = NULL;

static inline void fd_log_line(void *context, int level, const char *format, va_list arguments) {
    if (fd_log_capture(context, level, format, arguments)) return;
    fd_log_taker taker = fd_log_taken_by;
    if (level > av_log_get_level() && (taker == NULL || level > AV_LOG_INFO)) return;
    char message[1024];
    vsnprintf(message, sizeof message, format, arguments);
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) message[--length] = 0;
    if (length == 0) return;
    const AVClass *kind = context ? *(const AVClass *const *)context : NULL;
    const char *component = kind && kind->item_name ? kind->item_name(context) : NULL;
    if (taker != NULL && taker(context, level, component, message)) return;
    if (level > av_log_get_level()) return;
    if (component && *component && strcmp(component, "NULL") != 0)  // a parser without a codec says NULL
        fprintf(stderr, "%s: FFmpeg (%s): %s\n", fd_log_prefix, component, message);
    else
        fprintf(stderr, "%s: FFmpeg: %s\n", fd_log_prefix, message);
}

static inline void fd_log_route(const char *prefix) {
    // Written only when it changes, so routing again while FFmpeg's threads log is not a data race.
    if (strncmp(fd_log_prefix, prefix, sizeof fd_log_prefix - 1) != 0)
        snprintf(fd_log_prefix, sizeof fd_log_prefix, "%s", prefix);
    av_log_set_callback(fd_log_line);
}

// Installs the callback with `taker` (set once, before any file is opened).
static inline void fd_log_take(fd_log_taker taker) {
    if (fd_log_taken_by != taker) fd_log_taken_by = taker;
    av_log_set_callback(fd_log_line);
}

#endif
