"""What agents see: an :class:`Agent` chooses an action for a seat; an :class:`Automaton` (a game's heuristic
player) decides from a :class:`SeatView`, which offers only what that seat may know, so the rule that automata do
not read hidden cards is enforced by the type they receive, not only by tests."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, Generic, Protocol, TypeVar

from .rng import Rng
from .state import State
from .values import Action

S = TypeVar("S", bound=State[Any])


class Agent(Protocol):
    name: str

    def choose(self, state: State[Any], seat: int) -> Action: ...


class SeatView(Generic[S]):
    """One seat's view of a game. A game's view class adds the queries its automaton needs, each answering only
    what the seat may know (its own hidden cards; of the others, what is public). The state itself is kept out of
    reach: ``_state()`` is for the view class alone (the lint rule against private access holds automata to it)."""

    __slots__ = ("__state", "seat")

    def __init__(self, state: S, seat: int):
        self.__state = state
        self.seat = seat

    def _state(self) -> S:
        return self.__state

    @property
    def players(self) -> int:
        return self.__state.players

    @property
    def steps(self) -> int:
        return self.__state.steps

    @property
    def current_player(self) -> int:
        return self.__state.current_player

    def legal_actions(self) -> list[Action]:
        return self.__state.legal_actions()

    def observation(self) -> Mapping[str, object]:
        return self.__state.observation(self.seat)


V = TypeVar("V", bound=SeatView[Any])


class Automaton(ABC, Generic[V]):
    """A game's heuristic player: ``decide`` sees only the seat's :class:`SeatView`."""

    name = "automaton"
    View: type[V]

    def __init__(self) -> None:
        self.rng = Rng(0)

    def seed(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State[Any], seat: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.decide(self.View(state, seat))

    @abstractmethod
    def decide(self, view: V) -> Action:
        """The action to take, from what the seat may know."""
