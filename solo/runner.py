"""Play whole games between agents, for solo checks, benchmarks and tests."""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from wizprint.errors import StepCapError, WizprintError, one_line

from .agents import Agent, make_agent
from .kernel import State, Stats, engine
from .kernel.rng import Rng, derive
from .kernel.values import OutcomeRecord


@dataclass
class GameResult:
    index: int
    seed: int
    bots: list[str]  # bot name per seat
    outcome: OutcomeRecord | None = None  # how it ended, with its termination (the ending the game declares)
    turns: int = 0
    steps: int = 0
    error: str | None = None
    step_cap: bool = False
    setting: str | None = None  # what the game was played on, where it varies (Relic: the scenario)
    first: int | None = None  # the seat that moved first, where one does
    choices: list[str | None] = field(default_factory=list)  # each seat's starting choice (Relic: the character)
    drawn: list[dict[str, int]] = field(default_factory=list)
    played: list[dict[str, int]] = field(default_factory=list)
    groups: dict[str, list[float]] = field(default_factory=dict)
    events: dict[str, int] = field(default_factory=dict)

    def points(self, seat: int) -> float | None:
        """1 for a sole win, 0.5 for a shared win or a tie, 0 for a loss; None when the game did not finish."""
        if self.outcome is None:
            return None
        w = self.outcome["winners"]
        if seat in w:
            return 1.0 if len(w) == 1 else 0.5
        return 0.0


ASSIGN = ("bots", "random")  # who makes the starting choices in a check: each seat's bot, or a random draw


def play(state: State[Any], agents: Sequence[Agent], max_steps: int | None = None, assign: Rng | None = None
         ) -> State[Any]:
    """Play ``state`` to the end with one agent per seat; with ``assign``, every starting choice (a character, a
    deck, a draft) is drawn from it at random instead of made by the seat's agent."""
    n = 0
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        elif assign is not None and state.is_starting_choice():
            action = legal[assign.below(len(legal))]
        else:
            action = agents[seat].choose(state, seat)
        state.apply(action)
        n += 1
        if max_steps is not None and n >= max_steps:
            break
    return state


def seats_for(index: int, bots: Sequence[str], players: int) -> list[str]:
    """Bots by seat for game ``index``: the list is repeated to fill the table and rotated by the game number,
    so every bot plays every seat equally often."""
    base = [bots[i % len(bots)] for i in range(players)]
    k = index % players
    return base[k:] + base[:k]


def run_one(game: str, index: int, base_seed: int, bots: Sequence[str], players: int, variant: str = "",
            assign: str = "bots", budget_seconds: float | None = None) -> GameResult:
    """Play game ``index`` of a check: ``game`` is a game id or folder (resolved once per process); ``assign``
    (one of :data:`ASSIGN`) says who makes the starting choices; ``budget_seconds`` bounds every search move."""
    seed = derive(base_seed, index)
    names = seats_for(index, bots, players)
    res = GameResult(index=index, seed=seed, bots=names)
    try:
        eng = engine(game)
        stats = Stats()
        state = eng.new_state(players, seed, variant, stats=stats)
        agents = [make_agent(b, eng, derive(seed, "agent", i), budget_seconds) for i, b in enumerate(names)]
        res.setting = state.setting()
        res.first = state.opening_seat()
        play(state, agents, assign=Rng(derive(seed, "assign")) if assign == "random" else None)
        res.choices = [state.starting_choice(s) for s in range(players)]
        o = state.outcome()
        res.outcome = o.as_dict() if o else None
        res.turns = state.turns_played()
        res.steps = state.steps
        res.drawn = stats.drawn
        res.played = stats.played
        res.groups = stats.groups
        res.events = stats.events
    except StepCapError as exc:
        res.error = str(exc)
        res.step_cap = True
    except WizprintError as exc:  # an engine error, or a game folder its engine cannot play (on a cluster's worker)
        res.error = f"{type(exc).__name__}: {one_line(str(exc))}"
    except Exception as exc:  # a crash in a rules engine is a result to report, with what reproduces it
        tb = traceback.extract_tb(exc.__traceback__)[-1]
        res.error = f"{type(exc).__name__}: {exc} (at {tb.filename.rsplit('/', 1)[-1]}:{tb.lineno})"
    return res
