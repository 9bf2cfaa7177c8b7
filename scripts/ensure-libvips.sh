#!/usr/bin/env bash
# Installs what FrameDial builds and tests against from Debian's packages, with one apt-get call, when any
# of it is missing (sudo when not root): libvips-dev for stills and frames, libjpeg-dev (read directly for
# JPEG headers), FFmpeg's libavformat, libavcodec, libswscale, libavfilter (HDR tone mapping) and
# libavutil (-dev) for `framedial video`, libsoup 3 (-dev) for `framedial studio`'s web server,
# libheif-dev (HEIC written and read directly), LibRaw (libraw-dev) for camera raws and DNGs, the ffmpeg
# command the video tests make clips with, exiftool (libimage-exiftool-perl), with which the metadata and
# HEIC tests write and read EXIF, XMP and IPTC, dcraw_emu (libraw-bin), LibRaw's own developer that
# the raw tests compare with, heif-enc (libheif-examples), which writes the HEIC photos the HEVC
# decoder tests read, djpeg (libjpeg-turbo-progs), libjpeg-turbo's own decoder, the strict reference
# the JPEG damage tests judge FrameDial's verdicts by, libtiff-dev (libtiff, read directly for which TIFF
# page is a reduced-resolution preview), tiffcp and tiffset (libtiff-tools), with which the TIFF tests put
# a preview before the picture, and ghostscript's ICC profiles (libgs-common), whose CMYK profile the
# colour tests embed. On Debian 12 (bookworm), whose libheif is 1.15, libheif 1.19 and its HEVC, AV1 and
# x265 plugins then come from bookworm-backports (enabled by scripts/ensure-backports.sh from the
# system's own Debian entry): FrameDial writes an HDR photo's gain map with its item API.
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 \
  && pkg-config --exists vips libjpeg libavformat libavcodec libswscale libavfilter libavutil \
    libsoup-3.0 libheif libraw_r libtiff-4 \
  && pkg-config --atleast-version=1.19 libheif \
  && command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 \
  && command -v exiftool >/dev/null 2>&1 && command -v dcraw_emu >/dev/null 2>&1 \
  && command -v heif-enc >/dev/null 2>&1 && command -v djpeg >/dev/null 2>&1 \
  && command -v tiffcp >/dev/null 2>&1 && command -v tiffset >/dev/null 2>&1 \
  && [ -f /usr/share/color/icc/ghostscript/default_cmyk.icc ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "libvips-dev, libjpeg-dev, FFmpeg's -dev libraries, libsoup-3.0-dev, libheif-dev, libraw-dev, libtiff-dev, ffmpeg, exiftool, libraw-bin, libheif-examples, libjpeg-turbo-progs, libtiff-tools or libgs-common are missing, or libheif is older than 1.19: installing them with apt-get" >&2
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y libvips-dev libjpeg-dev pkg-config \
  libavformat-dev libavcodec-dev libswscale-dev libavfilter-dev libavutil-dev libsoup-3.0-dev \
  libheif-dev libraw-dev libtiff-dev ffmpeg libimage-exiftool-perl libraw-bin libheif-examples \
  libjpeg-turbo-progs libtiff-tools libgs-common
if ! pkg-config --atleast-version=1.19 libheif; then
  . /etc/os-release
  echo "libheif $(pkg-config --modversion libheif) is older than 1.19: installing it from ${VERSION_CODENAME}-backports" >&2
  $sudo "$(dirname "$0")/ensure-backports.sh"
  $sudo apt-get update
  # Only the plugins named: never libheif-plugin-ffmpegdec, whose decoder would compete with FrameDial's
  # own HEVC decoder plugin.
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends \
    -t "${VERSION_CODENAME}-backports" libheif-dev libheif1 libheif-examples libheif-plugin-x265 \
    libheif-plugin-libde265 libheif-plugin-aomenc libheif-plugin-dav1d
fi
