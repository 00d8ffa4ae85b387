"""The engine core, after OpenSpiel's Python game API.

A :class:`State` holds a whole game: whose decision it is (``current_player``), the ``legal_actions()``,
``apply(action)``, ``is_terminal()``, ``returns()``, what one seat may see (``observation(seat)``), ``clone()``
and a JSON round trip. One seeded :class:`~wizprint.solo.rng.Rng` inside the state makes every chance event
(shuffles, dice); a scenario may script the dice instead. Illegal actions raise
:class:`~wizprint.errors.IllegalActionError`; a game that runs past its step cap raises
:class:`~wizprint.errors.StepCapError`.

Card instances are named by design id, with ``#n`` for the n-th copy of a design with copies
(``D01#3``); logs, actions and scenario files use these names.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from wizprint.errors import EngineError, IllegalActionError, StepCapError

from .rng import Rng


@dataclass(frozen=True, slots=True)
class Action:
    """A move: a ``kind`` and up to two arguments (card instances, targets, choices).

    ``key`` is its canonical text, e.g. ``play QS`` or ``attach I05 W03``; scenario files and logs use it.
    """

    kind: str
    a: str = ""
    b: str = ""

    @property
    def key(self) -> str:
        return " ".join(p for p in (self.kind, self.a, self.b) if p)

    def __str__(self) -> str:
        return self.key

    @staticmethod
    def parse(text: str) -> Action:
        parts = text.split()
        if not parts or len(parts) > 3:
            raise ValueError(f"an action is a word and up to two arguments, not {text!r}")
        return Action(*parts)


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seats (several on a shared win; all on a draw), scores, and why."""

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    reason: str

    def returns(self, n: int) -> list[float]:
        """+1 for a sole winner and -1 for the others; a shared win splits; everybody 0 on a full draw."""
        if not self.winners or len(self.winners) == n:
            return [0.0] * n
        win = 1.0 if len(self.winners) == 1 else 1.0 / len(self.winners)
        return [win if s in self.winners else -1.0 for s in range(n)]

    def as_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> Outcome | None:
        """The inverse of :meth:`as_dict` (``None`` stays ``None``: the game is not over)."""
        return cls(tuple(d["winners"]), tuple(d["scores"]), d["reason"]) if d else None


@dataclass
class LogEntry:
    text: str
    seats: tuple[int, ...] | None = None  # who may see it; None = everybody

    def as_list(self) -> list[Any]:
        return [self.text, list(self.seats) if self.seats is not None else None]


class Dice:
    """Dice rolled from the state's RNG, or from a script (scenario files); in strict mode an unscripted roll is
    an error."""

    __slots__ = ("script", "strict")

    def __init__(self, script: Sequence[int] | None = None, strict: bool = False):
        self.script: list[int] = list(script or [])
        self.strict = strict


@dataclass
class Stats:
    """Per-game tracking for solo checks: which designs each seat drew and played (off in search clones)."""

    drawn: list[dict[str, int]] = field(default_factory=list)
    played: list[dict[str, int]] = field(default_factory=list)

    def add(self, table: list[dict[str, int]], seat: int, design: str) -> None:
        while len(table) <= seat:
            table.append({})
        table[seat][design] = table[seat].get(design, 0) + 1


def frame_out(f: Mapping[str, Any]) -> dict[str, Any]:
    """A frame of an engine's resolution stack as JSON data (tuples become lists)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in f.items()}


def frame_in(f: Mapping[str, Any]) -> dict[str, Any]:
    """A frame back from JSON data (lists become tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in f.items()}


def design_of(instance: str) -> str:
    """``D01#3`` -> ``D01``."""
    i = instance.find("#")
    return instance if i < 0 else instance[:i]


