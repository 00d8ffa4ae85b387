"""The kernel's small value types: a move (:class:`Action`), how a game ended (:class:`Outcome` and its
:class:`Termination`), a log line (:class:`LogEntry`), scripted chance (:class:`Chance`) and playtest statistics
(:class:`Stats`)."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypedDict

from wizprint.errors import quote

from .fields import NOT_QUICK, Codec, Declared, Problems, added, codec_for, register_codec, value


class Action(NamedTuple):
    """A move: a ``kind`` and up to two arguments (card instances, targets, choices).

    ``key`` is its canonical text, e.g. ``play QS`` or ``attach I05 W03``; scenario files and logs use it. A named
    tuple (immutable, compared and hashed by its three parts): engines make and compare hundreds of thousands a
    second, and a tuple is made and compared in C.

    >>> Action("attach", "I05", "W03").key
    'attach I05 W03'
    >>> Action.parse("play QS") == Action("play", "QS")
    True
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


class Termination(enum.Enum):
    """How a game ended, as python-chess's ``Termination``: each game declares its endings once, as a subclass
    whose members' values are the words a playtest's report prints for the games that ended so. ``{}`` in the words
    stands for a number of the outcome (:attr:`Outcome.numbers`, in order): the report gives the number all such
    games had, or their range.

    A saved game keeps a termination by its key (the member's name in lower case), read back among the endings of the
    game being loaded (:func:`loading_endings`).

    >>> class Ending(Termination):
    ...     GOAL = "a player reaches {} VP"
    >>> Ending.GOAL.key, Ending.GOAL.said((27,))
    ('goal', 'a player reaches 27 VP')
    """

    @property
    def key(self) -> str:
        """The name of the ending in plain data (a saved game, a playtest's JSON)."""
        return self.name.lower()

    @property
    def words(self) -> str:
        """The words the report prints, ``{}`` standing for each number."""
        return str(self.value)

    def said(self, numbers: Sequence[object]) -> str:
        """The words with the numbers in (each may be a range written as text: ``25-31``)."""
        parts = self.words.split("{}")
        return parts[0] + "".join(str(n) + rest for n, rest in zip(numbers, parts[1:], strict=True))


# the endings of the game whose saved state is being loaded (a termination is saved by its key alone)
_ENDINGS: ContextVar[type[Termination] | None] = ContextVar("wizprint_endings", default=None)


@contextmanager
def loading_endings(endings: type[Termination] | None) -> Iterator[None]:
    """Read saved terminations among ``endings`` (a game's declared endings) within the block."""
    token = _ENDINGS.set(endings)
    try:
        yield
    finally:
        _ENDINGS.reset(token)


class _TerminationCodec(Codec):
    """A termination, saved by its key and loaded among the endings of the game being loaded."""

    def dump_expr(self, expr: str, depth: int) -> str:
        return f"{expr}.key"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        endings = _ENDINGS.get()
        if endings is None:
            errors.add(f"{path}: an ending read where no game's endings are known")
            return None
        found = {m.key: m for m in endings}.get(v) if isinstance(v, str) else None
        if found is None:
            shown = ", ".join(sorted(m.key for m in endings))
            errors.add(f"{path}: expected one of {shown}, got {quote(v, 40) if isinstance(v, str) else 'no name'}")
        return found


register_codec(Termination, _TerminationCodec(), {})


class OutcomeRecord(TypedDict):
    """An outcome as plain data (an observation, a playtest's game result): ``termination`` is the ending's key,
    ``words`` what the report prints for it (``{}`` for each of ``numbers``)."""

    winners: list[int]
    scores: list[float]
    reason: str
    termination: str | None
    words: str
    numbers: list[int]


@value
class Outcome(Declared):
    """How a game ended.

    ``winners``: the winning seats (several on a shared win; all of them on a draw); ``scores``: each seat's score
    as the game counts it; ``reason``: the ending in words, for the players; ``termination``: which of the game's
    declared endings it was (None only in a game saved before endings were declared), with the ``numbers`` its
    words name.
    """

    winners: tuple[int, ...] = ()
    scores: tuple[float, ...] = ()
    reason: str = ""
    termination: Termination | None = added(lambda: None)
    numbers: tuple[int, ...] = added(tuple)

    def returns(self, n: int) -> list[float]:
        """+1 for a sole winner and -1 for the others; a shared win splits; everybody 0 on a full draw.

        >>> Outcome((1,), (0.0, 3.0), "").returns(3)
        [-1.0, 1.0, -1.0]
        """
        if not self.winners or len(self.winners) == n:
            return [0.0] * n
        win = 1.0 if len(self.winners) == 1 else 1.0 / len(self.winners)
        return [win if s in self.winners else -1.0 for s in range(n)]

    def as_dict(self) -> OutcomeRecord:
        t = self.termination
        return {"winners": list(self.winners), "scores": list(self.scores), "reason": self.reason,
                "termination": t.key if t is not None else None, "words": t.words if t is not None else "",
                "numbers": list(self.numbers)}


