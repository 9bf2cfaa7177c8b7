#!/usr/bin/env bash
# Builds the DocC documentation of the library targets with the toolchain's own `docc` (no plugin): the
# symbol graphs come from the plain debug build's .swiftmodule files (swift-symbolgraph-extract), and each
# catalogue (Sources/MODULE/MODULE.docc) is converted with --warnings-as-errors, so a broken symbol link or
# a bad article fails the build. Output: .build/docc/MODULE.doccarchive (open its index.html through a web
# server, or `docc preview`). `scripts/build-docc.sh Controls` builds one module.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then modules=(Controls FrameDial); fi
swift build >&2
bin="$(swift build --show-bin-path)"
triple="$(basename "$(dirname "$bin")")"
work=".build/docc"
mkdir -p "$work"
# The C modules the Swift modules import, as the build found them.
clang=()
for map in Sources/C*/module.modulemap; do clang+=(-Xcc "-fmodule-map-file=$PWD/$map"); done
# C targets with a module map of their own in include/ (CRowKernels: its public headers only).
for map in Sources/C*/include/module.modulemap; do
  clang+=(-Xcc "-fmodule-map-file=$PWD/$map" -Xcc -I -Xcc "$PWD/$(dirname "$map")")
done
for target in CFrameKernels CJPEGHeader CRawLayout; do
  clang+=(-Xcc "-fmodule-map-file=$bin/$target.build/module.modulemap" -Xcc -I -Xcc "$PWD/Sources/$target/include")
done
for package in vips libjpeg libheif libraw_r libavformat libsoup-3.0 libtiff-4; do
  for include in $(pkg-config --cflags-only-I "$package"); do clang+=(-Xcc "$include"); done
done
for module in "${modules[@]}"; do
  graphs="$work/$module-symbols"
  rm -rf "$graphs" "$work/$module.doccarchive"
  mkdir -p "$graphs"
  # The modules it re-exports (`@_exported import`) are documented as part of it, as its users see them.
  reexported="$({ grep -rhoE '^@_exported import [A-Za-z0-9_]+' "Sources/$module" || true; } |
    cut -d' ' -f3 | paste -sd, -)"
  swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$bin/Modules" \
    -minimum-access-level public -skip-synthesized-members -module-cache-path "$work/ModuleCache" \
    ${reexported:+-experimental-allowed-reexported-modules="$reexported"} \
    -output-dir "$graphs" "${clang[@]}"
  # Only the module's own graph: extensions of other modules' types (MODULE@Other.symbols.json) would ask
  # DocC for modules this catalogue does not document.
  find "$graphs" -name "$module@*.symbols.json" -delete
  docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.framedial.$module" \
    --output-path "$work/$module.doccarchive" --warnings-as-errors
done
