#!/usr/bin/env bash
# Installs what FrameDial builds and tests against from Debian's packages, with one apt-get call, when any
# of it is missing (sudo when not root): libvips-dev for stills and frames, libjpeg-dev (read directly for
# JPEG headers), FFmpeg's libavformat, libavcodec, libswscale and libavutil (-dev) for `framedial video`,
# libsoup 3 (-dev) for `framedial studio`'s web server, libheif-dev (HEIC written and read directly), the
# ffmpeg command the video tests make clips with, and exiftool, which the HEIC tests read metadata with.
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 \
  && pkg-config --exists vips libjpeg libavformat libavcodec libswscale libavutil libsoup-3.0 libheif \
  && command -v ffmpeg >/dev/null 2>&1 && command -v ffprobe >/dev/null 2>&1 \
  && command -v exiftool >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "libvips-dev, libjpeg-dev, FFmpeg's -dev libraries, libsoup-3.0-dev, libheif-dev, ffmpeg or exiftool are missing: installing them with apt-get" >&2
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y libvips-dev libjpeg-dev pkg-config \
  libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libsoup-3.0-dev libheif-dev ffmpeg \
  libimage-exiftool-perl
