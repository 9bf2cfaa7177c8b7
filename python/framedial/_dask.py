"""A planned batch on a Dask cluster: tasks of one file or a small chunk, a bounded number in flight,
events streamed back as tasks finish. Needs ``dask[distributed]`` (``pip install framedial[dask]``)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Dict, Iterator, List

from ._batch import Event, EventCallback, render

# Tasks in flight for each thread of the cluster: enough to keep every thread busy while results travel.
_TASKS_PER_THREAD = 2
# The most files in one task: chunks amortise the scheduler's overhead over small files, and stay small
# so that a dead worker costs little work and the load stays even.
_LARGEST_CHUNK = 8


def run_on_cluster(client: Any, settings: str, writes: List[Event], report: EventCallback) -> None:
    """Renders `writes` on the workers of `client`, reporting each event on the calling thread as its
    task finishes. A task that raises (its worker died more often than Dask allows, FrameDial refused
    the work) reports each of its files as failed once. On any exception in the caller (Ctrl-C, one
    raised by `report`) the tasks not finished are cancelled and the exception goes on."""
    try:
        from distributed import as_completed
    except ImportError:
        raise ImportError(
            "framedial.batch(client=...) needs Dask distributed: pip install 'framedial[dask]'"
        ) from None
    threads_by_host = _threads_by_host(client)
    threads = max(1, sum(threads_by_host.values()))
    size = max(1, min(_LARGEST_CHUNK, len(writes) // (threads * 4)))
    chunks = _chunks(writes, size)
    flight: Dict[Any, List[Event]] = {}
    tasks = as_completed()

    def submit() -> bool:
        chunk = next(chunks, None)
        if chunk is None:
            return False
        future = client.submit(_render_chunk, settings, chunk, threads_by_host, pure=False)
        flight[future] = chunk
        tasks.add(future)
        return True

    try:
        while len(flight) < threads * _TASKS_PER_THREAD and submit():
            pass
        for future in tasks:
            chunk = flight.pop(future)
            if future.status == "finished":
                events: List[Event] = future.result()
            else:
                problem = future.exception() if future.status == "error" else future.status
                events = [_failed(write, problem) for write in chunk]
            for event in events:
                report(event)
            submit()
    except BaseException:
        client.cancel(list(flight))
        raise


def _chunks(writes: List[Event], size: int) -> Iterator[List[Event]]:
    for start in range(0, len(writes), size):
        yield writes[start : start + size]


def _threads_by_host(client: Any) -> Dict[str, int]:
    """The cluster's worker threads on each host: the files a host renders at once."""
    threads: Dict[str, int] = defaultdict(int)
    for worker in client.scheduler_info()["workers"].values():
        threads[str(worker["host"])] += int(worker["nthreads"])
    return dict(threads)


def _render_chunk(settings: str, chunk: List[Event], threads_by_host: Dict[str, int]) -> List[Event]:
    """A task: renders a chunk of writes on this worker, one after the other."""
    from distributed import get_worker
    from distributed.comm.addressing import get_address_host

    worker = get_worker()
    concurrent = threads_by_host.get(get_address_host(worker.address)) or worker.state.nthreads
    concurrent = max(1, min(256, concurrent))
    return [render(settings, write, concurrent) for write in chunk]


def _failed(write: Event, error: Any) -> Event:
    """The event of a file whose task failed without an event of its own."""
    return {
        "event": "file",
        "path": write["input"],
        "output": write["output"],
        "status": "failed",
        "milliseconds": 0.0,
        "format": write["format"],
        "error": f"its task failed on the cluster: {error}",
    }

