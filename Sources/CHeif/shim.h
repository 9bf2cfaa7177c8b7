// libheif's header for the HEIF module (Debian's libheif-dev puts it under the multiarch include
// folder, which pkg-config's --cflags names).
#ifndef FRAMEDIAL_CHEIF_SHIM_H
#define FRAMEDIAL_CHEIF_SHIM_H

#include <libheif/heif.h>

#endif
