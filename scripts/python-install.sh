#!/usr/bin/env bash
# Builds libFrameDialC.so in release and installs the Python package `framedial` (python/) into the
# environment of the `python3` on PATH (the active virtual environment), library included: the package's
# lib/ folder gets libFrameDialC.so and the Swift runtime libraries it needs, and `import framedial` loads
# them from there, so no environment variable is needed. Extra arguments go to pip (e.g. --user);
# FRAMEDIAL_PYTHON_EXTRAS names extras to install with it (dask: framedial.batch on a Dask cluster).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
scripts/install.sh "$stage"
rm -rf python/framedial/lib
mkdir -p python/framedial/lib
cp "$stage"/lib/*.so* python/framedial/lib/
# The package's version is FrameDial's (pyproject.toml reads it from here).
sed -n 's/^Version: //p' "$stage/lib/pkgconfig/framedial.pc" > python/framedial/lib/VERSION
python3 -m pip install --quiet --upgrade "$@" "./python${FRAMEDIAL_PYTHON_EXTRAS:+[$FRAMEDIAL_PYTHON_EXTRAS]}"
rm -rf python/build python/*.egg-info
python3 -c 'import framedial; print("framedial", framedial.version(), "installed for", __import__("sys").executable)'
