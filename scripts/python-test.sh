#!/usr/bin/env bash
# Runs the Python package's tests (python/tests) with pytest in the virtual environment of
# scripts/python-venv.sh.
#   scripts/python-test.sh             against this checkout's debug build (libFrameDialC.so and
#                                      framedial from `swift build`), the package from python/
#   scripts/python-test.sh --installed in the environment of the python3 on PATH (an active virtual
#                                      environment): runs scripts/python-install.sh (a release build)
#                                      and tests the installed package, loaded with no environment variable
# Results are compared with the debug build's framedial (FRAMEDIAL_BINARY).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--installed" ]; then
  python3 -m pip install --quiet --disable-pip-version-check numpy pytest
  scripts/python-install.sh
  swift build --product framedial >&2
  # From python/tests, so `import framedial` finds the installed package, not python/framedial.
  (cd python/tests && FRAMEDIAL_BINARY="$(cd ../.. && swift build --show-bin-path)/framedial" \
    python3 -m pytest -q -p no:cacheprovider .)
else
  venv="$(scripts/python-venv.sh | tail -n 1)"
  swift build --product FrameDialC >&2
  swift build --product framedial >&2
  bin="$(swift build --show-bin-path)"
  FRAMEDIAL_LIBRARY="$bin/libFrameDialC.so" FRAMEDIAL_BINARY="$bin/framedial" PYTHONPATH="$PWD/python" \
    "$venv/bin/python3" -m pytest -q -p no:cacheprovider python/tests
fi
