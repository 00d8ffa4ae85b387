"""Stopping: a held block (a folder swapped or cleaned up) holds Ctrl-C and SIGTERM even when another thread runs;
a worker process ends with its parent where the kernel cannot be asked to end it (the watchdog), and one whose
parent ended before it was set up ends at once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from wizprint.atomic import held_signals

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the processes in /proc")


def _running(pid: int) -> bool:
    """The process exists and is not a zombie (from /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="signals cannot be blocked here")
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_held_block_holds_a_signal_that_another_thread_receives(sig: str) -> None:
    """With a second thread running (a progress bar's), the system hands a signal blocked in the main thread to
    that thread: the block still ends before the handler runs, and the handler runs once it has ended."""
    from wizprint.processes import Terminated, stop_on_sigterm

    old = signal.getsignal(signal.SIGTERM)
    stop_on_sigterm()
    expected: type[BaseException] = Terminated if sig == "SIGTERM" else KeyboardInterrupt
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    reached = []
    try:
        with pytest.raises(expected), held_signals():
            os.kill(os.getpid(), getattr(signal, sig))
            for _ in range(2000):  # many chances for a handler to run (each call is one)
                time.sleep(0)
            reached.append("end of the block")
    finally:
        release.set()
        other.join()
        signal.signal(signal.SIGTERM, old)
    assert reached == ["end of the block"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.pthread_sigmask(signal.SIG_BLOCK, []) == set()


_WATCHED = """
import multiprocessing, os, sys, time
import wizprint.processes as processes

processes._pdeathsig = lambda: False  # as on a system whose kernel cannot be asked: the watchdog thread watches


def work(parent):
    processes.worker_start(parent)
    time.sleep(60)


if __name__ == "__main__":
    worker = multiprocessing.get_context(sys.argv[1]).Process(target=work, args=(os.getpid(),))
    worker.start()
    print(worker.pid, flush=True)
    time.sleep(60)
"""


@linux_only
@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_without_the_kernels_help_a_worker_ends_with_its_killed_parent(tmp_path: Path, start: str) -> None:
    script = tmp_path / "watched.py"
    script.write_text(_WATCHED)
    parent = subprocess.Popen([sys.executable, str(script), start], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    try:
        time.sleep(0.5)  # the worker is set up and waiting
        assert _running(worker)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 5
        while _running(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(worker)
    finally:
        if _running(worker):
            os.kill(worker, signal.SIGKILL)
        parent.stdout.close()


_LATE = """
import os, sys, time
from wizprint.processes import worker_start

parent = os.getpid()
if os.fork() == 0:
    time.sleep(0.5)  # the parent has ended meanwhile
    worker_start(parent)
    open(sys.argv[1], "w").write("a worker left behind")
    os._exit(0)
"""


@linux_only
def test_a_worker_whose_parent_ended_before_it_was_set_up_ends_at_once(tmp_path: Path) -> None:
    trace = tmp_path / "trace.txt"
    subprocess.run([sys.executable, "-c", _LATE, str(trace)], check=True, timeout=60)
    time.sleep(1.5)
    assert not trace.exists()
