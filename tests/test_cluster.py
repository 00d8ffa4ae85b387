"""`wizprint solo check --cluster`: the games played on a Dask LocalCluster give the same JSON, byte for byte, and
the same progress as ``--jobs 1``; the answers of workers are checked before they are counted; bad input (the extra
missing, an address where nobody answers, --cluster with --jobs) is one clear line and a non-zero exit."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_helpers import run_here

from wizprint.errors import UsageError
from wizprint.solo.cluster import (
    MAX_FRAME_BYTES,
    ClusterError,
    connect,
    parse_chunk,
    play_chunk,
    scheduler_address,
)
from wizprint.solo.kernel.engine import engine_games
from wizprint.solo.workers import Task, play_task

NEEDS = "needs Dask distributed: pip install 'wizprint[cluster]'"


def wizprint(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wizprint", *args], capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A Dask cluster of two worker processes with one thread each, on this machine; yields a client to it."""
    distributed = pytest.importorskip("distributed", reason=NEEDS)
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0") as lc, \
            distributed.Client(lc, set_as_default=False) as client:
        yield client


def executed(client: Any) -> dict[str, int]:
    """Tasks each worker has run so far."""
    counts: dict[str, int] = client.run(lambda dask_worker: dask_worker.state.executed_count)
    return counts


def test_cluster_check_is_identical_to_one_local_job(cluster: Any, tmp_path: Path) -> None:
    """The JSON holds no timing, so nothing is left out of the comparison: the files must be the same bytes (the
    ladder's matches included). The printed summary and the progress lines (stderr, not a terminal) are the same
    too, and both workers played."""
    game = "wizards-and-relics"
    before = executed(cluster)
    address = cluster.scheduler.address
    runs = {}
    for name, how in (("cluster", ["--cluster", address]), ("local", ["--jobs", "1"])):
        out = tmp_path / f"{name}.json"
        r = wizprint("solo", "check", game, "--games", "40", "--seed", "7", "--bots", "automaton,random", "--ladder",
                     "4", "--ladder-search", "mcts:10", "--json", str(out), *how)
        assert r.returncode == 0, r.stderr
        runs[name] = (out.read_bytes(), r.stdout, r.stderr)
    after = executed(cluster)
    assert runs["cluster"] == runs["local"]
    summary = json.loads(runs["local"][0])
    assert summary["games"] == summary["completed"] == 40 and summary["errors"] == []
    assert [r["games"] for r in summary["ladder"]] == [4, 4]
    assert runs["cluster"][2].endswith(f"[48/48] {game} check: game 48\n")
    played = {w: after[w] - before.get(w, 0) for w in after}
    assert len(played) == 2 and all(n > 0 for n in played.values()), played


