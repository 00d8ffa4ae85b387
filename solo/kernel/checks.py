"""Checks of a loaded state: a saved game is untrusted input. Once every value has its declared type
(``fields.py``), a game's ``check_rules`` asks these of its state, each problem named by its JSON path: one entry
per seat, seats that exist, counts in range, card ids that exist. A check that fails is noted and the others go on;
:meth:`Checks.done` raises :class:`~wizprint.errors.SaveError` with every problem noted so far (call it before a
check that would index a list whose length was found wrong).

>>> c = Checks(players=2)
>>> c.seat("state.turn_player", 2)
>>> c.count("state.skips[0]", -1)
>>> c.problems
['state.turn_player: seat 2 does not exist in a game of 2 players', 'state.skips[0]: -1 is not from 0 to 10000']
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sized
from typing import Any

from wizprint.errors import SaveError, WizprintError, more_line, one_line, quote

MAX_PROBLEMS = 50
_MORE = re.compile(r"\.\.\. and ([0-9,]+) more problems?")


def reason(exc: BaseException) -> str:
    """An exception in words, for a one-line message (a user error's own message; else its type and message)."""
    text = one_line(str(exc), 200)
    if isinstance(exc, WizprintError):
        return text or type(exc).__name__
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class Checks:
    """The problems found in a loaded state (the first :data:`MAX_PROBLEMS` - 1 kept, the rest counted)."""

    def __init__(self, players: int):
        self.players = players
        self.problems: list[str] = []
        self.more = 0

    def fail(self, path: str, message: str) -> None:
        self.add(f"{path}: {message}")

    def add(self, problem: str) -> None:
        """A problem line as it is (``path: message``)."""
        if len(self.problems) < MAX_PROBLEMS - 1:
            self.problems.append(problem)
        else:
            self.more += 1

    def absorb(self, exc: SaveError) -> None:
        """The problems of another check (its count of problems left out is added to this one's)."""
        for p in exc.problems:
            m = _MORE.fullmatch(p)
            if m:
                self.more += int(m.group(1).replace(",", ""))
            else:
                self.add(p)

    def done(self) -> None:
        """Raise :class:`SaveError` if anything was found."""
        if self.problems:
            raise SaveError(self.problems + ([more_line(self.more)] if self.more else []))

    # -- seats ------------------------------------------------------------------------------------------------
    def per_seat(self, path: str, v: Sized) -> bool:
        """``v`` has one entry per seat."""
        if len(v) != self.players:
            self.fail(path, f"expected one entry per seat ({self.players}), got {len(v)}")
            return False
        return True

    def seat(self, path: str, v: int, none: bool = False) -> None:
        """``v`` names a seat (or, with ``none``, is -1 for no seat)."""
        if not (0 <= v < self.players or (none and v == -1)):
            self.fail(path, f"seat {v} does not exist in a game of {self.players} players")

    def seats(self, path: str, vs: Iterable[int], distinct: bool = False) -> None:
        xs = list(vs)
        for i, v in enumerate(xs):
            self.seat(f"{path}[{i}]", v)
        if distinct and len(set(xs)) != len(xs):
            self.fail(path, "a seat is named twice")

    def pending_order(self, stack: list[Any], outer: tuple[type, ...], what: str) -> bool:
        """A live game's stack of pending work (each item with a ``seat``): not empty, started by one of the
        ``outer`` kinds (``what``: "the set-up or a round"), which sit nowhere else, and each item's seat exists.
        False when the stack is empty (nothing more to check)."""
        if not stack:
            self.fail("state.stack", "a game under way has pending work")
            return False
        if not isinstance(stack[0], outer):
            self.fail("state.stack[0]", f"a game's pending work starts with {what}")
        for i, item in enumerate(stack):
            self.seat(f"state.stack[{i}].seat", item.seat)
            if i and isinstance(item, outer):
                self.fail(f"state.stack[{i}]", f"{what} sits only at the bottom")
        return True

    # -- numbers ----------------------------------------------------------------------------------------------
    def count(self, path: str, v: int, lo: int = 0, hi: int = 10_000) -> None:
        """``v`` is a whole number from ``lo`` to ``hi``."""
        if not lo <= v <= hi:
            self.fail(path, f"{v} is not from {lo} to {hi}")

    def counts(self, path: str, vs: Iterable[int], lo: int = 0, hi: int = 10_000) -> None:
        for i, v in enumerate(vs):
            self.count(f"{path}[{i}]", v, lo, hi)

    # -- names ------------------------------------------------------------------------------------------------
    def known(self, path: str, x: str, known: Collection[str], what: str = "card", empty: bool = False) -> bool:
        """``x`` is one of ``known`` (or, with ``empty``, "")."""
        if (empty and x == "") or x in known:
            return True
        self.fail(path, f"no {what} {quote(x, 40)} in this game")
        return False

    def all_known(self, path: str, xs: Iterable[str], known: Collection[str], what: str = "card",
                  distinct: bool = False) -> None:
        seen: set[str] = set()
        for i, x in enumerate(xs):
            self.known(f"{path}[{i}]", x, known, what)
            if distinct and x in seen:
                self.fail(f"{path}[{i}]", f"{quote(x, 40)} is named twice")
            seen.add(x)

    def keys_known(self, path: str, d: Mapping[str, Any], known: Collection[str], what: str = "card") -> None:
        """Every key of ``d`` is one of ``known``."""
        for k in d:
            self.known(f"{path}.{k if len(k) <= 40 else k[:40]}", k, known, what)
