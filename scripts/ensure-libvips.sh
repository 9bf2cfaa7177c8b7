#!/usr/bin/env bash
# Installs libvips-dev and libjpeg-dev (read directly for JPEG headers) from Debian's packages when
# pkg-config cannot find libvips or libjpeg (sudo when not root).
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists vips libjpeg; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "libvips-dev or libjpeg-dev is missing: installing them with apt-get" >&2
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y libvips-dev libjpeg-dev pkg-config
