// FFmpeg's headers for the Video module, and small wrappers for the macros Swift cannot import.
#ifndef FRAMEDIAL_CFFMPEG_SHIM_H
#define FRAMEDIAL_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
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

#endif
