"""Batches: a folder tree of photos through the controls, as ``framedial batch``, on this machine or on
a Dask cluster. FrameDial's C API plans the batch, renders each file and writes the summary; this module
only hands the files out."""

from __future__ import annotations

import json
import os
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Union

from ._native import c_path, call_for_text
from ._native import FrameDialError
from ._still import PathLike, plain_value, still_options

Event = Dict[str, Any]
EventCallback = Callable[[Event], None]

# Python's keyword names for the batch keys of the C API's request.
_BATCH_KEYS = {
    "name": "name",
    "recursive": "recursive",
    "follow_symlinks": "followSymlinks",
    "include_hidden": "includeHidden",
    "allow_output_inside": "allowOutputInside",
    "pairs": "pairs",
    "shard": "shard",
    "overwrite": "overwrite",
    "dry_run": "dryRun",
    "keep_time": "keepTime",
}


def batch(
    inputs: Union[PathLike, Sequence[PathLike]],
    output_dir: PathLike,
    state: Optional[Mapping[str, Any]] = None,
    *,
    preset: Optional[str] = None,
    client: Any = None,
    jobs: Optional[int] = None,
    on_event: Optional[EventCallback] = None,
    **options: Any,
) -> Dict[str, Any]:
    """Renders every image under `inputs` into `output_dir`, mirroring the tree, as ``framedial batch``
    does: the same walk, output names, collision rules, formats, quality, ``size``/``fit``, records
    and resume (a rerun skips outputs made with the same settings and redoes those made with other
    settings; ``overwrite=True`` redoes all), outputs written whole or not at all, a failed file
    reported and the rest carried on. The batch is planned by FrameDial itself (its C API), never here.

    Without `client` the files render on this machine, `jobs` at a time. With `client`, a
    ``dask.distributed.Client``, each file (or a small chunk of files) is a task on the cluster's
    workers; every worker must see `inputs` and `output_dir` at the same paths (a shared file system),
    and nothing else needs sharing. A worker that dies mid-file has the file rendered again elsewhere
    (Dask's own retry) and leaves no partial output; a file that fails is reported once, not retried.

    Args:
        inputs: an input folder or file, or a list of them.
        output_dir: the folder that receives the outputs (created if missing).
        state: control values with the README's JSON keys, layered over `preset`; None for none.
        preset: a built-in preset's name (``framedial presets``).
        client: a ``dask.distributed.Client``, or None to render on this machine.
        jobs: files rendered at once on this machine (default: the number of cores); not with
            `client` (the cluster's threads decide).
        on_event: called with each file's event as it finishes, on the calling thread.
        **options: :func:`apply`'s options (``quality``, ``format``, ``size``, ``fit``, …), and
            ``name`` (the output name template, default ``"{stem}.{ext}"``), ``recursive`` (default
            True), ``follow_symlinks``, ``include_hidden``, ``allow_output_inside``, ``overwrite``,
            ``dry_run``, ``keep_time`` (booleans), ``pairs`` (``"both"``, ``"raw"``, ``"jpeg"``),
            ``shard`` (``"I/N"``), as the options of ``framedial batch``.

    Returns:
        The summary with the keys of ``framedial batch --json``'s summary event (``done``,
        ``redone``, ``skipped``, ``unrecorded``, ``failed``, ``planned``, ``ignored``,
        ``ignoredByExtension``, ``notStarted``, ``interrupted``, ``seconds``, ``imagesPerSecond``),
        and ``files``: every file's event (``path``, ``status``, ``output``, ``milliseconds``,
        ``format``, and ``error``, ``reason``, ``warnings``, ``passedOver`` where they apply).

    Raises:
        FrameDialError: for bad options or control values, inputs that do not exist, an output
            folder that cannot be written (before any file is rendered).
        KeyboardInterrupt: after Ctrl-C, once the files not yet started are cancelled; every output
            is whole, and a rerun resumes.
    """
    if jobs is not None and client is not None:
        raise ValueError("jobs is for a batch on this machine; a cluster's threads decide with client")
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= 256):
        raise ValueError(f"jobs must be a whole number 1 … 256, not {jobs!r}")
    request = _request(inputs, output_dir, state, preset, options)
    plan = json.loads(call_for_text("framedial_batch_plan", request.encode("utf-8")))
    settings = json.dumps(plan["batch"], sort_keys=True)
    writes: List[Event] = plan["writes"]
    files: List[Event] = []
    started = time.monotonic()

    def report(event: Event) -> None:
        files.append(event)
        if on_event is not None:
            on_event(event)

    for event in plan["finished"]:
        report(event)
    if client is None:
        _run_here(settings, writes, jobs or os.cpu_count() or 1, report)
    else:
        from ._dask import run_on_cluster

        run_on_cluster(client, settings, writes, report)
    return finish(files, time.monotonic() - started, "format" not in options, writes)


