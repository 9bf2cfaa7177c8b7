"""framedial.apply reads a TIFF whose first page is a reduced-resolution preview at the picture after
it, as `framedial apply` does (the pages are chained with libtiff's tiffset and tiffcp)."""

from __future__ import annotations

import json
from pathlib import Path

import framedial
from conftest import run


def test_a_preview_before_the_picture_is_passed_over(
    tmp_path: Path, sample: str, framedial_binary: str
) -> None:
    picture = tmp_path / "picture.tif"
    preview = tmp_path / "preview.tif"
    run([framedial_binary, "apply", sample, "-o", str(picture)])
    run([framedial_binary, "apply", sample, "-o", str(preview), "--size", "64"])
    run(["tiffset", "-s", "254", "1", str(preview)])
    scan = tmp_path / "scan.tif"
    run(["tiffcp", str(preview), str(picture), str(scan)])
    ours = tmp_path / "api.png"
    theirs = tmp_path / "cli.png"
    framedial.apply(str(scan), ours)
    run([framedial_binary, "apply", str(scan), "-o", str(theirs)])
    facts = json.loads(run([framedial_binary, "info", "--json", str(ours)]))
    expected = json.loads(run([framedial_binary, "info", "--json", sample]))
    assert (facts["width"], facts["height"]) == (expected["width"], expected["height"])
    assert ours.read_bytes() == theirs.read_bytes()