def test_a_game_folder_given_by_a_relative_path_plays_on_the_workers(cluster: Any, tmp_path: Path) -> None:
    """`--cluster` with `./folder` (an edited copy of Covenant, its wizards worth 9 VP): the workers, whose working
    folder is elsewhere, play that folder (by its absolute path), as the local run does."""
    import re
    import shutil

    from wizprint.resources import cards_dir

    rich = tmp_path / "rich-wizards"
    shutil.copytree(cards_dir() / "covenant", rich)
    wiz = rich / "wizards.toml"
    wiz.write_text(re.sub(r"^vp = \d+", "vp = 9", wiz.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    outs = []
    for how in (["--cluster", cluster.scheduler.address], ["--jobs", "1"]):
        out = tmp_path / f"{how[0][2:]}.json"
        r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "check", "./rich-wizards", "--games", "20",
                            "--json", str(out), "-q", *how], capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["completed"] == 20


@pytest.mark.parametrize("game", engine_games())
def test_a_chunk_comes_back_from_its_json_unchanged(game: str) -> None:
    """What a worker answers (JSON text) is read back into the very results the chunk's games gave locally, for
    every game's result fields (so the summary cannot differ by the way back)."""
    task: Task = (game, range(3, 5), 11, ["automaton", "random"], 2, "", "random")
    assert parse_chunk(play_chunk(task), task) == play_task(task)


def _answer(task: Task) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(play_chunk(task))
    return data


@pytest.mark.parametrize(("change", "words"), [
    (lambda a: a["results"].pop(), "1 results for 2 games"),
    (lambda a: a["results"][0].update(index=4), "is for another game"),
    (lambda a: a["results"][1].update(seed=1), "is for another game"),
    (lambda a: a["results"][0].update(bots=["random", "random"]), "is for another game"),
    (lambda a: a["results"][0].update(evil="__import__('os')"), "is not a game result"),
    (lambda a: a["results"][0]["outcome"].update(winners=[7]), "malformed outcome"),
    (lambda a: a["results"][0].update(turns=-1, events=[]), "malformed turns, events"),
    (lambda a: a["results"][0].update(drawn=[{"AS": "1"}]), "malformed drawn"),
    (lambda a: a["results"][0].update(groups={"x": [1, 2]}), "malformed groups"),
    (lambda a: a["results"][0].update(step_cap=0), "malformed step_cap"),
    (lambda a: a.update(wizprint="0.0.1"), "runs wizprint '0.0.1'"),
    (lambda a: a.update(extra=1), "something other than results"),
])
def test_a_malformed_answer_is_refused(change: Any, words: str) -> None:
    task: Task = ("wizard-cards", range(3, 5), 11, ["automaton"], 2, "", "bots")
    answer = _answer(task)
    change(answer)
    with pytest.raises(ClusterError, match=words.replace("[", r"\[").replace("(", r"\(")):
        parse_chunk(json.dumps(answer), task)
    for junk in (b"{}", "not json", "[" * 100_000, 42):
        with pytest.raises(ClusterError):
            parse_chunk(junk, task)


def test_addresses() -> None:
    assert scheduler_address("sched.lan") == "tcp://sched.lan:8786"
    assert scheduler_address("tcp://[::1]:9000") == "tcp://[::1]:9000"
    for bad in ("ftp://x:1", "x:99999", "a b", "tcp://x:1/path", "", "x" * 300 + ":1:2"):
        with pytest.raises(UsageError, match="--cluster takes a Dask scheduler's address"):
            scheduler_address(bad)


class Unreachable:
    """`wizprint solo check --cluster 127.0.0.1:PORT` where nothing listens, started in the background: the command
    waits out its own 5 s timeout while this module's other tests run, and the test that reads its result finds it
    done (it waited those 5 s with a whole worker idle). The port is held by a bound socket that does not listen: a
    connection to it is refused, as to a closed port, and nothing else can take the port meanwhile."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        self.args = [sys.executable, "-m", "wizprint", "solo", "check", "wizard-cards", "--games", "4", "--cluster",
                     f"127.0.0.1:{self.port}"]
        self.start = time.monotonic()
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out = ("", "")
        self.elapsed = math.inf  # seconds from the start to the exit
        self.waiter = threading.Thread(target=self._wait, daemon=True)
        self.waiter.start()

    def _wait(self) -> None:
        self.out = self.proc.communicate()
        self.elapsed = time.monotonic() - self.start

    def result(self, timeout: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
        """The finished command and how long it took (a failure when it is still running after ``timeout``)."""
        self.waiter.join(timeout)
        assert not self.waiter.is_alive(), f"still running after {timeout:g} s"
        return subprocess.CompletedProcess(self.args, self.proc.returncode, *self.out), self.elapsed

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.waiter.join()
        self.sock.close()


@pytest.fixture(scope="module", autouse=True)
def unreachable() -> Iterator[Unreachable | None]:
    """Started with this module's first test (autouse), so that its wait overlaps theirs."""
    if importlib.util.find_spec("distributed") is None:
        yield None
        return
    run = Unreachable()
    try:
        yield run
    finally:
        run.close()


def test_an_address_where_nothing_listens_is_one_clear_line(unreachable: Unreachable | None) -> None:
    """The CLI's own timeout (5 s): a refused connection is retried until then, then one line, exit 1."""
    pytest.importorskip("distributed", reason=NEEDS)
    assert unreachable is not None
    port = unreachable.port
    r, elapsed = unreachable.result(timeout=60)
    assert elapsed < 30
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert r.stderr.startswith(f"error: cannot reach a Dask scheduler at tcp://127.0.0.1:{port} within 5 s")
    assert len(r.stderr.strip().splitlines()) == 1 and r.stdout == ""


def test_a_server_that_never_answers_does_not_hang() -> None:
    """A port that accepts the connection and says nothing (not a Dask scheduler) is an error after the timeout:
    Dask's own client would wait without end there."""
    pytest.importorskip("distributed", reason=NEEDS)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(4)
        start = time.monotonic()
        port = s.getsockname()[1]
        with pytest.raises(ClusterError, match=rf"^the scheduler at tcp://127\.0\.0\.1:{port} accepted the "
                                               rf"connection but sent nothing for 0\.5 s; is it a Dask scheduler"):
            connect(f"tcp://127.0.0.1:{port}", timeout=0.5)
        assert time.monotonic() - start < 10


class Peer:
    """A server on a port of this machine that accepts every connection and sends ``first`` (if anything), then
    keeps the connection open and says nothing more, until it is closed."""

    def __init__(self, first: bytes = b"") -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port: int = self.sock.getsockname()[1]
        self.first = first
        self.conns: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:  # closed
                return
            self.conns.append(conn)
            if self.first:
                conn.sendall(self.first)

    def close(self) -> None:
        self.sock.close()
        for conn in self.conns:
            conn.close()


@pytest.mark.parametrize("size", [2**62, MAX_FRAME_BYTES + 1])
def test_a_peer_announcing_a_huge_frame_is_refused_before_anything_is_allocated(size: int) -> None:
    """A peer whose first 8 bytes read as the length of a Dask frame (of 4 EiB, or of just over the limit): one
    clear error at once, and nothing of that size allocated (traced by tracemalloc)."""
    import struct
    import tracemalloc

    pytest.importorskip("distributed", reason=NEEDS)
    peer = Peer(struct.pack("<Q", size))
    tracemalloc.start()
    start = time.monotonic()
    try:
        with pytest.raises(ClusterError, match=rf"^the peer at tcp://127\.0\.0\.1:{peer.port} announced a message "
                                               rf"of {size:,} bytes, more than the 256 MiB"):
            connect(f"127.0.0.1:{peer.port}", timeout=2.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        peer.close()
    assert time.monotonic() - start < 2.0
    assert peak < 64 * 2**20, f"{peak:,} bytes allocated at the peak"


@pytest.fixture()
def silent_listener() -> Iterator[str]:
    """A Dask comm listener (Dask's own handshake) that, once hands are shaken, never answers: its address."""
    distributed = pytest.importorskip("distributed", reason=NEEDS)
    import asyncio

    ready = threading.Event()
    where: list[str] = []
    stop: list[Any] = []

    async def main() -> None:
        async def ignore(comm: Any) -> None:
            await asyncio.sleep(600)

        listener = distributed.comm.listen("tcp://127.0.0.1:0", ignore)
        await listener.start()
        where.append(listener.listen_address)
        done = asyncio.Event()
        stop.append((asyncio.get_running_loop(), done))
        ready.set()
        await done.wait()
        listener.stop()

    thread = threading.Thread(target=asyncio.run, args=(main(),), daemon=True)
    thread.start()
    assert ready.wait(30)
    yield where[0]
    loop, done = stop[0]
    loop.call_soon_threadsafe(done.set)
    thread.join(10)


def test_a_listener_that_shakes_hands_and_goes_silent_is_named(silent_listener: str) -> None:
    start = time.monotonic()
    with pytest.raises(ClusterError, match=rf"^the scheduler at {silent_listener} accepted the connection and shook "
                                           rf"hands but then sent nothing for 0\.5 s; is it a Dask scheduler"):
        connect(silent_listener, timeout=0.5)
    assert time.monotonic() - start < 10


def test_the_cluster_timeout_is_a_usable_number_of_seconds_with_a_cluster(silent_listener: str) -> None:
    port = silent_listener.rsplit(":", 1)[1]
    r = run_here("solo", "check", "wizard-cards", "--games", "4", "--cluster", f"127.0.0.1:{port}",
                 "--cluster-timeout", "0.5")
    assert r.returncode == 1 and r.stderr.startswith(f"error: the scheduler at {silent_listener} accepted the "
                                                     f"connection and shook hands but then sent nothing for 0.5 s")
    assert len(r.stderr.splitlines()) == 1
    for args, words in ((["--cluster", "x", "--cluster-timeout", "nan"], "must be a number of seconds above 0"),
                        (["--cluster", "x", "--cluster-timeout", "0"], "must be a number of seconds above 0"),
                        (["--cluster", "x", "--cluster-timeout", "601"], "and at most 600, not 601"),
                        (["--cluster-timeout", "3"], "--cluster-timeout goes with --cluster")):
        r = run_here("solo", "check", "wizard-cards", "--games", "4", *args)
        assert r.returncode == 2 and words in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr


def test_a_workers_address_is_named_as_such(cluster: Any) -> None:
    """Given a worker's address instead of the scheduler's: one line that says so."""
    worker = next(iter(cluster.scheduler_info()["workers"]))
    with pytest.raises(ClusterError, match=rf"^{worker} is a Dask worker, not the scheduler"):
        connect(worker, timeout=5.0)


def test_a_scheduler_without_workers_is_an_error() -> None:
    distributed = pytest.importorskip("distributed", reason=NEEDS)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp", dashboard_address=":0") as lc, \
            pytest.raises(ClusterError, match=r"has no workers after 0\.3 s"):
        connect(lc.scheduler_address, timeout=2.0, workers_timeout=0.3)


def test_cluster_with_jobs_is_refused() -> None:
    r = run_here("solo", "check", "wizard-cards", "--games", "4", "--jobs", "2", "--cluster", "127.0.0.1:1")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr == "error: --cluster and --jobs do not go together: on a cluster, its workers play the games\n"


def test_without_the_extra_the_message_names_it() -> None:
    """Where distributed is not installed (hidden here, whether or not it is), --cluster says what to install."""
    code = ("import sys; sys.modules['distributed'] = None; from wizprint.cli import main; sys.argv = ['wizprint', "
            "'solo', 'check', 'wizard-cards', '--games', '4', '--cluster', 'tcp://127.0.0.1:1']; main()")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr == ("error: --cluster needs Dask distributed, which is not installed: "
                        "pip install 'wizprint[cluster]'\n")


def test_results_stay_plain_dataclasses() -> None:
    """The fields a worker's answer is checked against are the fields of a game's result: a new field must be
    taught to the check (wizprint.solo.cluster._result_problem) before a cluster can carry it."""
    from wizprint.solo.cluster import _FIELDS
    from wizprint.solo.runner import GameResult

    assert {f.name for f in dataclasses.fields(GameResult)} == _FIELDS == {
        "index", "seed", "bots", "outcome", "turns", "steps", "error", "step_cap", "setting", "first", "choices",
        "drawn", "played", "groups", "events"}
