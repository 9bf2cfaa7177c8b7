#!/usr/bin/env bash
# Builds FrameDial's C library in release and installs it under PREFIX (default /usr/local):
#   PREFIX/lib/libFrameDialC.so         the C API
#   PREFIX/lib/libswift*.so, libFoundation*.so, …   the Swift runtime libraries it needs, copied from the
#                                        toolchain (libFrameDialC.so looks for them beside itself: its
#                                        run path is $ORIGIN), so the toolchain need not be installed
#   PREFIX/include/framedial.h          the header
#   PREFIX/lib/pkgconfig/framedial.pc   for: cc app.c $(pkg-config --cflags --libs framedial)
# With a PREFIX outside the linker's paths, set PKG_CONFIG_PATH=PREFIX/lib/pkgconfig; the .pc file puts
# PREFIX/lib in the program's run path, so it runs with no LD_LIBRARY_PATH.
set -euo pipefail
prefix="${1:-/usr/local}"
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
scripts/ensure-libvips.sh
swift build -c release --product FrameDialC >&2
built="$(swift build -c release --show-bin-path)/libFrameDialC.so"
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
prefix="$(cd "$prefix" && pwd)"
install -m 0755 "$built" "$prefix/lib/libFrameDialC.so"
# The Swift runtime: every library ldd resolves inside the toolchain's usr/lib/swift/linux.
runtime="$(dirname "$(readlink -f "$(command -v swift)")")/../lib/swift/linux"
runtime="$(cd "$runtime" && pwd)"
ldd "$built" | awk -v dir="$runtime/" 'index($3, dir) == 1 { print $3 }' | while read -r library; do
  install -m 0644 "$library" "$prefix/lib/"
done
install -m 0644 include/framedial.h "$prefix/include/framedial.h"
version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/FrameDial/FrameDial.swift)"
cat > "$prefix/lib/pkgconfig/framedial.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: framedial
Description: FrameDial's C API: Camera Control values applied to stills and video frames with libvips
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lFrameDialC
PC
echo "installed libFrameDialC.so, framedial.h and framedial.pc under $prefix" >&2
