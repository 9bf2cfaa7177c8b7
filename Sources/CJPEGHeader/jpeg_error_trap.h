// How CJPEGHeader's libjpeg calls (jpeg_header_reader.c, jpeg_scaled_decoder.c) meet libjpeg's errors.
// libjpeg reports a fatal error by calling error_exit, which by default prints and exits the process;
// through a JPEGErrorTrap it formats the message and jumps back to the caller's setjmp, so a damaged
// file is an error return, never an exit or a crash. Nothing is printed. Internal to the target.
#ifndef FRAMEDIAL_JPEG_ERROR_TRAP_H
#define FRAMEDIAL_JPEG_ERROR_TRAP_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>

#include <jpeglib.h>

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf resume;       // set by the caller with setjmp before any libjpeg call that may fail
    int fail_on;          // jpeg_scaled_decoder.c: which warnings stop the decode (FD_JPEG_FAIL_ON_…)
    char *message;        // receives a fatal error's message (may be NULL)
    size_t message_size;
} JPEGErrorTrap;

// Sets `trap` up as an error manager whose fatal errors write their message into `message` (of
// `message_size` bytes; emptied now) and jump to `trap->resume`, and which prints nothing; returns it
// for the decompressor's `err`.
struct jpeg_error_mgr *fd_jpeg_error_trap(JPEGErrorTrap *trap, char *message, size_t message_size);

#endif
