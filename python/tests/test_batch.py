"""framedial.batch on this machine against `framedial batch`: the same outputs, summary, records,
resume, failures and interruption."""

from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

import framedial
from batch_support import cli_batch, damage, input_tree, partial_files, tree

STATE = {"exposureBias": 0.4, "whiteBalance": "tungsten"}
COUNTS = ["done", "redone", "skipped", "unrecorded", "failed", "planned", "ignored", "notStarted"]


def test_outputs_and_summary_are_the_commands(tmp_path: Path, framedial_binary: str) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    events: List[dict] = []
    summary = framedial.batch(
        inputs, tmp_path / "api", STATE, jobs=2, size=300, quality=85, on_event=events.append
    )
    theirs = cli_batch(
        framedial_binary, inputs, tmp_path / "cli",
        ["--set", "ev=0.4", "--set", "wb=tungsten", "--size", "300", "--quality", "85", "--jobs", "2"],
    )
    assert tree(tmp_path / "api") == tree(tmp_path / "cli")
    assert sorted(tree(tmp_path / "api")) == ["chelsea.png", "rocket.jpg", "trip/grace.jpg", "trip/rotated.jpg"]
    assert set(summary) - {"files"} == set(theirs)
    assert [summary[key] for key in COUNTS] == [theirs[key] for key in COUNTS] == [4, 0, 0, 0, 0, 0, 1, 0]
    assert summary["ignoredByExtension"] == {".mov": 1}
    assert events == summary["files"]
    assert sorted(event["status"] for event in events) == ["done"] * 4 + ["ignored"]
    formats = {Path(event["path"]).name: event.get("format") for event in events}
    assert formats == {"rocket.jpg": "jpeg", "grace.jpg": "jpeg", "rotated.jpg": "jpeg", "chelsea.png": "png",
                       "clip.mov": None}


def test_a_rerun_skips_all_and_another_state_redoes_all(tmp_path: Path, framedial_binary: str) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    output = tmp_path / "out"
    framedial.batch(inputs, output, STATE, jobs=2, size=200)
    again = framedial.batch([inputs], output, STATE, jobs=1, size=200)
    assert (again["done"], again["skipped"]) == (0, 4)
    assert {event.get("reason") for event in again["files"] if event["status"] == "skipped"} == {"same-settings"}
    # The CLI reads the records the same way: the same settings skip.
    cli = cli_batch(framedial_binary, inputs, output, ["--set", "ev=0.4", "--set", "wb=tungsten", "--size", "200"])
    assert (cli["done"], cli["skipped"]) == (0, 4)
    other = framedial.batch(inputs, output, {"exposureBias": -0.4}, size=200)
    assert (other["redone"], other["skipped"], other["done"]) == (4, 0, 0)
    assert {event.get("reason") for event in other["files"] if event["status"] == "redone"} == {"other-settings"}
    forced = framedial.batch(inputs, output, {"exposureBias": -0.4}, size=200, overwrite=True)
    assert forced["done"] == 4


def test_a_damaged_file_is_reported_once_and_the_rest_goes_on(tmp_path: Path, framedial_binary: str) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    damaged = damage(inputs)
    summary = framedial.batch(inputs, tmp_path / "out", jobs=2, size=200)
    failed = [event for event in summary["files"] if event["status"] == "failed"]
    assert [event["path"] for event in failed] == [str(damaged)]
    assert failed[0]["error"]
    assert (summary["failed"], summary["done"]) == (1, 4)
    assert [event["path"] for event in summary["files"]].count(str(damaged)) == 1
    assert "trip/damaged.jpg" not in tree(tmp_path / "out")
    assert partial_files(tmp_path / "out") == []


def test_dry_run_and_names_follow_the_command(tmp_path: Path, framedial_binary: str) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    planned = framedial.batch(inputs, tmp_path / "out", dry_run=True, format="webp", name="{stem}-x.{ext}")
    assert planned["planned"] == 4 and planned["done"] == 0
    assert not (tmp_path / "out").exists()
    assert sorted(Path(event["output"]).name for event in planned["files"] if event["status"] == "planned") == [
        "chelsea-x.webp", "grace-x.webp", "rocket-x.webp", "rotated-x.webp"]


def test_ctrl_c_cancels_the_rest_leaves_whole_outputs_and_a_rerun_resumes(
    tmp_path: Path, framedial_binary: str
) -> None:
    inputs = input_tree(tmp_path, framedial_binary, large=4)
    output = tmp_path / "out"

    def interrupt(event: dict) -> None:
        if event["status"] == "done":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        framedial.batch(inputs, output, STATE, jobs=1, on_event=interrupt)
    assert partial_files(output) == []
    written = tree(output)
    assert 1 <= len(written) < 8
    resumed = framedial.batch(inputs, output, STATE, jobs=2)
    assert resumed["skipped"] == len(written) and resumed["done"] == 8 - len(written)
    clean = tmp_path / "clean"
    framedial.batch(inputs, clean, STATE, jobs=2)
    assert tree(output) == tree(clean)


def test_bad_requests_are_refused_before_any_file(tmp_path: Path, framedial_binary: str) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    with pytest.raises(framedial.FrameDialError, match='unknown option "qualty"'):
        framedial.batch(inputs, tmp_path / "out", qualty=80)
    with pytest.raises(framedial.FrameDialError, match="no such file or folder"):
        framedial.batch(tmp_path / "missing", tmp_path / "out")
    with pytest.raises(framedial.FrameDialError, match='"exposure-bias" is out of range'):
        framedial.batch(inputs, tmp_path / "out", {"exposureBias": 9})
    with pytest.raises(framedial.FrameDialError, match="preset"):
        framedial.batch(inputs, tmp_path / "out", preset="no-such-look")
    with pytest.raises(ValueError, match="jobs"):
        framedial.batch(inputs, tmp_path / "out", jobs=0)
    with pytest.raises(ValueError, match="jobs is for a batch on this machine"):
        framedial.batch(inputs, tmp_path / "out", jobs=2, client=object())
    assert not (tmp_path / "out").exists()