@value
class LogEntry(Declared):
    """A line of the game log that only some seats may read (``seats``). A line everybody may read is kept as its
    bare text (see :data:`LogLine`)."""

    text: str = ""
    seats: tuple[int, ...] | None = None

    def visible_to(self, seat: int) -> bool:
        return self.seats is None or seat in self.seats


# A line of a state's log: its text when everybody may read it (most lines: a string is made and kept for nothing
# more, and the garbage collector never visits it), else a LogEntry naming the seats that may. Saved games write
# every line as {"text", "seats"} either way.
LogLine = str | LogEntry


def line_text(line: LogLine) -> str:
    return line if line.__class__ is str else line.text  # type: ignore[union-attr]


def line_seats(line: LogLine) -> tuple[int, ...] | None:
    """The seats that may read a line (``None``: everybody)."""
    return None if line.__class__ is str else line.seats  # type: ignore[union-attr]


def readable(line: LogLine, seat: int) -> bool:
    """Whether ``seat`` may read a line of the log."""
    return line.__class__ is str or line.visible_to(seat)  # type: ignore[union-attr]


def _dump_line(line: LogLine) -> dict[str, Any]:
    if line.__class__ is str:
        return {"text": line, "seats": None}
    return line.to_json()  # type: ignore[union-attr]


class _LineCodec(Codec):
    """A log line, saved as ``{"text", "seats"}`` whichever way it is kept (shared by clones: never changed)."""

    def __init__(self) -> None:
        self.entry = codec_for(LogEntry, "LogLine")

    def dump_expr(self, expr: str, depth: int) -> str:
        if expr.isidentifier():  # (a list's item: written out, not a call per line of a long log)
            return f"({{'text': {expr}, 'seats': None}} if {expr}.__class__ is str else {expr}.to_json())"
        return f"dump_line({expr})"

    def quick(self, v: Any) -> Any:
        """A line everybody may read, ``{"text": "...", "seats": null}``: its text."""
        if v.__class__ is dict and len(v) == 2 and "seats" in v and v["seats"] is None:
            text = v.get("text")
            if text.__class__ is str:
                return text
        return NOT_QUICK

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        e = self.entry.load(v, path, errors, depth)
        return e.text if isinstance(e, LogEntry) and e.seats is None else e


register_codec(LogLine, _LineCodec(), {"dump_line": _dump_line})


@value
class Chance(Declared):
    """What chance will bring, scripted (scenario files): ``dice`` are the next die results, ``picks`` the next
    random choices (by the value chosen). In ``strict`` mode a die or a random choice the script does not give is
    an error; otherwise it comes from the state's generator. A value: the state replaces it as the script is used,
    so clones share it for free."""

    dice: tuple[int, ...] = ()
    picks: tuple[str, ...] = ()
    strict: bool = False


@dataclass
class Stats:
    """Per-game tracking for solo checks: which designs each seat drew and played (off in search clones)."""

    drawn: list[dict[str, int]] = field(default_factory=list)
    played: list[dict[str, int]] = field(default_factory=list)
    # a game's own contests by group ("wizard colour: red"): [won, contests, fair share summed]; the check reports
    # each group's win rate against its fair share (Wizards & Relics: battles by wizard colour and rarity)
    groups: dict[str, list[float]] = field(default_factory=dict)
    # a game's own events, counted ("a player is corrupted"): the check reports in how many games each happened
    events: dict[str, int] = field(default_factory=dict)

    def event(self, name: str) -> None:
        self.events[name] = self.events.get(name, 0) + 1

    def contest(self, group: str, won: bool, fair: float) -> None:
        g = self.groups.setdefault(group, [0.0, 0.0, 0.0])
        g[0] += 1.0 if won else 0.0
        g[1] += 1.0
        g[2] += fair

    def add(self, table: list[dict[str, int]], seat: int, design: str) -> None:
        while len(table) <= seat:
            table.append({})
        table[seat][design] = table[seat].get(design, 0) + 1


def one_per_design(cards: Iterable[str]) -> list[str]:
    """The cards sorted, with one instance per design: copies of a design are the same choice.

    >>> one_per_design(["D01#2", "W03", "D01#1"])
    ['D01#1', 'W03']
    """
    # sorted, the copies of a design are next to one another (whatever lies between "D01#1" and "D01#3" starts
    # with "D01#" too), so each card is compared with the design before it only
    out = []
    last = None
    for x in sorted(cards):
        d = x.partition("#")[0]  # design_of(x)
        if d != last:
            last = d
            out.append(x)
    return out


def design_of(instance: str) -> str:
    """``D01#3`` -> ``D01``.

    >>> design_of("D01#3"), design_of("QS")
    ('D01', 'QS')
    """
    i = instance.find("#")
    return instance if i < 0 else instance[:i]
