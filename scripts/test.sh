#!/usr/bin/env bash
# Installs what the tests need, then runs every test against real libvips and the sample images.
# Tests run one at a time: several of them measure libvips's process-wide memory counters.
# Then the Python package's tests (pytest, in a virtual environment) against the same build, and the
# studio's browser test in headless Chromium (installed with apt-get when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libvips.sh
swift test --no-parallel "$@"
scripts/python-test.sh
scripts/browser-test.sh
