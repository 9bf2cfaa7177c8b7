#!/usr/bin/env bash
# The studio's browser test (Tests/Browser, pytest): installs Debian's chromium and chromium-driver when
# missing (scripts/ensure-chromium.sh), uses the virtual environment of scripts/python-venv.sh (Selenium
# from PyPI), and drives `framedial studio` (this checkout's debug build) in headless Chromium. The page's
# screenshot is kept as a test artefact: .build/test-artefacts/studio.png.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-chromium.sh
venv="$(scripts/python-venv.sh | tail -n 1)"
swift build --product framedial >&2 && swift build --product framedial-full >&2
FRAMEDIAL_BINARY="$(swift build --show-bin-path)/framedial" \
  "$venv/bin/python3" -m pytest -q -p no:cacheprovider Tests/Browser
echo "studio page screenshot (test artefact): .build/test-artefacts/studio.png"
