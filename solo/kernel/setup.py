"""Helpers for a game's scenario set-up (the ``[setup]`` table of a scenario file): card instances handed out once
each, per-seat lists, and typed values, with errors that name the key (the scenario runner adds its line)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from wizprint.errors import EngineError, quote

from .values import design_of


class SetupError(EngineError):
    """A ``[setup]`` value that cannot be used; ``key`` is the set-up key it belongs to."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(f"[setup] {key}: {message}")


class Placer:
    """Hands out the card instances of a game: each may be named once; a design id whose card has copies takes
    its next free copy (``D01`` -> ``D01#2`` once ``D01#1`` is placed)."""

    def __init__(self, instances: Iterable[str]):
        self.all = list(instances)
        self.known = set(self.all)
        self.used: set[str] = set()
        self.copies: dict[str, list[str]] = {}
        for x in self.all:
            if "#" in x:
                self.copies.setdefault(design_of(x), []).append(x)
        for v in self.copies.values():
            v.sort(key=lambda x: (len(x), x))

    def take(self, item: Any, key: str) -> str:
        if not isinstance(item, str):
            raise SetupError(key, f"a card id is a string, not {quote(item)}")
        x: str = item
        if x not in self.known:
            free = [i for i in self.copies.get(x, ()) if i not in self.used]
            if not free:
                raise SetupError(key, f"unknown card or no free copy of {quote(x, 40)}")
            x = free[0]
        if x in self.used:
            raise SetupError(key, f"card {quote(x)} is named twice")
        self.used.add(x)
        return x

    def take_all(self, xs: Any, key: str) -> list[str]:
        if not isinstance(xs, list):
            raise SetupError(key, f"expected a list of card ids, not {quote(xs)}")
        return [self.take(x, key) for x in xs]

    def rest(self) -> list[str]:
        """The cards not named anywhere, sorted."""
        return sorted(self.known - self.used)


def per_seat(table: Mapping[str, Any], key: str, players: int, default: Any) -> list[Any]:
    """A per-seat list of the set-up (missing seats get ``default``, a function of no arguments); more entries
    than seats is an error."""
    v = table.get(key, [])
    if not isinstance(v, list):
        raise SetupError(key, f"expected a list with one entry per seat, not {quote(v)}")
    if len(v) > players:
        raise SetupError(key, f"{len(v)} seats given for {players} players")
    return list(v) + [default() for _ in range(players - len(v))]


def whole(table: Mapping[str, Any], key: str, default: int, lo: int = 0, hi: int = 10_000) -> int:
    v = table.get(key, default)
    return check_whole(v, key, lo, hi)


def check_whole(v: Any, key: str, lo: int = 0, hi: int = 10_000) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise SetupError(key, f"expected a whole number from {lo} to {hi}, not {quote(v)}")
    return v


def seat(table: Mapping[str, Any], key: str, default: int, players: int) -> int:
    return whole(table, key, default, 0, players - 1)


def text(table: Mapping[str, Any], key: str, default: str, allowed: Iterable[str] | None = None) -> str:
    v = table.get(key, default)
    if not isinstance(v, str):
        raise SetupError(key, f"expected a string, not {quote(v)}")
    if allowed is not None:
        opts = list(allowed)
        if v not in opts:
            raise SetupError(key, f"{quote(v)} is not one of {', '.join(opts)}")
    return v


def name(v: Any, key: str, known: Collection[str], what: str, empty: bool = False) -> str:
    """``v`` is a string naming one of ``known`` (or, with ``empty``, "")."""
    if not isinstance(v, str):
        raise SetupError(key, f"expected a {what} id, not {quote(v)}")
    if v not in known and not (empty and v == ""):
        raise SetupError(key, f"unknown {what} {quote(v)}")
    return v


def names(v: Any, key: str, known: Collection[str], what: str) -> list[str]:
    """``v`` is a list of strings, each naming one of ``known``."""
    if not isinstance(v, list):
        raise SetupError(key, f"expected a list of {what} ids, not {quote(v)}")
    return [name(x, key, known, what) for x in v]
