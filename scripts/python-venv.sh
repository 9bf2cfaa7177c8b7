#!/usr/bin/env bash
# Creates (or reuses) a Python virtual environment at DIR (default .build/python-venv) with numpy,
# pytest, mypy, Dask distributed (framedial.batch on a cluster) and selenium, for the Python package's tests
# and the studio's browser test (Tests/Browser). Installs Debian's python3-venv and python3-pip with apt-get
# (sudo when not root) when `python3 -m venv` cannot work.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${1:-.build/python-venv}"
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "python3-venv is missing: installing it with apt-get" >&2
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y python3 python3-venv python3-pip
fi
if [ ! -x "$venv/bin/python3" ]; then python3 -m venv "$venv"; fi
"$venv/bin/python3" -m pip install --quiet --disable-pip-version-check numpy pytest \
  mypy "dask[distributed]" selenium
echo "$venv"
