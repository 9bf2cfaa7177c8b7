#!/usr/bin/env bash
# Runs the Python package's tests (python/tests) with pytest in the virtual environment of
# scripts/python-venv.sh.
#   scripts/python-test.sh             against this checkout's debug build (libFrameDialC.so and
#                                      framedial from `swift build`), the package from python/
#   scripts/python-test.sh --installed in the environment of the python3 on PATH (an active virtual
#                                      environment): runs scripts/python-install.sh (a release build,
#                                      with the dask extra) and tests the installed package, loaded
#                                      with no environment variable
# Results are compared with the debug build's framedial (FRAMEDIAL_BINARY). Both check the type hints
# with mypy (strict, python/pyproject.toml); --installed also checks the installed version and the
# wheel's platform tag.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--installed" ]; then
  python3 -m pip install --quiet --disable-pip-version-check numpy pytest mypy
  FRAMEDIAL_PYTHON_EXTRAS=dask scripts/python-install.sh
  # The installed package's version is FrameDial's, and its wheel is tagged for this platform only.
  python3 -c 'import importlib.metadata as m, framedial; v = m.version("framedial"); \
    assert v == framedial.version(), (v, framedial.version())'
  wheels="$(mktemp -d)"
  python3 -m pip wheel --quiet --no-deps --wheel-dir "$wheels" ./python
  rm -rf python/build python/*.egg-info
  ls "$wheels" | grep -qx "framedial-.*-py3-none-linux_$(uname -m)\.whl" ||
    { echo "the wheel is not tagged py3-none-linux_$(uname -m): $(ls "$wheels")" >&2; exit 1; }
  rm -rf "$wheels"
  (cd python && python3 -m mypy)
  swift build --product framedial >&2 && swift build --product framedial-full >&2
  # From python/tests, so `import framedial` finds the installed package, not python/framedial.
  (cd python/tests && FRAMEDIAL_BINARY="$(cd ../.. && swift build --show-bin-path)/framedial" \
    python3 -m pytest -q -p no:cacheprovider .)
else
  venv="$(cd "$(scripts/python-venv.sh | tail -n 1)" && pwd)"
  (cd python && "$venv/bin/python3" -m mypy)
  swift build --product FrameDialC >&2
  swift build --product framedial >&2 && swift build --product framedial-full >&2
  bin="$(swift build --show-bin-path)"
  FRAMEDIAL_LIBRARY="$bin/libFrameDialC.so" FRAMEDIAL_BINARY="$bin/framedial" PYTHONPATH="$PWD/python" \
    "$venv/bin/python3" -m pytest -q -p no:cacheprovider python/tests
fi
