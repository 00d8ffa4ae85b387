"""Agents choose actions: ``random``, a per-game heuristic ``automaton``, ``mcts`` (determinised Monte Carlo
search) and the human.

An agent sees the state only through what its seat may know: agents other than ``random`` call
``observation(seat)``, ``legal_actions()`` and, for search, ``determinize(seat, rng)``.
"""

from __future__ import annotations

from typing import Protocol

from wizprint.errors import UsageError

from ..core import Action, State
from ..rng import Rng, derive


class Agent(Protocol):
    name: str

    def choose(self, state: State, seat: int) -> Action: ...


class RandomAgent:
    """Uniformly random among the legal actions. Each choice is seeded by the agent's seed and the move number,
    so a saved and resumed game continues exactly as it would have."""

    def __init__(self, seed: int = 0):
        self.name = "random"
        self.base = derive("random", seed)

    def choose(self, state: State, seat: int) -> Action:
        legal = state.legal_actions()
        return legal[Rng(self.base ^ (state.steps * 0x9E3779B97F4A7C15 + seat)).below(len(legal))]


def make_agent(spec: str, game: str, seed: int = 0) -> Agent:
    """``random``, ``automaton``, ``mcts`` (the game's own budget), ``mcts:N`` (N iterations), ``mcts:Ts`` (T seconds
    a move) or ``mcts:N/Ts`` (N iterations, at most T seconds a move: the cap makes the moves depend on the machine's
    speed)."""
    from ..games import get

    name, _, arg = spec.partition(":")
    if name == "random" and not arg:
        return RandomAgent(seed)
    if name == "automaton" and not arg:
        agent: Agent = get(game).automaton()
        if hasattr(agent, "seed"):
            agent.seed(seed)
        return agent
    if name == "mcts":
        from .mcts import MctsAgent

        if not arg:  # the game's budget for about a second a move at most, or 800 iterations
            return MctsAgent(game, iterations=int(get(game).extra.get("mcts_iterations", 800)), seed=seed)
        try:
            its, _, cap = arg.partition("/")
            if cap:  # N iterations, at most T seconds a move
                if not cap.endswith("s"):
                    raise ValueError(cap)
                return MctsAgent(game, iterations=int(its), seconds=float(cap[:-1]), seed=seed, name=f"mcts:{arg}")
            if arg.endswith("s"):
                return MctsAgent(game, iterations=None, seconds=float(arg[:-1]), seed=seed)
            return MctsAgent(game, iterations=int(arg), seed=seed)
        except ValueError:
            pass
    raise UsageError(f"unknown bot {spec!r}: use random, automaton, mcts, mcts:N (iterations), mcts:Ts (seconds) "
                     f"or mcts:N/Ts (N iterations, at most T seconds a move)")
