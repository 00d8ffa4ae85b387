"""A game driven by its stack of pending work: the loop and the API methods every such game writes the same way.

A state class mixes in :class:`StackGame` before :class:`~.state.State`, declares the fields ``stack`` (its pending
work, top last) and ``current_seat`` itself (so their types are its own), names its :class:`~.pending.Rules` in
``RULES`` and says what begins when nothing is pending (``next_item``: a new round). The mixin gives it
``advance`` (run the pending work until somebody must decide or the game is over), ``current_player``,
``_legal_actions``, ``_apply`` and ``pending_view`` (what is being decided, for an observation)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict

from wizprint.errors import EngineBug

from .pending import Pending, Rules
from .values import Action, Outcome

# table mode (``wizprint.solo.table``): called with the state before each piece of pending work runs, so that the
# driver sees cards come to light one at a time, in the order they do (it may stop the move there by raising)
WATCH: ContextVar[Callable[[Any], None] | None] = ContextVar("wizprint_watch", default=None)


def in_sight(state: Any) -> None:
    """Cards that came to light in the middle of a piece of pending work are about to go out of sight again before it
    ends, or have just gone (a discard pile shuffled into an empty deck, and drawn from at once): table mode's watch,
    if any, sees the state now too."""
    watch = WATCH.get()
    if watch is not None:
        watch(state)


class PendingView(TypedDict, total=False):
    """What is being decided, for one seat's observation (empty when nothing is, or the game is over): ``who``
    decides, the ``question`` (for the deciding seat only; empty for the others) and the kind of choice (``ask``,
    where the pending work names one)."""

    who: int
    question: str
    ask: str


class StackGame(ABC):
    """Mix in before ``State``; see the module's doc."""

    RULES: ClassVar[Rules[Any]]

    if TYPE_CHECKING:  # declared by the game's state class, with its own types
        stack: list[Any]
        current_seat: int
        result: Outcome | None

        def question(self) -> str: ...  # State's: the decision in words

    @abstractmethod
    def next_item(self) -> Pending:
        """What begins when nothing is pending (a new round)."""

    def before_item(self) -> bool:
        """Work that goes before the top of the stack (triggers waiting to be resolved); True when it did some."""
        return False

    def advance(self) -> None:
        """Run the pending work until somebody must decide or the game is over."""
        rules = self.RULES
        runners = rules.runners  # (looked up here: this loop runs every item of every step)
        watch = WATCH.get()
        while self.result is None:
            if watch is not None:
                watch(self)
            if self.before_item():
                continue
            stack = self.stack
            if not stack:
                stack.append(self.next_item())
            item = stack[-1]
            run = runners.get(type(item))
            if run is None:
                rules.run_item(self, item)  # raises: nothing runs this kind
            elif run(self, item):
                return
        self.current_seat = -1

    def pending_view(self, seat: int) -> PendingView:
        """What is being decided, for ``seat``'s observation (:class:`PendingView`)."""
        if not self.stack or self.result is not None:
            return {}
        out: PendingView = {"who": self.current_seat,
                            "question": self.question() if self.current_seat == seat else ""}
        ask = getattr(self.stack[-1], "ask", None)
        if ask is not None:
            out["ask"] = str(ask)
        return out

    @property
    def current_player(self) -> int:
        return -1 if self.result is not None else self.current_seat

    def _legal_actions(self) -> list[Action]:
        if not self.stack:
            raise EngineBug(f"{self.RULES.game}: nothing is waiting for a decision")
        return self.RULES.legal_for(self, self.stack[-1])

    def _apply(self, action: Action) -> None:
        self.RULES.apply_to(self, self.stack[-1], action)
        self.advance()


__all__ = ["WATCH", "PendingView", "StackGame", "in_sight"]
