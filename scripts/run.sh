#!/usr/bin/env bash
# The main job on the sample images: installs libvips-dev if missing, builds FrameDial (release),
# and runs it over SampleImages/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libvips.sh
swift build -c release --product framedial
bin="$(swift build -c release --show-bin-path)/framedial"
"$bin" --version
"$bin" info SampleImages/*.png SampleImages/*.jpg SampleImages/*.heic
