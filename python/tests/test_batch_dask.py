"""framedial.batch on a real Dask LocalCluster with worker processes: the command's outputs byte for
byte, a worker killed mid-file, a damaged file, reruns and Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Iterator, List

import pytest
from distributed import Client, LocalCluster

import framedial
from batch_support import cli_batch, damage, input_tree, partial_files, tree

STATE = {"contrast": 1.2, "filter": "vivid"}
STATE_ARGUMENTS = ["--set", "contrast=1.2", "--set", "filter=vivid"]


def cluster() -> LocalCluster:
    return LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=50
    )


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with cluster() as local, Client(local) as connected:
        yield connected


def wait_until_idle(client: Client) -> None:
    """Waits until no worker runs a task (cancelled tasks finish their file in the background)."""
    deadline = time.monotonic() + 60
    while any(client.processing().values()) or any(client.run(lambda dask_worker: len(dask_worker.state.executing)).values()):
        assert time.monotonic() < deadline, "the workers did not finish"
        time.sleep(0.05)


def test_outputs_are_the_commands_byte_for_byte(tmp_path: Path, framedial_binary: str, client: Client) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    events: List[dict] = []
    summary = framedial.batch(inputs, tmp_path / "dask", STATE, client=client, size=320, on_event=events.append)
    theirs = cli_batch(framedial_binary, inputs, tmp_path / "cli", [*STATE_ARGUMENTS, "--size", "320", "--jobs", "2"])
    assert tree(tmp_path / "dask") == tree(tmp_path / "cli")
    assert len(tree(tmp_path / "dask")) == 4
    assert (summary["done"], summary["ignored"], summary["failed"]) == (theirs["done"], theirs["ignored"], 0) == (4, 1, 0)
    assert events == summary["files"]
    # Both workers took files: each writes its own record file.
    records = os.listdir(tmp_path / "dask" / ".framedial-records")
    assert len({name.split("-")[1] for name in records}) == 2


def test_a_rerun_skips_all_and_another_state_redoes_all(tmp_path: Path, framedial_binary: str, client: Client) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    output = tmp_path / "out"
    framedial.batch(inputs, output, STATE, client=client, size=200)
    again = framedial.batch(inputs, output, STATE, client=client, size=200)
    assert (again["done"], again["skipped"], again["redone"]) == (0, 4, 0)
    other = framedial.batch(inputs, output, {"contrast": 0.8}, client=client, size=200)
    assert (other["done"], other["skipped"], other["redone"]) == (0, 0, 4)
    # The command agrees with the records the workers wrote.
    cli = cli_batch(framedial_binary, inputs, output, ["--set", "contrast=0.8", "--size", "200"])
    assert (cli["skipped"], cli["unrecorded"]) == (4, 0)


def test_a_damaged_file_fails_once_and_the_rest_goes_on(tmp_path: Path, framedial_binary: str, client: Client) -> None:
    inputs = input_tree(tmp_path, framedial_binary)
    damaged = damage(inputs)
    summary = framedial.batch(inputs, tmp_path / "out", client=client, size=200)
    assert (summary["failed"], summary["done"]) == (1, 4)
    assert [event["path"] for event in summary["files"]].count(str(damaged)) == 1
    failed = next(event for event in summary["files"] if event["status"] == "failed")
    assert failed["path"] == str(damaged) and failed["error"]
    assert partial_files(tmp_path / "out") == []


def test_ctrl_c_cancels_the_rest_leaves_whole_outputs_and_a_rerun_resumes(
    tmp_path: Path, framedial_binary: str, client: Client
) -> None:
    inputs = input_tree(tmp_path, framedial_binary, large=4)
    output = tmp_path / "out"
    images = 8
    done: List[str] = []

    def interrupt(event: dict) -> None:
        # Ctrl-C's KeyboardInterrupt, raised on the calling thread while the batch runs. Not
        # _thread.interrupt_main(): it does nothing while SIGINT is not Python's handler, and on
        # loaded CI machines the batch sometimes finished with its interrupt lost.
        if event["status"] == "done" and not done:
            done.append(event["path"])
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        framedial.batch(inputs, output, STATE, client=client, on_event=interrupt)
    wait_until_idle(client)
    written = tree(output)
    assert 1 <= len(written) < images, sorted(written)
    assert partial_files(output) == []
    clean = tmp_path / "clean"
    run_clean = framedial.batch(inputs, clean, STATE, client=client)
    assert run_clean["done"] == images
    assert all(data == tree(clean)[name] for name, data in written.items())
    resumed = framedial.batch(inputs, output, STATE, client=client)
    assert (resumed["skipped"], resumed["done"]) == (len(written), images - len(written))
    assert tree(output) == tree(clean)


def test_a_worker_killed_mid_file_is_retried_elsewhere_with_nothing_partial_or_doubled(
    tmp_path: Path, framedial_binary: str
) -> None:
    inputs = input_tree(tmp_path, framedial_binary, large=6)
    output = tmp_path / "out"
    killed: List[int] = []
    stop = threading.Event()

    def kill_a_writer() -> None:
        # A worker writes a file as .NAME.PID-HOST.TAG.framedial-partial: kill that PID while it does.
        pattern = re.compile(r"\.(\d+)-[0-9a-f]{8}\.[0-9a-f]{8}\.framedial-partial$")
        while not stop.is_set() and not killed:
            for directory, _, names in os.walk(output):
                for name in names:
                    found = pattern.search(name)
                    if found and not killed:
                        killed.append(int(found.group(1)))
                        os.kill(killed[0], signal.SIGKILL)
            time.sleep(0.002)

    with cluster() as local, Client(local) as own:
        pids = set(own.run(os.getpid).values())
        watcher = threading.Thread(target=kill_a_writer)
        watcher.start()
        try:
            summary = framedial.batch(inputs, output, STATE, client=own)
        finally:
            stop.set()
            watcher.join()
        assert killed and killed[0] in pids
        assert (summary["done"], summary["failed"], summary["ignored"]) == (10, 0, 1)
        paths = [event["path"] for event in summary["files"]]
        assert len(paths) == len(set(paths)) == 11
        assert partial_files(output) == []
        cli_batch(framedial_binary, inputs, tmp_path / "cli", [*STATE_ARGUMENTS, "--jobs", "2"])
        assert tree(output) == tree(tmp_path / "cli")
        rerun = framedial.batch(inputs, output, STATE, client=own)
        assert (rerun["skipped"], rerun["done"]) == (10, 0)
