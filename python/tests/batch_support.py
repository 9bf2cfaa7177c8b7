"""What the batch tests share: an input tree with a subfolder, a PNG, a damaged JPEG and a video beside
the photos, the same batch run with the framedial command, and the comparison of two output trees."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Dict, List

from conftest import REPOSITORY, run

SAMPLES = REPOSITORY / "SampleImages"


def input_tree(root: Path, framedial_binary: str, large: int = 0) -> Path:
    """A folder of photos: the sample JPEGs and a PNG, one in a subfolder, a JPEG that is cut short,
    a clip that is not an image, and `large` photos enlarged to 2000 pixels (slow enough to be caught
    mid-file). Returns the folder."""
    folder = root / "in"
    (folder / "trip").mkdir(parents=True)
    shutil.copy(SAMPLES / "rocket.jpg", folder / "rocket.jpg")
    shutil.copy(SAMPLES / "grace_hopper.jpg", folder / "trip" / "grace.jpg")
    shutil.copy(SAMPLES / "rocket_exif_rotated.jpg", folder / "trip" / "rotated.jpg")
    shutil.copy(SAMPLES / "chelsea.png", folder / "chelsea.png")
    (folder / "clip.mov").write_bytes(b"\0\0\0\x18ftypqt  ")
    for index in range(large):
        run([framedial_binary, "apply", str(SAMPLES / "rocket.jpg"), "-o", str(folder / f"big{index}.jpg"),
             "--set", f"ev={index / 10}", "--size", "2000", "--enlarge"])
    return folder


def damage(folder: Path) -> Path:
    """Adds a JPEG cut short after its first kilobytes to `folder`; returns it."""
    damaged = folder / "trip" / "damaged.jpg"
    damaged.write_bytes((SAMPLES / "rocket.jpg").read_bytes()[:3000])
    return damaged


def cli_batch(framedial_binary: str, inputs: Path, output: Path, arguments: List[str]) -> Dict:
    """`framedial batch --json` over the same folder: its summary event."""
    printed = run([framedial_binary, "batch", str(inputs), "-o", str(output), "--json", *arguments])
    lines = [json.loads(line) for line in printed.decode().splitlines()]
    return lines[-1]


def tree(folder: Path) -> Dict[str, bytes]:
    """Every file below `folder` by relative path, with its bytes, the records folder left out (its
    files are named for the processes that wrote them)."""
    found = {}
    for directory, folders, names in os.walk(folder):
        folders[:] = [name for name in folders if name != ".framedial-records"]
        for name in names:
            path = Path(directory) / name
            found[str(path.relative_to(folder))] = path.read_bytes()
    return found


def partial_files(folder: Path) -> List[str]:
    """The temporary files of unfinished writes below `folder`."""
    return [name for name in tree(folder) if name.endswith(".framedial-partial")]
