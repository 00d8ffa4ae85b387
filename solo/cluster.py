"""``wizprint solo check --cluster ADDRESS``: the check's games on a Dask distributed cluster.

The cluster plays the same chunks of games as the local worker processes (:func:`wizprint.solo.workers.play_task`), and
the results come back, in game order, into the same aggregation, so the summary is the same as ``--jobs 1`` for
the same seed. Each chunk returns as JSON text: plain data, parsed and checked here (every field of every game, and
that it is the game that was asked for) before it is counted. ``distributed`` is an optional extra
(``pip install 'wizprint[cluster]'``) and is imported only when a cluster is used.

Dask's own protocol trusts the scheduler (it unpickles what the scheduler sends), so only clusters one controls
should be used; the address is only connected to. What is checked before the scheduler is trusted: that the peer
answers at all (every wait is bounded: :data:`CONNECT_TIMEOUT`, or ``--cluster-timeout``), that it answers Dask's
handshake and an ``identity`` request as a scheduler does, and that no message it announces is larger than
:data:`MAX_FRAME_BYTES` (a peer that is not Dask, whose first bytes read as a huge length, would otherwise have the
client allocate that much).

How the client talks to Dask: ``distributed.comm.connect`` and a Comm's ``write``/``read``/``close`` for the checks
above, then ``distributed.Client`` (``wait_for_workers``, ``nthreads``, ``submit``, futures' ``result``/``cancel``),
all public; the frame-size cap is the one reach into Dask's internals: it wraps the function of
``distributed.comm.tcp`` that reads a frame of a given length (:func:`_cap_frames`), and without it (another Dask
version) a huge frame is refused as Dask refuses it, by a MemoryError, reported in one line.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import json
import logging
import math
import re
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import fields
from types import TracebackType
from typing import Any

from wizprint import __version__
from wizprint.errors import UsageError, WizprintError, one_line, quote

from .kernel.rng import derive
from .kernel.values import OutcomeRecord
from .runner import GameResult, seats_for
from .workers import Task, bounded_map, play_task, results_as_json

CONNECT_TIMEOUT = 5.0  # seconds to reach the scheduler, and then for each of its answers (--cluster-timeout)
MAX_TIMEOUT = 600.0  # the longest --cluster-timeout
WORKERS_TIMEOUT = 10.0  # seconds to wait for a first worker when the scheduler has none yet
MAX_FRAME_BYTES = 256 * 1024 * 1024  # bytes of one frame a peer may announce: five times the largest answer
DEFAULT_PORT = 8786  # the port `dask scheduler` listens on
MAX_SLOTS = 100_000  # worker threads counted from a scheduler's answer, at most
MAX_CHUNK_TEXT = 50_000_000  # characters of one chunk's answer (a game's result is a few kilobytes)
INSTALL = "pip install 'wizprint[cluster]'"

_ADDRESS = re.compile(r"(?:(?P<scheme>[a-z]+)://)?(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+)(?::(?P<port>\d{1,5}))?")
SCHEMES = ("tcp", "tls")


class ClusterError(WizprintError):
    """The cluster cannot be reached, has no workers, fails a chunk or answers with something other than results."""


def scheduler_address(text: str) -> str:
    """The scheduler's address in Dask's form, from ``HOST``, ``HOST:PORT`` or ``tcp://HOST:PORT`` (``tls://`` too).

    >>> scheduler_address("10.0.0.5")
    'tcp://10.0.0.5:8786'
    >>> scheduler_address("tls://sched.lan:9000")
    'tls://sched.lan:9000'
    """
    m = _ADDRESS.fullmatch(text.strip())
    if m is None or (m["scheme"] or "tcp") not in SCHEMES or not 0 < int(m["port"] or DEFAULT_PORT) < 65536:
        raise UsageError(f"--cluster takes a Dask scheduler's address, HOST[:PORT] or tcp://HOST:PORT (or tls://), "
                         f"not {quote(text)}")
    return f"{m['scheme'] or 'tcp'}://{m['host']}:{m['port'] or DEFAULT_PORT}"


def _distributed() -> Any:
    """The ``distributed`` package (its client API is untyped, hence ``Any``; imported by name, so that type checks
    do not need the extra), or a clear message naming the extra that installs it."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise UsageError(f"--cluster needs Dask distributed, which is not installed: {INSTALL}") from None


