#!/usr/bin/env bash
# Installs Debian's chromium and chromium-driver (chromedriver) with apt-get when either command is
# missing (sudo when not root): the studio's browser test (Tests/Browser) and the benchmark's browser
# section drive the page in headless Chromium through them.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "chromium or chromium-driver is missing: installing them with apt-get" >&2
$sudo apt-get update
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium chromium-driver
