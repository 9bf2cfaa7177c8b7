#!/usr/bin/env bash
# Installs what FrameDial builds and tests against from Debian's packages, with one apt-get call, when any
# of it is missing (sudo when not root): libvips-dev for stills and frames, libjpeg-dev (read directly for
# JPEG headers), FFmpeg's libavformat, libavcodec, libswscale and libavutil (-dev) for `framedial video`,
# libsoup 3 (-dev) for `framedial studio`'s web server, LibRaw (libraw-dev) for camera raws and DNGs, the
# ffmpeg command the video tests make clips with, and dcraw_emu (libraw-bin), LibRaw's own developer that
# the raw tests compare with.
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 \
  && pkg-config --exists vips libjpeg libavformat libavcodec libswscale libavutil libsoup-3.0 libraw_r \
  && command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 \
  && command -v dcraw_emu >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "libvips-dev, libjpeg-dev, FFmpeg's -dev libraries, libsoup-3.0-dev, libraw-dev, ffmpeg or libraw-bin are missing: installing them with apt-get" >&2
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y libvips-dev libjpeg-dev pkg-config \
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libsoup-3.0-dev libraw-dev ffmpeg \
  libraw-bin