def check_timeout(seconds: float) -> float:
    """``--cluster-timeout``: a finite number of seconds above 0, at most :data:`MAX_TIMEOUT`."""
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_TIMEOUT):
        raise UsageError(f"--cluster-timeout must be a number of seconds above 0 and at most {MAX_TIMEOUT:g}, not "
                         f"{seconds:g}")
    return seconds


def connect(address: str, timeout: float = CONNECT_TIMEOUT, workers_timeout: float = WORKERS_TIMEOUT) -> Cluster:
    """Connect to the scheduler at ``address`` and wait for a worker; every step is bounded by its timeout, so an
    address where nothing answers (or something that is not a Dask scheduler) is an error, never a hang."""
    addr = scheduler_address(address)
    dist = _distributed()
    _silence_logs()
    _cap_frames()
    _handshake(dist, addr, timeout)
    try:
        client = dist.Client(addr, timeout=timeout, set_as_default=False)
    except FrameTooLarge as exc:
        raise exc.error(addr) from None
    except (OSError, TimeoutError) as exc:  # asyncio's TimeoutError is the builtin one on Python 3.11+
        if isinstance(exc, TimeoutError) and not str(exc):
            raise _silent(addr, timeout, after="shook hands and answered an identity request") from None
        raise _unreachable(addr, timeout, str(exc) or type(exc).__name__) from None
    try:
        try:
            client.wait_for_workers(1, timeout=workers_timeout)
        except TimeoutError:
            raise ClusterError(f"the Dask scheduler at {addr} has no workers after {workers_timeout:g} s (start "
                               f"some with: dask worker {addr})") from None
        slots = _slots(client.nthreads(), addr)
    except BaseException:
        client.close()
        raise
    return Cluster(client, addr, slots)


