"""Running a build's jobs in this process or spread over worker processes (``wizprint build --jobs N``).

``--jobs N`` runs the jobs in N processes: this one and N - 1 workers forked from it once the scenes are drawn, so
they start with everything the jobs need (scenes, fonts, parsed icons) and are handed only job numbers; each sends
back what its job made. Which process runs a job never changes what the job makes, so the output is the same
whatever N. Where the system cannot fork safely (Windows, macOS) the jobs run in this process.

An error in a worker comes back as the same exception (a :class:`~wizprint.errors.DataErrors` with its issues),
raised here; a worker that dies (killed, out of memory) is a :class:`~wizprint.errors.BuildError`. A worker never
writes a file; the workers are stopped when the build ends, fails or is interrupted (Ctrl-C, SIGTERM), and end
by themselves when the building process is killed (:func:`wizprint.processes.worker_start`).
"""

from __future__ import annotations

import gc
import os
import pickle
import traceback
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from wizprint.errors import BuildError
from wizprint.processes import can_fork, forking, worker_start

R = TypeVar("R")

MAX_JOBS = 256


def default_jobs() -> int:
    """The number of cores this process may use."""
    count = getattr(os, "process_cpu_count", None)  # Python 3.13
    if count is not None:
        return max(1, int(count() or 1))
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class Workers:
    """The processes of a build: this one and ``processes - 1`` forked workers (none for one process, or where
    the system cannot fork)::

        with Workers(jobs, 4, here=[k]) as pool:   # forks 3 workers
            pool.run(done)                          # done(index, result) for every job, here, as each ends

    The workers take the longest jobs first (by ``costs``), this process the shortest, and hands the workers the
    next longest whenever one is free; the results of the workers' jobs must pickle. The jobs numbered in
    ``here`` run in this process (they may use its state). ``done`` is called in the order the jobs end, which
    may differ from run to run: the caller puts the results in order. Leaving the ``with`` block stops the
    workers (at once after an error or Ctrl-C)."""

    def __init__(self, jobs: Sequence[Callable[[], R]], processes: int, *, here: Iterable[int] = ()):
        self.jobs = jobs
        self.here = sorted(set(here))
        self.remote = [i for i in range(len(jobs)) if i not in set(self.here)]
        self.size = max(0, min(processes - 1, len(self.remote) - 1)) if can_fork() else 0  # forked workers
        self.procs: list[Any] = []  # multiprocessing Process objects
        self.conns: list[Any] = []  # the pipe to each
        self.finished = False  # every job done: the workers were told to end

    def __enter__(self) -> Workers:
        if self.size > 0:
            import ctypes  # noqa: F401 (for worker_start, imported once here rather than in every worker)
            import multiprocessing

            fork = multiprocessing.get_context("fork")
            # the workers then share the memory of every object made so far instead of copying it; a freeze already
            # in force (the build's own, or the caller's) stays in force after the fork (it was undone here before)
            freeze_here = gc.get_freeze_count() == 0
            gc.freeze()
            try:
                with forking():  # Ctrl-C and SIGTERM wait until the workers have set their own handling
                    for _ in range(self.size):
                        mine, theirs = fork.Pipe()
                        proc = fork.Process(target=_work, args=(self.jobs, theirs, os.getpid()), daemon=True)
                        proc.start()
                        theirs.close()
                        self.procs.append(proc)
                        self.conns.append(mine)
            except BaseException:
                self.__exit__()
                raise
            finally:
                if freeze_here:
                    gc.unfreeze()
        return self

    def __exit__(self, *exc: object) -> None:
        for proc in self.procs:
            if self.finished:
                proc.join(5)
            if proc.is_alive():
                proc.terminate()  # an error, Ctrl-C: stop at once (the results are no longer wanted)
        for proc in self.procs:
            proc.join()
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []

    def run(self, done: Callable[[int, Any], None], *, costs: Sequence[float] | None = None) -> None:
        if not self.procs:
            for i in range(len(self.jobs)):
                done(i, self.jobs[i]())
            return
        from multiprocessing.connection import wait

        order = sorted(self.remote, key=lambda i: -costs[i]) if costs is not None else list(self.remote)
        front, back = 0, len(order)  # the workers take order[front], this process order[back - 1]
        busy: dict[int, int] = {}  # worker -> its job
        idle = list(range(len(self.procs)))

        def hand_out() -> None:
            nonlocal front
            while idle and front < back:
                w = idle.pop()
                busy[w] = order[front]
                self.conns[w].send(order[front])
                front += 1

        def receive(timeout: float | None) -> None:
            ready = wait([self.conns[w] for w in busy] + [self.procs[w].sentinel for w in busy], timeout)
            for w in list(busy):
                if self.conns[w] in ready:
                    try:
                        i, result = self.conns[w].recv()
                    except (EOFError, OSError):
                        raise BuildError(_died(self.procs[w], busy[w])) from None
                    del busy[w]
                    idle.append(w)
                    if isinstance(result, _Failure):
                        raise result.exception()
                    done(i, result)
                elif self.procs[w].sentinel in ready:
                    raise BuildError(_died(self.procs[w], busy[w]))
            hand_out()

        hand_out()
        for i in self.here:
            done(i, self.jobs[i]())
        while front < back or busy:
            if busy:
                receive(0)
            if front < back:
                back -= 1
                done(order[back], self.jobs[order[back]]())
            elif busy:
                receive(None)
        for conn in self.conns:
            conn.send(None)  # no more work: the workers end
        self.finished = True


def _died(proc: Any, job: int) -> str:
    proc.join(1)
    how = f"signal {-proc.exitcode}" if proc.exitcode is not None and proc.exitcode < 0 else f"code {proc.exitcode}"
    return f"a build worker process stopped unexpectedly ({how}) while making job {job}; try --jobs 1"


def _work(jobs: Sequence[Callable[[], Any]], conn: Any, parent: int) -> None:
    """A worker: runs the jobs it is sent (by number) until it is sent None or the building process is gone."""
    worker_start(parent)  # Ctrl-C is the building process's to handle, SIGTERM ends us, and so does its end
    try:
        while True:
            i = conn.recv()
            if i is None:
                return
            try:
                result: tuple[int, Any] = (i, jobs[i]())
            except BaseException as exc:
                result = (i, _Failure(exc))
            try:
                conn.send(result)
            except (pickle.PicklingError, TypeError, AttributeError) as exc:
                conn.send((i, _Failure(exc)))
    except (EOFError, OSError):  # the building process is gone: nobody wants the results
        return


class _Failure:
    """An exception raised by a job in a worker, carried back to be raised in the building process: the same
    class with the same arguments and attributes, even for exceptions that do not pickle by themselves (such as
    DataErrors, whose constructor takes its issues, not its message). One that cannot travel becomes a
    RuntimeError with the worker's traceback."""

    def __init__(self, exc: BaseException):
        self.cls: type[BaseException] | None = type(exc)
        self.args: tuple[Any, ...] = exc.args
        self.state = dict(vars(exc))
        self.text = "".join(traceback.format_exception(exc))
        try:
            pickle.loads(pickle.dumps((self.cls, self.args, self.state)))
        except Exception:
            self.cls, self.args, self.state = None, (), {}

    def exception(self) -> BaseException:
        if self.cls is None:
            return RuntimeError(f"a build worker failed:\n{self.text}")
        exc = self.cls.__new__(self.cls)
        exc.args = self.args
        vars(exc).update(self.state)
        return exc
