"""What one Relic seat may know, for its automaton: its own hero (Power cards included), the public table (every
hero's attributes, assets, face-up Corruption, the Threat cards on the board, charges), the card data, and the
pending work (public: rolls, battles, questions). Never another seat's Power cards, face-down cards or the decks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from wizprint.cards.model import Effect
from wizprint.solo.kernel import SeatView

from .data import Passives, RelicData, Space
from .heroes import objective
from .pending import Battle, RelicPending
from .state import RelicState

P = TypeVar("P", bound=RelicPending)
FEATURE_CACHE = 20_000  # seat combinations whose estimates are kept per data (cleared when full)


class RelicView(SeatView[RelicState]):
    """One seat's view of a game of Relic; every query is about this seat unless it names a space or card.

    A view lives for one decision (the automaton is handed a new one each time), so ``memo`` keeps the automaton's
    estimates while it compares its options: the state cannot change under them."""

    def __init__(self, state: RelicState, seat: int):
        super().__init__(state, seat)
        self._st = state  # the view's own way to the state (one attribute read, not a call: it is read a lot)
        self.data: RelicData = state.data
        self.memo: dict[tuple[object, ...], Any] = {}
        self.icon_terms: list[float | None] = [None, None, None]  # ``Estimates.icon_value`` by colour
        self.dists: dict[str, dict[str, float]] = {}  # ``estimates.dist_to`` by goal, for this seat
        self.tokens: Sequence[str] = state.objective_tokens[seat]  # the spaces of its objective tokens (not a copy)
        self._relics = -1
        self._features: dict[tuple[object, ...], Any] | None = None

    @property
    def features(self) -> dict[tuple[object, ...], Any]:
        """The automaton's estimates that read only the seat's character, assets (their charges, spent or not),
        face-up Corruption cards and attributes, and the scenario (battle scores and odds, test odds, attribute
        weights): kept with the data by those, from one decision to the next (they change far less often than the
        rest of the table)."""
        got = self._features
        if got is None:
            st = self._st
            s = self.seat
            assets = st.assets[s]
            charges, spent = st.charges, st.spent
            key = (st.scenario, st.characters[s], tuple(assets), tuple(st.corruption_face_up[s]),
                   tuple(st.attributes[s]), tuple([charges.get(a, 0) for a in assets]) if charges else (),
                   tuple([a in spent for a in assets]) if spent else ())
            kept = self.data.feature_memos
            got = kept.get(key)
            if got is None:
                if len(kept) >= FEATURE_CACHE:
                    kept.clear()
                got = kept[key] = {}
            self._features = got
        return got

    @property
    def scenario(self) -> str:
        return self._st.scenario

    @property
    def turn_number(self) -> int:
        return self._st.turn_number

    def goal_key(self) -> tuple[int, int, int]:
        """What the automaton's goal is kept by (``Estimates.goal``): the turn, the seat and the step in 25s (one
        call, not three property reads: it is asked at nearly every decision)."""
        st = self._st
        return (st.turn_number, self.seat, st.steps // 25)

    @property
    def pending(self) -> RelicPending | None:
        """The pending work that waits for this seat's decision."""
        return self._st.pending

    def nearest(self, kind: type[P]) -> P | None:
        """This seat's topmost pending work of ``kind`` (its movement, battle or test)."""
        return self._st.nearest(kind, self.seat)

    # -- this seat's hero -----------------------------------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        return len(self._st.hands[self.seat])

    @property
    def hand(self) -> list[str]:
        return list(self._st.hands[self.seat])

    @property
    def assets(self) -> list[str]:
        return list(self._st.assets[self.seat])

    @property
    def corruption_face_up(self) -> list[str]:
        return list(self._st.corruption_face_up[self.seat])

    def attribute(self, a: int) -> int:
        return self._st.attributes[self.seat][a]

    @property
    def attributes(self) -> list[int]:
        return list(self._st.attributes[self.seat])

    @property
    def life(self) -> int:
        return self._st.life[self.seat]

    @property
    def influence(self) -> int:
        return self._st.influence[self.seat]

    @property
    def level(self) -> int:
        return self._st.level[self.seat]

    @property
    def position(self) -> str:
        return self._st.positions[self.seat]

    def space(self) -> Space:
        return self._st.space_of(self.seat)

    @property
    def mission(self) -> str:
        return self._st.missions[self.seat]

    def objective(self) -> Effect | None:
        return objective(self._st, self.seat)

    @property
    def objective_tokens(self) -> list[str]:
        return list(self._st.objective_tokens[self.seat])

    @property
    def mission_progress(self) -> int:
        return self._st.mission_progress[self.seat]

    @property
    def scenario_tokens(self) -> int:
        return self._st.scenario_tokens[self.seat]

    def relics(self) -> int:
        n = self._relics
        if n < 0:
            n = self._relics = self._st.relics(self.seat)
        return n

    def corruption(self) -> int:
        return self._st.corruption(self.seat)

    def threshold(self) -> int:
        return self._st.threshold(self.seat)

    def power_limit(self) -> int:
        return self._st.power_limit(self.seat)

    def asset_limit(self) -> int:
        return self._st.asset_limit(self.seat)

    def trophy_points(self) -> int:
        return self._st.trophy_points(self.seat)

    def sources(self) -> list[Passives]:
        return self._st.sources(self.seat)

    def sources_bonus(self, form: str, traits: Sequence[str]) -> int:
        """The battle bonuses of the seat's sources (``sources``) in a battle of ``form`` against ``traits``."""
        return sum([n for fm, n, vs in self._st.kit(self.seat).battle_bonus
                    if (fm == "any" or fm == form) and (not vs or vs in traits)])

    def can(self, what: str) -> bool:
        return self._st.can(self.seat, what)

    def skill(self, a: int) -> int:
        return self._st.skill(self.seat, a)

    def extra_dice(self, kind: str) -> int:
        return self._st.extra_dice(self.seat, kind)

    def gear(self, kind: str) -> list[str]:
        return self._st.gear(self.seat, kind)

    # -- the public table -----------------------------------------------------------------------------------------
    def charges(self, card: str) -> int:
        """The charge tokens on a card in play."""
        return self._st.charges.get(card, 0)

    def spent(self, card: str) -> bool:
        """A charge was spent from the card this turn."""
        return card in self._st.spent

    def evaded(self, card: str) -> bool:
        return card in self._st.evaded

    def threats_at(self, space: str) -> list[str]:
        return list(self._st.board.get(space, ()))

    def board_at(self, space: str) -> Sequence[str]:
        """The Threat cards on a space, not copied (the caller must not change them)."""
        return self._st.board.get(space, ())

    def threats_here(self) -> list[str]:
        return list(self._st.threats_here(self.seat))

    def next_space(self, here: str, d: int) -> str:
        return self._st.next_space(here, d)

    @staticmethod
    def bonus_of(p: Passives, form: str, traits: Sequence[str]) -> int:
        return RelicState.bonus_of(p, form, traits)

    def battle_bonus(self, f: Battle) -> int:
        return self._st.battle_bonus(f)

    def enemy_bonus(self, f: Battle) -> int:
        return self._st.enemy_bonus(f)

    def traits(self, f: Battle) -> tuple[str, ...]:
        return self._st.traits(f)