def _silence_logs() -> None:
    """Dask's client logs its troubles (a lost scheduler, a failed reconnection) with tracebacks on stderr; the
    check reports each as one line (:class:`ClusterError`) instead."""
    for name in ("distributed", "tornado", *logging.root.manager.loggerDict):
        if name.split(".")[0] in ("distributed", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class FrameTooLarge(Exception):
    """A peer announced a frame of more than :data:`MAX_FRAME_BYTES` bytes (raised inside Dask's read, before
    anything is allocated for it)."""

    def __init__(self, size: int) -> None:
        super().__init__(f"a message of {size:,} bytes announced")
        self.size = size

    def error(self, addr: str) -> ClusterError:
        return ClusterError(f"the peer at {addr} announced a message of {self.size:,} bytes, more than the "
                            f"{MAX_FRAME_BYTES // 2**20} MiB any message of a check may have: it is not a Dask "
                            f"scheduler wizprint can use (is the address that of another service?)")


def _cap_frames() -> None:
    """Refuse frames larger than :data:`MAX_FRAME_BYTES` in every TCP (and TLS) connection Dask makes in this
    process: Dask reads the 8-byte length a peer sends first and allocates that much before reading the frame,
    whatever the length. Dask offers no setting for this, so the function of its TCP transport that does it
    (``distributed.comm.tcp.read_bytes_rw(stream, n)``, not a public API) is wrapped: a larger ``n`` raises
    :class:`FrameTooLarge` first. Where a Dask version has no such function, nothing is wrapped."""
    try:
        tcp = importlib.import_module("distributed.comm.tcp")
    except ImportError:
        return
    read = getattr(tcp, "read_bytes_rw", None)
    if read is None or getattr(read, "__wrapped__", None) is not None:
        return  # another Dask, or already wrapped

    @functools.wraps(read)
    async def capped(stream: Any, n: int) -> Any:
        if n > MAX_FRAME_BYTES:
            raise FrameTooLarge(n)
        return await read(stream, n)

    vars(tcp)["read_bytes_rw"] = capped


def _handshake(dist: Any, addr: str, timeout: float) -> None:
    """Open a connection to ``addr``, shake hands and ask who it is (``identity``, which every Dask server answers),
    each step bounded: the client's own handshake waits without end for a server that accepts the connection and
    then says nothing."""

    async def shake() -> None:
        try:  # the connection is retried (when refused) for up to `timeout` seconds, then the handshake has as long
            comm = await asyncio.wait_for(dist.comm.connect(addr, timeout=timeout), 2 * timeout)
        except TimeoutError:
            raise _silent(addr, timeout) from None
        try:
            await comm.write({"op": "identity", "reply": True})
            try:
                who = await asyncio.wait_for(comm.read(), timeout)
            except TimeoutError:
                raise _silent(addr, timeout, after="shook hands") from None
        finally:
            await comm.close()
        kind = who.get("type") if isinstance(who, dict) else None
        if kind in ("Worker", "Nanny"):
            raise ClusterError(f"{addr} is a Dask {kind.lower()}, not the scheduler: give the scheduler's address "
                               f"(the one `dask worker` was given)")
        if not isinstance(kind, str):
            raise _unreachable(addr, timeout, "it did not answer as a Dask scheduler does")

    try:
        asyncio.run(shake())
    except ClusterError:
        raise
    except FrameTooLarge as exc:
        raise exc.error(addr) from None
    except MemoryError:
        raise ClusterError(f"the peer at {addr} announced a message too large to hold in memory: it is not a Dask "
                           f"scheduler wizprint can use") from None
    except Exception as exc:  # refused, unresolvable, or not Dask's protocol
        raise _unreachable(addr, timeout, str(exc) or type(exc).__name__) from None


def _silent(addr: str, timeout: float, after: str = "") -> ClusterError:
    """A peer that accepted the connection (and did ``after``) and then sent nothing: named as such, with a hint."""
    then = f" and {after} but then" if after else " but"
    return ClusterError(f"the scheduler at {addr} accepted the connection{then} sent nothing for {timeout:g} s; "
                        f"is it a Dask scheduler, and not overloaded? (--cluster-timeout waits longer)")


def _unreachable(addr: str, timeout: float, why: str) -> ClusterError:
    return ClusterError(f"cannot reach a Dask scheduler at {addr} within {timeout:g} s ({one_line(why, 200)}); is "
                        f"`dask scheduler` running there, and its port open to this machine?")


def _slots(nthreads: object, addr: str) -> int:
    """The worker threads of the cluster, from the scheduler's answer (a mapping of worker to thread count)."""
    if not isinstance(nthreads, dict) or not nthreads or not all(
            type(n) is int and n > 0 for n in nthreads.values()):
        raise ClusterError(f"the Dask scheduler at {addr} reported no usable workers")
    return min(MAX_SLOTS, sum(nthreads.values()))


def game_for_workers(game: str) -> str:
    """How the workers find ``game``: a shipped game by its id (every install of wizprint has it), a game folder by
    its absolute path (which must hold the same folder on every worker)."""
    from wizprint.cards.loader import resolve_game_dir
    from wizprint.resources import cards_dir

    root = resolve_game_dir(game).resolve()
    return root.name if root == (cards_dir() / root.name).resolve() else str(root)


def play_chunk(task: Task) -> str:
    """Run on a worker: play one chunk of a playtest, as :func:`wizprint.solo.playtest.run_games` does locally, and
    return the results as JSON text (with the worker's wizprint version)."""
    return json.dumps({"wizprint": __version__, "results": results_as_json(play_task(task))})


class Cluster:
    """A connection to a Dask scheduler that plays chunks of games; close it when done (or use ``with``)."""

    def __init__(self, client: Any, address: str, slots: int) -> None:  # a distributed.Client
        self.client = client
        self.address = address
        self.slots = slots  # worker threads: how many chunks run at once

    def map(self, tasks: Iterable[Task], in_flight: int) -> Iterator[list[GameResult]]:
        """The results of each chunk, in task order, with at most ``in_flight`` chunks submitted at a time."""
        sent: deque[Task] = deque()

        def recorded() -> Iterator[Task]:
            for t in tasks:
                sent.append(t)
                yield t

        # the client's futures, not its concurrent.futures executor, whose futures never end if the scheduler goes
        answers = bounded_map(lambda t: self.client.submit(play_chunk, t, pure=False), recorded(), in_flight)
        try:
            while True:
                try:
                    text = next(answers)
                except StopIteration:
                    return
                except Exception as exc:  # a worker died or lacks wizprint, the scheduler went away...
                    raise ClusterError(f"the cluster at {self.address} failed a chunk of games: "
                                       f"{type(exc).__name__}: {one_line(str(exc), 300)}") from None
                yield parse_chunk(text, sent.popleft(), self.address)
        finally:
            answers.close()  # cancels the chunks still in flight

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
                 ) -> None:
        self.close()


