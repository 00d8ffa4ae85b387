"""Game-agnostic agents: ``random``, ``mcts`` (determinised Monte Carlo search) and, by name, each game's own
``automaton`` (which lives in its game package). The human is an agent too (``solo/play.py``).

An agent sees the state only through what its seat may know: ``random`` reads the legal actions, an automaton a
:class:`~wizprint.solo.kernel.SeatView`, and the search bot samples states with ``determinize(seat, rng)``.
"""

from __future__ import annotations

import math

from wizprint.errors import UsageError, quote
from wizprint.solo.kernel import Action, Agent, Engine, State
from wizprint.solo.kernel.rng import below_once, derive

from .mcts import MOVE_SECONDS

__all__ = ["MOVE_SECONDS", "Agent", "RandomAgent", "make_agent"]

MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 3600.0


class RandomAgent:
    """Uniformly random among the legal actions. Each choice is seeded by the agent's seed and the move number,
    so a saved and resumed game continues exactly as it would have."""

    def __init__(self, seed: int = 0):
        self.name = "random"
        self.base = derive("random", seed)

    def choose(self, state: State, seat: int) -> Action:  # type: ignore[type-arg]
        legal = state.legal_actions()
        return legal[below_once(self.base ^ (state.steps * 0x9E3779B97F4A7C15 + seat), len(legal))]


BOTS = ("random, automaton, mcts (the game's own budget), mcts:N (N iterations), mcts:Ts (T seconds a move) or "
        "mcts:N/Ts (N iterations, at most T seconds a move)")
# the rule of a search bot's time, for the commands' help and messages
TIME_RULE = (f"a search move ends at its iterations or after {MOVE_SECONDS:g} s of computing, whichever comes first "
             "(mcts:Ts: after T seconds)")


def _iterations(text: str, spec: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 9) or not 1 <= int(text) <= MAX_ITERATIONS:
        raise UsageError(f"bot {quote(spec, 40)}: the iterations must be a whole number from 1 to {MAX_ITERATIONS:,}")
    return int(text)


def _seconds(text: str, spec: str) -> float:
    if not text.endswith("s"):
        raise UsageError(f"bot {quote(spec, 40)}: a time is written with an s, like mcts:2s")
    try:
        v = float(text[:-1])
    except ValueError:
        raise UsageError(f"bot {quote(spec, 40)}: {quote(text[:-1], 40)} is not a number of seconds") from None
    if not math.isfinite(v) or not 0 < v <= MAX_SECONDS:
        raise UsageError(f"bot {quote(spec, 40)}: the seconds must be a number above 0 and at most {MAX_SECONDS:g}")
    return v


def budget_seconds(value: float | None, option: str = "--budget-seconds") -> float | None:
    """A command's bound on every search move, checked: a finite number of seconds above 0, at most
    :data:`MAX_SECONDS` (None: no bound given)."""
    if value is not None and (not math.isfinite(value) or not 0 < value <= MAX_SECONDS):
        raise UsageError(f"{option} must be a number of seconds above 0 and at most {MAX_SECONDS:g}, not {value!r}")
    return value


def _least(a: float, b: float | None) -> float:
    return a if b is None else min(a, b)


def make_agent(spec: str, engine: Engine, seed: int = 0, seconds: float | None = None) -> Agent:
    """``random``, ``automaton``, ``mcts`` (the game's own budget), ``mcts:N`` (N iterations), ``mcts:Ts`` (T seconds
    a move) or ``mcts:N/Ts`` (N iterations, at most T seconds a move: the cap makes the moves depend on the machine's
    speed).

    A search move is always bounded by time: ``mcts`` and ``mcts:N`` stop after :data:`MOVE_SECONDS` of CPU time
    if their iterations take longer, ``mcts:Ts`` and
    ``mcts:N/Ts`` after T seconds; ``seconds`` (a command's ``--budget-seconds``) bounds every search move to that
    many seconds on the clock too."""
    budget_seconds(seconds, "seconds")
    name, _, arg = spec.strip().partition(":")
    if name == "random" and not arg:
        return RandomAgent(seed)
    if name == "automaton" and not arg:
        agent = engine.automaton()
        seeder = getattr(agent, "seed", None)
        if callable(seeder):
            seeder(seed)
        return agent
    if name == "mcts":
        from .mcts import MctsAgent

        if not arg:
            return MctsAgent(engine, iterations=engine.decl.search_budget, seconds=seconds, seed=seed)
        its, _, cap = arg.partition("/")
        if cap:
            return MctsAgent(engine, iterations=_iterations(its, spec), seconds=_least(_seconds(cap, spec), seconds),
                             seed=seed, name=f"mcts:{arg}", ceiling=None)
        if arg.endswith("s"):
            t = _seconds(arg, spec)
            return MctsAgent(engine, iterations=None, seconds=_least(t, seconds), seed=seed, name=f"mcts:{t:g}s",
                             ceiling=None)
        return MctsAgent(engine, iterations=_iterations(arg, spec), seconds=seconds, seed=seed)
    raise UsageError(f"unknown bot {quote(spec, 40)}: use {BOTS}")
