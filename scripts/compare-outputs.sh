#!/usr/bin/env bash
# Checks that a change leaves FrameDial's outputs byte for byte as they were: builds the `framedial`
# command of two revisions (debug, each in a worktree of its own under .build/compare/), runs the same
# commands with each on the sample images and on a generated video clip (stills in every output format
# with several control states, a batch, frames, a video with controls, a LUT, and the JSON the commands
# print: `--json` lines, presets, controls, devices, a batch's records and events, times taken out),
# and compares every file they wrote.
#   scripts/compare-outputs.sh BASE [HEAD]    HEAD defaults to the working tree's HEAD commit
# Exits 0 when every output is identical, 1 with the differing files listed otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/compare-outputs.sh BASE [HEAD]" >&2
  exit 2
fi
scripts/ensure-libvips.sh
root="$PWD/.build/compare"
mkdir -p "$root"
clip="$root/clip.mp4"
if [ ! -f "$clip" ]; then
  ffmpeg -v error -y -f lavfi -i testsrc2=size=640x360:rate=25:duration=2 -pix_fmt yuv420p \
    -c:v libx264 -preset ultrafast -crf 20 "$clip"
fi

# Builds `framedial` at revision $1 in its own worktree and prints the binary's path.
build() {
  local commit tree
  commit="$(git rev-parse --verify "$1^{commit}")"
  tree="$root/tree-$commit"
  [ -d "$tree" ] || git worktree add --detach "$tree" "$commit" >&2
  # Since the light `framedial` hands what needs FFmpeg to `framedial-full`, both are built where both are.
  (cd "$tree" && swift build --product framedial >&2 &&
    if grep -q '"framedial-full"' Package.swift; then swift build --product framedial-full >&2; fi)
  echo "$tree/.build/debug/framedial"
}

# Runs every command with the binary $1, writing into the empty folder $2.
outputs() {
  local bin="$1" out="$2" name ext
  rm -rf "$out"
  mkdir -p "$out"
  for input in SampleImages/*.jpg SampleImages/*.png SampleImages/*.heic; do
    name="$(basename "$input")"
    for ext in jpg png heic tif webp; do
      "$bin" apply "$input" -o "$out/$name.plain.$ext" >/dev/null
      "$bin" apply "$input" -o "$out/$name.vivid.$ext" --preset vivid >/dev/null
    done
    "$bin" apply "$input" -o "$out/$name.controls.jpg" --set ev=0.7 --set wb=tungsten \
      --set contrast=1.3 --set saturation=1.2 --set zoom=1.5 --set filter=mono >/dev/null
    "$bin" apply "$input" -o "$out/$name.size.png" --size 200 --profile srgb --strip >/dev/null
  done
  "$bin" batch SampleImages -o "$out/batch" --preset warm-evening --size 300 --jobs 2 >/dev/null
  # A batch's records hold times; its pictures are compared.
  rm -rf "$out/batch/.framedial-records"
  "$bin" video "$clip" -o "$out/video.mp4" --set ev=0.5 --set wb=tungsten --set contrast=1.2 \
    --encoder-preset ultrafast >/dev/null
  "$bin" video "$clip" --frame-at 1 -o "$out/frame.png" --set saturation=1.4 >/dev/null
  ffmpeg -v error -i "$clip" -f rawvideo -pix_fmt rgb24 - |
    "$bin" frames --size 640x360 --set ev=-0.5 --set tint=20 >"$out/frames.rgb"
  "$bin" lut -o "$out/look.cube" --size 17 --set ev=0.5 --set wb=tungsten --set contrast=1.2
  json_outputs "$bin" "$out"
}

# Times in JSON lines (milliseconds, seconds, rates), a record's file stamp, and the folder $1 the
# outputs went to, which differ run to run and side to side.
untimed() {
  sed -E -e 's/"(milliseconds|seconds|imagesPerSecond|fps)":[-0-9.e+]+/"\1":T/g' \
    -e 's/"stamp":\{[^}]*\}/"stamp":S/g' -e "s#$1/#OUT/#g"
}

# The JSON outputs of the binary $1 into the folder $2.
json_outputs() {
  local bin="$1" out="$2/json"
  mkdir -p "$out/mixed"
  "$bin" info --json SampleImages/* "$clip" >"$out/info.jsonl" 2>/dev/null || true
  "$bin" presets --json >"$out/presets.json"
  "$bin" presets >"$out/presets.txt"
  "$bin" controls --json >"$out/controls.json" 2>/dev/null
  "$bin" devices --json >"$out/devices.json"
  # Ignored files whose extensions sort differently by case and by number.
  cp SampleImages/*.jpg "$out/mixed/"
  for name in a.TXT b.md c.a10 d.a2 e.Z f.b_; do echo x >"$out/mixed/$name"; done
  "$bin" batch "$out/mixed" -o "$out/batch" --set ev=0.3 --size 64 --jobs 1 --json | untimed "$2" \
    >"$out/batch.jsonl"
  "$bin" batch "$out/mixed" -o "$out/batch" --set ev=0.3 --size 64 --jobs 1 --json | untimed "$2" \
    >"$out/batch-again.jsonl"
  cat "$out/batch/.framedial-records/"*.jsonl | untimed "$2" >"$out/records.jsonl"
  rm -rf "$out/batch" "$out/mixed"
  "$bin" video "$clip" -o "$out/video.mp4" --encoder-preset ultrafast --json | untimed "$2" \
    >"$out/video.jsonl"
  rm -f "$out/video.mp4"
}

base_bin="$(build "$1")"
head_bin="$(build "${2:-HEAD}")"
outputs "$base_bin" "$root/base"
outputs "$head_bin" "$root/head"
differing="$(cd "$root" && diff -rq base head || true)"
if [ -n "$differing" ]; then
  echo "outputs differ:" >&2
  echo "$differing" >&2
  exit 1
fi
echo "every output identical: $(find "$root/base" -type f | wc -l) files"