def parse_chunk(text: object, task: Task, address: str = "the cluster") -> list[GameResult]:
    """The results of ``task`` from a worker's answer: JSON text holding one result per game of the task, each of
    the right shape and for the game asked (its index, seed and bots); anything else is a :class:`ClusterError`."""
    t = Task(*task)
    indices, seed, bots, players = t.indices, t.seed, t.bots, t.players

    def bad(what: str) -> ClusterError:
        return ClusterError(f"{address} answered a chunk of games (from game {indices.start}) with {what}")

    if not isinstance(text, str) or len(text) > MAX_CHUNK_TEXT:
        raise bad("something other than results" if not isinstance(text, str) else "too much data")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise bad("text that is not JSON") from None
    if not isinstance(data, dict) or set(data) != {"wizprint", "results"} or not isinstance(data["results"], list):
        raise bad("something other than results")
    if data["wizprint"] != __version__:
        raise ClusterError(f"a worker of {address} runs wizprint {quote(data['wizprint'], 40)}, this machine "
                           f"{__version__}: install the same version on every worker")
    if len(data["results"]) != len(indices):
        raise bad(f"{len(data['results'])} results for {len(indices)} games")
    out = []
    for i, d in zip(indices, data["results"], strict=True):
        problem = _result_problem(d, i, derive(seed, i), seats_for(i, bots, players), players)
        if problem:
            raise bad(f"a result for game {i} that {problem}")
        out.append(GameResult(**d))
    return out


_FIELDS = frozenset(f.name for f in fields(GameResult))
_OUTCOME = OutcomeRecord.__required_keys__


def _is_int(v: object) -> bool:
    return type(v) is int


def _is_num(v: object) -> bool:
    return isinstance(v, int | float) and type(v) is not bool and math.isfinite(v)


def _counts(v: object) -> bool:
    """A mapping of names to counts (cards drawn, events)."""
    return isinstance(v, dict) and all(isinstance(k, str) and _is_int(n) and n >= 0 for k, n in v.items())


def _result_problem(d: object, index: int, seed: int, bots: list[str], players: int) -> str | None:
    """What is wrong with ``d`` as the plain form of a :class:`GameResult` of game ``index``, or None."""
    if not isinstance(d, dict) or set(d) != _FIELDS:
        return "is not a game result"
    if d["index"] != index or not _is_int(d["index"]) or d["seed"] != seed or d["bots"] != bots:
        return "is for another game (index, seed or bots differ)"
    o = d["outcome"]
    if o is not None and not (
            isinstance(o, dict) and set(o) == _OUTCOME and isinstance(o["reason"], str)
            and isinstance(o["winners"], list) and all(_is_int(w) and 0 <= w < players for w in o["winners"])
            and isinstance(o["scores"], list) and all(_is_num(s) for s in o["scores"])
            and (o["termination"] is None or isinstance(o["termination"], str)) and isinstance(o["words"], str)
            and isinstance(o["numbers"], list) and all(map(_is_int, o["numbers"]))
            and len(o["numbers"]) == o["words"].count("{}")):
        return "has a malformed outcome"
    checks: dict[str, bool] = {
        "turns": _is_int(d["turns"]) and d["turns"] >= 0,
        "steps": _is_int(d["steps"]) and d["steps"] >= 0,
        "error": d["error"] is None or isinstance(d["error"], str),
        "step_cap": type(d["step_cap"]) is bool,
        "setting": d["setting"] is None or isinstance(d["setting"], str),
        "first": d["first"] is None or (_is_int(d["first"]) and 0 <= d["first"] < players),
        "choices": isinstance(d["choices"], list) and len(d["choices"]) <= players
                   and all(c is None or isinstance(c, str) for c in d["choices"]),
        "drawn": isinstance(d["drawn"], list) and len(d["drawn"]) <= players and all(map(_counts, d["drawn"])),
        "played": isinstance(d["played"], list) and len(d["played"]) <= players and all(map(_counts, d["played"])),
        "groups": isinstance(d["groups"], dict) and all(
            isinstance(k, str) and isinstance(g, list) and len(g) == 3 and all(map(_is_num, g))
            for k, g in d["groups"].items()),
        "events": _counts(d["events"]),
    }
    wrong = [k for k, ok in checks.items() if not ok]
    return f"has a malformed {', '.join(wrong)}" if wrong else None
