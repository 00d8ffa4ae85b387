"""Stopping: SIGTERM stops a command as Ctrl-C does, and every worker process dies with the process that started it.

A command's main thread gets :class:`Terminated` (a :class:`KeyboardInterrupt`) on SIGTERM
(:func:`stop_on_sigterm`), so the clean-up that Ctrl-C runs (a build's temporary folder removed, worker processes
ended, a partial report written, a game saved) runs for SIGTERM too; the command then exits with 128 + the signal's
number (130 for Ctrl-C, 143 for SIGTERM).

A worker process (a build's ``--jobs``, a solo check's ``--jobs``) starts with :func:`worker_start`: Ctrl-C is left
to its parent, SIGTERM ends it at once (its parent's way of stopping it), and it ends when its parent ends, even by
SIGKILL: on Linux the kernel sends it SIGKILL (``prctl(PR_SET_PDEATHSIG)``), elsewhere a watchdog thread sees the
parent gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

_PR_SET_PDEATHSIG = 1
WATCH_EVERY = 0.5  # seconds between a watchdog's looks at the parent (where the kernel cannot be asked)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread where Ctrl-C raises KeyboardInterrupt."""

    signum = int(signal.SIGTERM)


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def stop_on_sigterm() -> None:
    """SIGTERM raises :class:`Terminated` in this process's main thread from now on (a no-op elsewhere)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _raise_terminated)


def signal_of(stop: BaseException) -> int:
    """The signal that stopped a command: SIGTERM for :class:`Terminated` (or an exception that says it carries
    one), SIGINT for any other KeyboardInterrupt."""
    return int(getattr(stop, "signum", signal.SIGINT))


def stop_name(stop: BaseException) -> str:
    """How a user calls what stopped a command: ``Ctrl-C`` or ``SIGTERM``."""
    return "SIGTERM" if signal_of(stop) == signal.SIGTERM else "Ctrl-C"


def stop_code(stop: BaseException) -> int:
    """The exit code of a command stopped by ``stop``: 128 + the signal's number."""
    return 128 + signal_of(stop)


def can_fork() -> bool:
    """Whether worker processes can be forked here (Linux and other Unix systems but macOS, where a forked
    child of a process using the system's frameworks may crash)."""
    import multiprocessing

    return sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods()


_STOPS = ("SIGINT", "SIGTERM")


@contextlib.contextmanager
def forking() -> Iterator[None]:
    """Around the start of worker processes: Ctrl-C and SIGTERM wait (blocked in this thread, delivered when the
    block ends), so that a worker forked meanwhile starts with them blocked and no signal reaches it before
    :func:`worker_start` has set its own handling (a forked worker inherits this process's handlers, under which
    SIGTERM would be an exception printed as a traceback). A no-op where signals cannot be blocked."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:
        yield
        return
    old = mask(signal.SIG_BLOCK, [])
    try:
        mask(signal.SIG_BLOCK, [getattr(signal, n) for n in _STOPS if hasattr(signal, n)])
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def worker_start(parent: int) -> None:
    """The first thing a worker process does (``parent``: the pid of the process that started it): Ctrl-C is
    the parent's to handle (it ends the workers), SIGTERM ends the worker at once (the parent's ``terminate``; a
    handler inherited by a fork would turn it into an exception a job could catch), and the worker dies with its
    parent (:func:`die_with`). The two signals, blocked while the worker was forked (:func:`forking`), are then
    let through: one sent meanwhile takes effect now."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(signal.SIG_UNBLOCK, [getattr(signal, n) for n in _STOPS if hasattr(signal, n)])
    die_with(parent)


def die_with(parent: int) -> None:
    """End this process when the process ``parent`` ends, however it ends.

    On Linux the kernel sends SIGKILL when the parent dies (``PR_SET_PDEATHSIG``, asked for through ctypes; it
    takes effect for the parent's thread that forked us, the main thread for wizprint's workers), then the parent is
    checked to be still ours: one that died before the request was made (and left us to init) is not noticed by the
    kernel. Elsewhere, or where the request fails, a watchdog thread looks every :data:`WATCH_EVERY` seconds (or
    at once where multiprocessing gives a handle on the parent) and ends the process when the parent is gone."""
    asked = sys.platform.startswith("linux") and _pdeathsig()
    if os.getppid() != parent:  # it ended before the request above (or before this worker even started)
        os._exit(1)
    if not asked:
        threading.Thread(target=_watch, args=(parent,), name="wizprint-parent-watch", daemon=True).start()


def _pdeathsig() -> bool:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0) == 0)
    except (OSError, AttributeError):  # no C library to ask, or one without prctl
        return False


def _watch(parent: int) -> None:
    """The watchdog: ends this process once ``parent`` is gone (its pid no longer our parent's, or the handle
    multiprocessing keeps on it signalled: Windows keeps a dead parent's pid as the parent's)."""
    sentinel = None
    with contextlib.suppress(Exception):
        import multiprocessing
        from multiprocessing.connection import wait

        proc = multiprocessing.parent_process()
        if proc is not None and proc.pid == parent:
            sentinel = proc.sentinel
    while True:
        if sentinel is not None:
            try:
                gone = bool(wait([sentinel], WATCH_EVERY))
            except OSError:
                gone, sentinel = False, None
        else:
            threading.Event().wait(WATCH_EVERY)
            gone = False
        if gone or os.getppid() != parent:
            os._exit(1)
