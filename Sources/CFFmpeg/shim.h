// FFmpeg's headers for the Video module, and small wrappers for the macros Swift cannot import.
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

// FFmpeg's log lines routed to standard error in FrameDial's own form: "PREFIX: FFmpeg (component):
// message" (the component as FFmpeg names it, without the object's address), at FFmpeg's log level or
// more severe. fd_log_route sets the prefix ("framedial video") and installs the callback. A taker
// (fd_log_take) may take a line of INFO or more severe before it is printed, returning non-zero: the
// video layer gathers what the decoder and demuxer of a file it decodes say, into its own message.
static char fd_log_prefix[96] = "framedial";
typedef int (*fd_log_taker)(void *context, int level, const char *component, const char *message);
static fd_log_taker fd_log_taken_by = NULL;

static inline void fd_log_line(void *context, int level, const char *format, va_list arguments) {
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
