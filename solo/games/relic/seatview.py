"""What one Relic seat may know, for its automaton: its own hero (Power cards included), the public table (every
hero's attributes, assets, face-up Corruption, the Threat cards on the board, charges), the card data, and the
pending work (public: rolls, battles, questions). Never another seat's Power cards, face-down cards or the decks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from wizprint.cards.model import Effect
from wizprint.solo.kernel import SeatView

from .data import Passives, RelicData, Space
from .heroes import objective
from .pending import Battle, RelicPending
from .state import RelicState

P = TypeVar("P", bound=RelicPending)


class RelicView(SeatView[RelicState]):
    """One seat's view of a game of Relic; every query is about this seat unless it names a space or card."""

    @property
    def data(self) -> RelicData:
        return self._state().data

    @property
    def scenario(self) -> str:
        return self._state().scenario

    @property
    def turn_number(self) -> int:
        return self._state().turn_number

    @property
    def pending(self) -> RelicPending | None:
        """The pending work that waits for this seat's decision."""
        return self._state().pending

    def nearest(self, kind: type[P]) -> P | None:
        """This seat's topmost pending work of ``kind`` (its movement, battle or test)."""
        return self._state().nearest(kind, self.seat)

    # -- this seat's hero -----------------------------------------------------------------------------------------
    @property
    def hand(self) -> list[str]:
        return list(self._state().hands[self.seat])

    @property
    def assets(self) -> list[str]:
        return list(self._state().assets[self.seat])

    @property
    def corruption_face_up(self) -> list[str]:
        return list(self._state().corruption_face_up[self.seat])

    def attribute(self, a: int) -> int:
        return self._state().attributes[self.seat][a]

    @property
    def attributes(self) -> list[int]:
        return list(self._state().attributes[self.seat])

    @property
    def life(self) -> int:
        return self._state().life[self.seat]

    @property
    def influence(self) -> int:
        return self._state().influence[self.seat]

    @property
    def level(self) -> int:
        return self._state().level[self.seat]

    @property
    def position(self) -> str:
        return self._state().positions[self.seat]

    def space(self) -> Space:
        return self._state().space_of(self.seat)

    @property
    def mission(self) -> str:
        return self._state().missions[self.seat]

    def objective(self) -> Effect | None:
        return objective(self._state(), self.seat)

    @property
    def objective_tokens(self) -> list[str]:
        return list(self._state().objective_tokens[self.seat])

    @property
    def mission_progress(self) -> int:
        return self._state().mission_progress[self.seat]

    @property
    def scenario_tokens(self) -> int:
        return self._state().scenario_tokens[self.seat]

    def relics(self) -> int:
        return self._state().relics(self.seat)

    def corruption(self) -> int:
        return self._state().corruption(self.seat)

    def threshold(self) -> int:
        return self._state().threshold(self.seat)

    def power_limit(self) -> int:
        return self._state().power_limit(self.seat)

    def asset_limit(self) -> int:
        return self._state().asset_limit(self.seat)

    def trophy_points(self) -> int:
        return self._state().trophy_points(self.seat)

    def sources(self) -> list[Passives]:
        return self._state().sources(self.seat)

    def can(self, what: str) -> bool:
        return self._state().can(self.seat, what)

    def skill(self, a: int) -> int:
        return self._state().skill(self.seat, a)

    def extra_dice(self, kind: str) -> int:
        return self._state().extra_dice(self.seat, kind)

    def gear(self, kind: str) -> list[str]:
        return self._state().gear(self.seat, kind)

    # -- the public table -----------------------------------------------------------------------------------------
    def charges(self, card: str) -> int:
        """The charge tokens on a card in play."""
        return self._state().charges.get(card, 0)

    def spent(self, card: str) -> bool:
        """A charge was spent from the card this turn."""
        return card in self._state().spent

    def evaded(self, card: str) -> bool:
        return card in self._state().evaded

    def threats_at(self, space: str) -> list[str]:
        return list(self._state().board.get(space, ()))

    def threats_here(self) -> list[str]:
        return list(self._state().threats_here(self.seat))

    def next_space(self, here: str, d: int) -> str:
        return self._state().next_space(here, d)

    @staticmethod
    def bonus_of(p: Passives, form: str, traits: Sequence[str]) -> int:
        return RelicState.bonus_of(p, form, traits)

    def battle_bonus(self, f: Battle) -> int:
        return self._state().battle_bonus(f)

    def enemy_bonus(self, f: Battle) -> int:
        return self._state().enemy_bonus(f)

    def traits(self, f: Battle) -> tuple[str, ...]:
        return self._state().traits(f)
