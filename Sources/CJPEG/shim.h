// libjpeg's header needs <stdio.h> (and <stddef.h>) first.
#ifndef FRAMEDIAL_CJPEG_SHIM_H
#define FRAMEDIAL_CJPEG_SHIM_H

#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

#endif
