#!/usr/bin/env bash
# The main job on the sample images: installs libvips-dev if missing, builds FrameDial (release), and
# runs a batch over SampleImages/ with the "vivid" preset into out/sample-batch/, printing the summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-libvips.sh
swift build -c release --product framedial && swift build -c release --product framedial-full
bin="$(swift build -c release --show-bin-path)/framedial"
"$bin" --version
"$bin" batch SampleImages -o out/sample-batch --preset vivid --overwrite
echo "outputs: out/sample-batch/"
