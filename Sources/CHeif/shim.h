// libheif's headers for the HEIF module (Debian's libheif-dev puts them under the multiarch include
// folder, which pkg-config's --cflags names): the library's API, and the decoder plugin interface
// through which FrameDial gives libheif another HEVC decoder, and the item and property API (libheif
// 1.19) with which it writes an auxiliary image's reference and type.
#ifndef FRAMEDIAL_CHEIF_SHIM_H
#define FRAMEDIAL_CHEIF_SHIM_H

#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#include <libheif/heif_items.h>
#include <libheif/heif_properties.h>

#endif
