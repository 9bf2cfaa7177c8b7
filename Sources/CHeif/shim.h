// libheif's headers for the HEIF module (Debian's libheif-dev puts them under the multiarch include
// folder, which pkg-config's --cflags names): the library's API, and the decoder plugin interface
// through which FrameDial gives libheif another HEVC decoder.
#ifndef FRAMEDIAL_CHEIF_SHIM_H
#define FRAMEDIAL_CHEIF_SHIM_H

#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#endif
