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

__all__ = ["Agent", "RandomAgent", "make_agent"]

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


def make_agent(spec: str, engine: Engine, seed: int = 0) -> Agent:
    """``random``, ``automaton``, ``mcts`` (the game's own budget), ``mcts:N`` (N iterations), ``mcts:Ts`` (T seconds
    a move) or ``mcts:N/Ts`` (N iterations, at most T seconds a move: the cap makes the moves depend on the machine's
    speed)."""
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
            return MctsAgent(engine, iterations=engine.decl.search_budget, seed=seed)
        its, _, cap = arg.partition("/")
        if cap:
            return MctsAgent(engine, iterations=_iterations(its, spec), seconds=_seconds(cap, spec), seed=seed,
                             name=f"mcts:{arg}")
        if arg.endswith("s"):
            return MctsAgent(engine, iterations=None, seconds=_seconds(arg, spec), seed=seed)
        return MctsAgent(engine, iterations=_iterations(arg, spec), seed=seed)
    raise UsageError(f"unknown bot {quote(spec, 40)}: use {BOTS}")
