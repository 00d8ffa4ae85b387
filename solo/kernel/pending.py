"""Pending work: a rule that takes several steps (a battle, a quest, a response window, a roll) is a small typed,
declared object on the state's stack, with an enum for its step. Each kind's code is registered by its type in the
game's :class:`Rules`, so a reader can jump from a kind to the functions that run it.

A kind registers up to three handlers:

- ``run(state, item) -> bool``: carry the item on; ``True`` when somebody must decide now;
- ``legal(state, item) -> list[Action]``: the choices while it waits for a decision;
- ``apply(state, item, action)``: carry out the chosen action.

Effect words are registered the same way in :class:`Words`: one handler per word of the game's vocabulary, found by
the word; a test checks that every word the card data uses has one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from wizprint.errors import EngineBug

from .fields import Declared
from .values import Action

S = TypeVar("S")
P = TypeVar("P", bound="Pending")
F = TypeVar("F", bound=Callable[..., Any])


class Pending(Declared):
    """Base of every kind of pending work (a game declares a base of its own with the fields all its kinds share)."""

    @property
    def label(self) -> str:
        """The kind in words (for error messages)."""
        return self.kind or type(self).__name__


class Rules(Generic[S]):
    """The handlers of one game's pending kinds, registered by type."""

    def __init__(self, game: str):
        self.game = game
        # the tables, by kind; a game's loop may call ``runners[type(item)]`` (and its state ``legals`` and
        # ``appliers``) directly (it runs hundreds of thousands of items a second: one call fewer each counts)
        self.runners: dict[type[Pending], Callable[[S, Any], bool]] = {}
        self.legals: dict[type[Pending], Callable[[S, Any], list[Action]]] = {}
        self.appliers: dict[type[Pending], Callable[[S, Any, Action], None]] = {}

    def run(self, *kinds: type[P]) -> Callable[[Callable[[S, P], bool]], Callable[[S, P], bool]]:
        def reg(fn: Callable[[S, P], bool]) -> Callable[[S, P], bool]:
            for k in kinds:
                self._add(self.runners, k, fn, "run")
            return fn

        return reg

    def legal(self, *kinds: type[P]) -> Callable[[Callable[[S, P], list[Action]]], Callable[[S, P], list[Action]]]:
        def reg(fn: Callable[[S, P], list[Action]]) -> Callable[[S, P], list[Action]]:
            for k in kinds:
                self._add(self.legals, k, fn, "legal")
            return fn

        return reg

    def apply(self, *kinds: type[P]) -> Callable[[Callable[[S, P, Action], None]], Callable[[S, P, Action], None]]:
        def reg(fn: Callable[[S, P, Action], None]) -> Callable[[S, P, Action], None]:
            for k in kinds:
                self._add(self.appliers, k, fn, "apply")
            return fn

        return reg

    def _add(self, table: dict[type[Pending], Any], kind: type[Pending], fn: Any, what: str) -> None:
        if kind in table:
            raise EngineBug(f"{self.game}: two '{what}' handlers for {kind.__name__}")
        table[kind] = fn

    # -- dispatch -------------------------------------------------------------------------------------------------
    def run_item(self, state: S, item: Pending) -> bool:
        fn = self.runners.get(type(item))
        if fn is None:
            raise EngineBug(f"{self.game}: nothing runs pending {item.label!r}")
        return fn(state, item)

    def legal_for(self, state: S, item: Pending) -> list[Action]:
        fn = self.legals.get(type(item))
        if fn is None:
            raise EngineBug(f"{self.game}: no decision is made in pending {item.label!r}")
        return fn(state, item)

    def apply_to(self, state: S, item: Pending, action: Action) -> None:
        fn = self.appliers.get(type(item))
        if fn is None:
            raise EngineBug(f"{self.game}: no decision is made in pending {item.label!r}")
        fn(state, item, action)

    def unhandled(self, kinds: Iterable[type[Pending]]) -> list[str]:
        """Kinds that lack a run handler, or that take decisions without both a legal and an apply handler."""
        out = []
        for k in kinds:
            if k not in self.runners:
                out.append(f"{k.__name__}: no run handler")
            if (k in self.legals) != (k in self.appliers):
                out.append(f"{k.__name__}: a legal handler needs an apply handler and the other way round")
        return out


class Words(Generic[F]):
    """One handler per effect word of a game's vocabulary, found by the word."""

    def __init__(self, game: str):
        self.game = game
        self.handlers: dict[str, F] = {}

    def __call__(self, *words: str) -> Callable[[F], F]:
        def reg(fn: F) -> F:
            for w in words:
                if w in self.handlers:
                    raise EngineBug(f"{self.game}: two handlers for the effect word {w!r}")
                self.handlers[w] = fn
            return fn

        return reg

    def get(self, word: str) -> F:
        fn = self.handlers.get(word)
        if fn is None:
            raise EngineBug(f"{self.game}: the engine has no handler for the effect word {word!r}")
        return fn

    def missing(self, words: Iterable[str]) -> list[str]:
        """The words among ``words`` that have no handler."""
        return sorted(set(words) - set(self.handlers))