def _request(
    inputs: Union[PathLike, Sequence[PathLike]],
    output_dir: PathLike,
    state: Optional[Mapping[str, Any]],
    preset: Optional[str],
    options: Mapping[str, Any],
) -> str:
    """The JSON request of ``framedial_batch_plan``; unknown options are a FrameDialError."""
    listed: Iterable[PathLike] = [inputs] if isinstance(inputs, (str, os.PathLike)) else inputs
    request: Dict[str, Any] = {
        "inputs": [os.fsdecode(c_path(path, "inputs")) for path in listed],
        "output": os.fsdecode(c_path(output_dir, "output_dir")),
    }
    if preset is not None:
        request["preset"] = preset
    if state is not None:
        if not isinstance(state, Mapping):
            raise TypeError(f"state must be a dict of control values or None, not {type(state).__name__}")
        request["state"] = dict(state)
    still = {key: value for key, value in options.items() if key not in _BATCH_KEYS}
    request["options"] = still_options(still, also_known=["jobs", "on_event", *_BATCH_KEYS])
    for key, value in options.items():
        if key in _BATCH_KEYS:
            request[_BATCH_KEYS[key]] = value
    try:
        return json.dumps(request, default=plain_value)
    except (TypeError, ValueError) as error:
        raise FrameDialError(f"the batch request cannot be written as JSON: {error}", 3) from None


def render(settings: str, write: Event, concurrent: int) -> Event:
    """Renders one planned write with the batch's `settings` (the plan's "batch" as JSON text), as one
    of `concurrent` files rendered at once on this machine; returns its event."""
    text = call_for_text(
        "framedial_batch_render",
        settings.encode("utf-8"),
        json.dumps(write).encode("utf-8"),
        concurrent,
    )
    event: Event = json.loads(text)
    return event


def finish(files: List[Event], seconds: float, notes_slow_formats: bool, writes: List[Event]) -> Dict[str, Any]:
    """The summary of a run (FrameDial's ``framedial_batch_finish``) with its ``files``; temporaries
    that ended workers of this machine left in the folders written into are removed first."""
    folders: Set[str] = {os.path.dirname(write["output"]) for write in writes}
    run = {
        "files": files,
        "seconds": seconds,
        "notesSlowFormats": notes_slow_formats,
        "folders": sorted(folders),
    }
    summary: Dict[str, Any] = json.loads(call_for_text("framedial_batch_finish", json.dumps(run).encode("utf-8")))
    summary["files"] = files
    return summary


def _run_here(settings: str, writes: List[Event], jobs: int, report: EventCallback) -> None:
    """Renders `writes` on `jobs` threads of this process (the GIL is released while a file renders),
    at most twice `jobs` submitted at a time, reporting each event on the calling thread. On any
    exception (Ctrl-C, one raised by `report`) the files not started are cancelled, those rendering
    finish, and the exception goes on."""
    concurrent = min(jobs, max(1, len(writes)))
    pending = iter(writes)
    running: Set["Future[Event]"] = set()
    with ThreadPoolExecutor(max_workers=concurrent, thread_name_prefix="framedial-batch") as pool:
        try:
            for write in pending:
                running.add(pool.submit(render, settings, write, concurrent))
                if len(running) >= 2 * concurrent:
                    finished, running = _wait(running)
                    for future in finished:
                        report(future.result())
            while running:
                finished, running = _wait(running)
                for future in finished:
                    report(future.result())
        except BaseException:
            for future in running:
                future.cancel()
            raise


def _wait(futures: Set["Future[Event]"]) -> "tuple[Set[Future[Event]], Set[Future[Event]]]":
    done, not_done = wait(futures, return_when=FIRST_COMPLETED)
    return set(done), set(not_done)
