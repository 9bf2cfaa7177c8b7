#!/usr/bin/env bash
# Builds and runs a small package that uses FrameDial as docs/library.md's "use FrameDial from another
# Swift package" lines show: a path dependency on this checkout, the FrameDial product, the three imports.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/FrameDial" "$work/mytool/Sources/mytool"
# The dependency's package name is its folder's name: link the checkout as ../FrameDial.
rmdir "$work/FrameDial"
ln -s "$repo" "$work/FrameDial"
cat > "$work/mytool/Package.swift" <<'SWIFT'
// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "mytool",
  dependencies: [.package(path: "../FrameDial")],
  targets: [
    .executableTarget(
      name: "mytool", dependencies: [.product(name: "FrameDial", package: "FrameDial")])
  ]
)
SWIFT
cat > "$work/mytool/Sources/mytool/main.swift" <<'SWIFT'
import Controls
import FrameDial
import Vips

let state = try ControlState.identity.applying(assignments: ["ev=0.5", "wb=tungsten"])
print(state)
print(CaptureDeviceModel.iPhone16Pro.name, Plan(compiling: state).steps.count, Vips.libraryVersion)
SWIFT
output="$(cd "$work/mytool" && swift build --scratch-path "$work/build" >/dev/null && "$work/build/debug/mytool")"
echo "$output"
[ "$(echo "$output" | head -n 1)" = "exposure-bias=0.5 white-balance=tungsten" ]
echo "FrameDial as a dependency of another package built and ran."
