"""The manual's multiprocessing example (docs/c-and-python.md), run as printed on a phone folder: every
photo gets its own output, a RAW+JPEG-like pair of one stem included, and as many outputs exist as photos
were done. The README's Dask example, run as printed on a small folder."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPOSITORY


def manual_pool_example() -> str:
    page = (REPOSITORY / "docs" / "c-and-python.md").read_text(encoding="utf-8")
    blocks = [block.split("```")[0] for block in page.split("```python\n")[1:]]
    matching = [block for block in blocks if "from multiprocessing import Pool" in block]
    assert len(matching) == 1, "docs/c-and-python.md has one multiprocessing example"
    return matching[0]


def test_every_photo_of_a_phone_folder_gets_its_own_output(tmp_path: Path) -> None:
    samples = REPOSITORY / "SampleImages"
    photos = tmp_path / "photos"
    (photos / "2024").mkdir(parents=True)
    shutil.copy(samples / "coffee.heic", photos / "IMG_0110.HEIC")
    shutil.copy(samples / "rocket.jpg", photos / "IMG_0110.JPG")
    shutil.copy(samples / "chelsea.png", photos / "IMG_0111.png")
    shutil.copy(samples / "grace_hopper.jpg", photos / "2024" / "IMG_0110.jpeg")
    (tmp_path / "example.py").write_text(manual_pool_example(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    done = [line for line in result.stdout.splitlines() if line.startswith("done ")]
    assert len(done) == 4, result.stdout
    outputs = sorted(str(p.relative_to(tmp_path / "edited")) for p in (tmp_path / "edited").rglob("*.jpg"))
    assert outputs == [
        "2024/IMG_0110.jpeg.jpg",
        "IMG_0110.HEIC.jpg",
        "IMG_0110.JPG.jpg",
        "IMG_0111.png.jpg",
    ]
    # Each output is its own photo: the HEIC's and the JPEG's sizes differ (600×400 and 640×427).
    heic = (tmp_path / "edited" / "IMG_0110.HEIC.jpg").read_bytes()
    jpeg = (tmp_path / "edited" / "IMG_0110.JPG.jpg").read_bytes()
    assert heic != jpeg


def test_names_that_meet_on_one_output_are_refused_before_any_work(tmp_path: Path) -> None:
    photos = tmp_path / "photos"
    photos.mkdir()
    shutil.copy(REPOSITORY / "SampleImages" / "rocket.jpg", photos / "a.jpg")
    shutil.copy(REPOSITORY / "SampleImages" / "rocket.jpg", photos / "A.JPG")
    (tmp_path / "example.py").write_text(manual_pool_example(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode != 0
    assert "would both be written to" in result.stderr
    assert not (tmp_path / "edited").exists()


def readme_dask_example() -> str:
    page = (REPOSITORY / "README.md").read_text(encoding="utf-8")
    blocks = [block.split("```")[0] for block in page.split("```python\n")[1:]]
    matching = [block for block in blocks if "LocalCluster" in block]
    assert len(matching) == 1, "the README has one Dask example"
    return matching[0]


def test_the_readme_dask_example_grades_a_folder_on_a_local_cluster(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    photos = tmp_path / "Photos"
    (photos / "2024").mkdir(parents=True)
    shutil.copy(REPOSITORY / "SampleImages" / "rocket.jpg", photos / "IMG_1.jpg")
    shutil.copy(REPOSITORY / "SampleImages" / "chelsea.png", photos / "2024" / "IMG_2.png")
    # The README's Python section imports framedial in its first example.
    (tmp_path / "example.py").write_text("import framedial\n" + readme_dask_example(), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("2 done, 0 failed"), result.stdout
    outputs = sorted(str(p.relative_to(tmp_path / "Graded")) for p in (tmp_path / "Graded").rglob("*.*"))
    assert [name for name in outputs if not name.startswith(".")] == ["2024/IMG_2.png", "IMG_1.jpg"]
