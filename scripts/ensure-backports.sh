#!/usr/bin/env bash
# Makes Debian's backports of this system's release installable with apt-get (FrameDial takes libheif
# 1.19 from it, for writing HDR gain maps as auxiliary images): when no APT source names
# CODENAME-backports yet, one is added beside the system's own Debian entry, with that entry's mirror,
# components and key (read from /etc/apt/sources.list.d/debian.sources, or from sources.list), so no
# host is written here. Prints nothing and changes nothing when backports are already there. Needs root.
set -euo pipefail
. /etc/os-release
codename="${VERSION_CODENAME:?/etc/os-release names no release}"
sources=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
for file in "${sources[@]}"; do
  if [ -f "$file" ] && grep -Eq "^[^#]*[[:space:]]${codename}-backports([[:space:]]|$)" "$file"; then
    exit 0
  fi
done
target=/etc/apt/sources.list.d/framedial-backports.sources
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  # The deb822 stanza whose Suites list the release itself: its URIs, Components and Signed-By.
  awk -v codename="$codename" '
    function flush() {
      if (suites ~ ("(^| )" codename "( |$)") && uris != "" && !done) {
        print "Types: deb"
        print "URIs: " uris
        print "Suites: " codename "-backports"
        print "Components: " (components == "" ? "main" : components)
        if (signed != "") print "Signed-By: " signed
        done = 1
      }
      uris = suites = components = signed = ""
    }
    /^[[:space:]]*$/ { flush(); next }
    /^#/ { next }
    /^URIs:/ { sub(/^URIs:[[:space:]]*/, ""); uris = $0 }
    /^Suites:/ { sub(/^Suites:[[:space:]]*/, ""); suites = $0 }
    /^Components:/ { sub(/^Components:[[:space:]]*/, ""); components = $0 }
    /^Signed-By:/ { sub(/^Signed-By:[[:space:]]*/, ""); signed = $0 }
    END { flush(); if (!done) exit 1 }
  ' /etc/apt/sources.list.d/debian.sources > "$target.new" || {
    rm -f "$target.new"
    echo "no entry for ${codename} in /etc/apt/sources.list.d/debian.sources" >&2
    exit 1
  }
  mv "$target.new" "$target"
elif [ -f /etc/apt/sources.list ]; then
  # The one-line entry of the release itself: deb [options] URI CODENAME COMPONENTS…
  line=$(awk -v codename="$codename" '$1 == "deb" && $0 !~ /^#/ {
      for (i = 2; i <= NF; i++) if ($i == codename) { print; exit }
    }' /etc/apt/sources.list)
  if [ -z "$line" ]; then
    echo "no entry for ${codename} in /etc/apt/sources.list" >&2
    exit 1
  fi
  echo "$line" | sed "s/[[:space:]]${codename}[[:space:]]/ ${codename}-backports /" \
    > /etc/apt/sources.list.d/framedial-backports.list
else
  echo "no Debian APT source found in /etc/apt" >&2
  exit 1
fi
echo "enabled ${codename}-backports from the system's own Debian entry" >&2
