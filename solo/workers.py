"""The games of a playtest (``wizprint solo check``) in chunks, as workers play them: a :class:`Task` is a chunk of
game indices with everything that decides their games; :func:`play_task` plays one (in this process, a local worker
process, or on a cluster's worker: :mod:`wizprint.solo.cluster`); :func:`bounded_map` keeps a few tasks in flight;
:func:`worker_pool` starts local worker processes that die with the playtest."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import asdict
from typing import Any, NamedTuple, Protocol, TypeVar

from .runner import GameResult, run_one

CHUNK = 50  # games a worker plays per task


class Task(NamedTuple):
    """A chunk of a playtest's games, as a worker (a local process or a cluster's) plays them."""

    game: str
    indices: range
    seed: int
    bots: list[str]
    players: int
    variant: str
    assign: str
    budget_seconds: float | None = None  # every search move's bound (--budget-seconds)


def play_task(args: tuple[Any, ...]) -> list[GameResult]:
    """Play the games of a task (given as a tuple: a local worker receives it pickled as one)."""
    t = Task(*args)
    return [run_one(t.game, i, t.seed, t.bots, t.players, t.variant, t.assign, t.budget_seconds) for i in t.indices]


def one_by_one(tasks: Iterable[Task]) -> Iterator[list[GameResult]]:
    """The games of the tasks in this process, one at a time (so Ctrl-C loses only the game being played)."""
    for t in tasks:
        for i in t.indices:
            yield [run_one(t.game, i, t.seed, t.bots, t.players, t.variant, t.assign, t.budget_seconds)]

@contextmanager
def worker_pool(jobs: int) -> Iterator[ProcessPoolExecutor]:
    """``jobs`` worker processes that leave Ctrl-C to the playtest and die with it, however it ends
    (:func:`wizprint.processes.worker_start`). Leaving the block normally waits for them; leaving it by an exception
    (Ctrl-C, SIGTERM, an error) ends them at once, the games they are playing with them, so no worker outlives the
    playtest. Forked where the system can fork (so they share the card data loaded before, and their parent is this
    process whatever Python's default way of starting them), started afresh elsewhere."""
    import multiprocessing
    import os

    from wizprint.processes import can_fork, forking, worker_start

    context = multiprocessing.get_context("fork" if can_fork() else "spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=worker_start,
                               initargs=(os.getpid(),))
    try:
        with forking():  # a task now starts the workers (with fork, all of them), Ctrl-C and SIGTERM held meanwhile
            pool.submit(int)
        yield pool
        pool.shutdown(wait=True)
    except BaseException:
        end_workers(pool)
        raise


def end_workers(pool: ProcessPoolExecutor) -> None:
    """Cancel the pool's waiting tasks and end its worker processes now (``terminate_workers`` from Python 3.14)."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        with suppress(ValueError, ProcessLookupError):  # already ended (and closed)
            if p.is_alive():
                p.terminate()
    for p in procs:
        with suppress(ValueError):
            p.join(5)


def pool_map(pool: Executor, tasks: Iterator[Task], in_flight: int,
             leftover: Callable[[list[GameResult]], object] | None = None) -> Iterator[list[GameResult]]:
    """``pool.map(play_task, tasks)`` with at most ``in_flight`` tasks submitted at a time (:func:`bounded_map`)."""
    return bounded_map(lambda t: pool.submit(play_task, t), tasks, in_flight, leftover)


R_co = TypeVar("R_co", covariant=True)
R = TypeVar("R")


class Pending(Protocol[R_co]):
    """A submitted task: a :class:`concurrent.futures.Future`, or a Dask future."""

    def result(self) -> R_co: ...

    def cancel(self) -> object: ...

    def done(self) -> bool: ...


def bounded_map(submit: Callable[[Task], Pending[R]], tasks: Iterator[Task], in_flight: int,
                leftover: Callable[[R], object] | None = None) -> Generator[R, None, None]:
    """The results of ``submit``-ting each task, with at most ``in_flight`` tasks submitted at a time
    (``Executor.map`` submits every task at once), in task order. When the generator is left early (closed, or an
    exception such as Ctrl-C while it waits), the tasks still pending are cancelled; with ``leftover``, the
    result of each of them that had already finished (and did not fail) is passed to it first."""
    pending: deque[Pending[R]] = deque()
    try:
        for t in tasks:
            pending.append(submit(t))
            if len(pending) >= in_flight:
                r = pending[0].result()
                pending.popleft()
                yield r
        while pending:
            r = pending[0].result()
            pending.popleft()
            yield r
    finally:
        for f in pending:
            if leftover is not None and f.done():
                try:
                    r = f.result()
                except Exception:  # failed or cancelled: nothing to keep
                    continue
                leftover(r)
        for f in pending:
            f.cancel()

def results_as_json(results: list[GameResult]) -> list[dict[str, Any]]:
    return [asdict(r) for r in results]
