#!/usr/bin/env bash
# The C lines of the README and docs/c-and-python.md, checked: scripts/install.sh into a temporary prefix, then the C test program
# (Tests/CAPI/capi_test.c) built with `cc … $(pkg-config --cflags --libs framedial)` and run with no
# LD_LIBRARY_PATH, against the debug build's framedial.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
scripts/install.sh "$work/prefix"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
cc -std=c11 -D_POSIX_C_SOURCE=200809L -O1 Tests/CAPI/capi_test.c \
  $(pkg-config --cflags --libs framedial) -lpthread -o "$work/capi_test"
swift build --product framedial >&2 && swift build --product framedial-full >&2
mkdir "$work/scratch"
env -u LD_LIBRARY_PATH "$work/capi_test" "$(swift build --show-bin-path)/framedial" \
  SampleImages/rocket.jpg "$work/scratch"