class State(ABC):
    """Base class of every game's state. Subclasses implement the ``_``-methods."""

    game_id: ClassVar[str] = ""
    step_cap: ClassVar[int] = 10_000

    def __init__(self, players: int, seed: int):
        self.players = players
        self.rng = Rng(seed)
        self.steps = 0
        self.log: list[LogEntry] = []
        self.dice = Dice()
        self.stats: Stats | None = None
        self._legal: list[Action] | None = None

    # -- the API ----------------------------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide next, or -1 when the game is over."""

    def legal_actions(self) -> list[Action]:
        """The actions the current player may take (cached until the next ``apply``)."""
        if self._legal is None:
            self._legal = [] if self.is_terminal() else self._legal_actions()
        return self._legal

    def apply(self, action: Action) -> None:
        """Take an action for the current player; an action that is not legal raises and changes nothing."""
        if self.is_terminal():
            raise IllegalActionError(f"the game is over; {action.key!r} cannot be played")
        legal = self.legal_actions()
        if action not in legal:
            shown = ", ".join(a.key for a in legal[:12]) + (" ..." if len(legal) > 12 else "")
            raise IllegalActionError(f"{action.key!r} is not legal now for seat {self.current_player} "
                                     f"(legal: {shown})")
        self.steps += 1
        if self.steps > self.step_cap:
            raise StepCapError(f"{self.game_id}: the game passed its step cap of {self.step_cap} steps")
        self._legal = None
        self._apply(action)
        self._legal = None

    def apply_key(self, key: str) -> Action:
        """Apply the legal action whose key is ``key`` (scenario files, the terminal)."""
        for a in self.legal_actions():
            if a.key == key:
                self.apply(a)
                return a
        raise IllegalActionError(f"{key!r} is not a legal action now (legal: "
                                 f"{', '.join(a.key for a in self.legal_actions()[:12])})")

    @abstractmethod
    def _legal_actions(self) -> list[Action]:
        """The legal actions of a live state (the base class caches them)."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Carry out a legal action (the base class has checked it)."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once terminal, else None."""

    def returns(self) -> list[float]:
        o = self.outcome()
        return o.returns(self.players) if o else [0.0] * self.players

    @abstractmethod
    def observation(self, seat: int) -> dict[str, Any]:
        """Everything seat ``seat`` may see, as JSON-able data; never another seat's hidden cards."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    @abstractmethod
    def from_json(cls, data: Mapping[str, Any]) -> State: ...

    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Every card instance by zone; each instance is in exactly one zone."""

    @abstractmethod
    def card_instances(self) -> Collection[str]:
        """Every card instance of the game (for :meth:`check_zones`)."""

    def check_zones(self) -> None:
        """Every card instance in exactly one of :meth:`zones` (raises otherwise)."""
        every = self.card_instances()
        found = [x for z in self.zones().values() for x in z]
        if len(found) != len(every) or set(found) != set(every):
            dup = sorted({x for x in found if found.count(x) > 1})
            missing = sorted(set(every) - set(found))
            raise EngineError(f"{self.game_id}: the cards are not each in one zone (twice: {dup}; missing: {missing})")

    @abstractmethod
    def determinize(self, seat: int, rng: Rng) -> State:
        """A state consistent with what ``seat`` observes, with the hidden cards (and the future of the RNG)
        drawn from ``rng``. The result must depend only on ``observation(seat)`` and ``rng``."""

    def describe(self, action: Action) -> str:
        """A readable label for an action (names and ids of the cards it names)."""
        return action.key

    def probe(self) -> dict[str, Any]:
        """Named values for scenario expectations (``hand.0``, ``damage.1``...)."""
        return {}

    # -- helpers for subclasses -------------------------------------------------------------------------------
    def roll(self, sides: int = 6) -> int:
        if self.dice.script:
            v = self.dice.script.pop(0)
            if not 1 <= v <= sides:
                raise EngineError(f"scripted die {v} is not a d{sides} result")
            return v
        if self.dice.strict:
            raise EngineError("a die was rolled that the scenario does not script (strict mode)")
        return self.rng.randint(1, sides)

    def say(self, text: str, seats: Iterable[int] | None = None) -> None:
        self.log.append(LogEntry(text, tuple(seats) if seats is not None else None))

    def visible_log(self, seat: int, last: int = 40) -> list[str]:
        out = [e.text for e in self.log if e.seats is None or seat in e.seats]
        return out[-last:]

    def _base_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "players": self.players, "rng": self.rng.state, "steps": self.steps,
                "log": [e.as_list() for e in self.log], "dice": list(self.dice.script), "strict": self.dice.strict}

    def _base_load(self, data: Mapping[str, Any]) -> None:
        self.rng = Rng(int(data["rng"]))
        self.steps = int(data["steps"])
        self.log = [LogEntry(t, tuple(s) if s is not None else None) for t, s in data.get("log", [])]
        self.dice = Dice(data.get("dice", []), bool(data.get("strict", False)))

    def _base_clone_into(self, other: State) -> None:
        other.players = self.players
        other.rng = self.rng.copy()
        other.steps = self.steps
        other.log = list(self.log)
        other.dice = Dice(self.dice.script, self.dice.strict)
        other.stats = None
        other._legal = None

    def note_draw(self, seat: int, card: str) -> None:
        if self.stats is not None:
            self.stats.add(self.stats.drawn, seat, design_of(card))

    def note_play(self, seat: int, card: str) -> None:
        if self.stats is not None:
            self.stats.add(self.stats.played, seat, design_of(card))


class Commitments:
    """Simultaneous secret choices (Wizards & Relics, Wizards Cup): each seat commits in turn; until all have
    committed, the others see only *that* a seat has committed, never the choice."""

    def __init__(self, seats: Sequence[int]):
        self.order = list(seats)
        self.chosen: dict[int, Any] = {}

    @property
    def waiting(self) -> int:
        for s in self.order:
            if s not in self.chosen:
                return s
        return -1

    def commit(self, seat: int, value: Any) -> None:
        if seat != self.waiting:
            raise IllegalActionError(f"seat {seat} cannot commit now (waiting for seat {self.waiting})")
        self.chosen[seat] = value

    @property
    def complete(self) -> bool:
        return all(s in self.chosen for s in self.order)

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: its own choice, and only whether each other seat has committed."""
        return {str(s): (self.chosen.get(s) if s == seat or self.complete else ("committed" if s in self.chosen
                                                                                   else None))
                for s in self.order}

    def to_json(self) -> dict[str, Any]:
        return {"order": self.order, "chosen": {str(k): v for k, v in self.chosen.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Commitments:
        c = cls(data["order"])
        c.chosen = {int(k): v for k, v in data["chosen"].items()}
        return c
