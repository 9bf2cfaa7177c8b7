#!/usr/bin/env bash
# Installs libvips-dev from Debian's packages when pkg-config cannot find libvips (sudo when not root).
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists vips; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "libvips-dev is missing: installing it with apt-get" >&2
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y libvips-dev pkg-config
