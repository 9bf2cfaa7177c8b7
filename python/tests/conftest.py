"""Shared fixtures: the FrameDial checkout, its `framedial` binary, a scratch folder."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def framedial_binary() -> str:
    """The `framedial` command the results are compared with: $FRAMEDIAL_BINARY, else the checkout's
    debug build, else its release build, else the one on PATH."""
    candidates = [os.environ.get("FRAMEDIAL_BINARY", "")]
    candidates += [str(REPOSITORY / ".build" / kind / "framedial") for kind in ("debug", "release")]
    candidates.append(shutil.which("framedial") or "")
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    pytest.fail("no framedial binary: build FrameDial (swift build) or set FRAMEDIAL_BINARY")


@pytest.fixture
def sample() -> str:
    return str(REPOSITORY / "SampleImages" / "rocket.jpg")


def run(arguments: list[str], stdin: bytes = b"") -> bytes:
    """Runs a command, returns its standard output; fails the test on a non-zero exit."""
    result = subprocess.run(arguments, input=stdin, capture_output=True, check=False)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout
