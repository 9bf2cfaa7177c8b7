// The error manager of CJPEGHeader's libjpeg calls (see jpeg_error_trap.h).
#include "jpeg_error_trap.h"

static void trap_error_exit(j_common_ptr cinfo) {
    JPEGErrorTrap *trap = (JPEGErrorTrap *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (trap->message && trap->message_size > 0) snprintf(trap->message, trap->message_size, "%s", text);
    longjmp(trap->resume, 1);
}

static void trap_output_message(j_common_ptr cinfo) { (void)cinfo; }

struct jpeg_error_mgr *fd_jpeg_error_trap(JPEGErrorTrap *trap, char *message, size_t message_size) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&trap->manager);
    manager->error_exit = trap_error_exit;
    manager->output_message = trap_output_message;
    trap->fail_on = 0;
    trap->message = message;
    trap->message_size = message_size;
    if (message && message_size > 0) message[0] = '\0';
    return manager;
}
