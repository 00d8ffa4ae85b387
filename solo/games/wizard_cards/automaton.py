"""The Wizard Cards automaton: chains Vigor, spends Wrath when it gets through, keeps Ward when ahead, and gives up
its weakest cards to damage. It decides from a :class:`WizardCardsView`: its own hand, and of the rival only what
is public (hand size, wards, damage)."""

from __future__ import annotations

from wizprint.solo.kernel import Action, Automaton, SeatView

from .data import Spell
from .state import Phase, WizardCardsState


class WizardCardsView(SeatView[WizardCardsState]):
    """What one Wizard Cards seat may know."""

    @property
    def phase(self) -> Phase:
        return self._state().phase

    @property
    def variant(self) -> str:
        return self._state().variant

    @property
    def plays_left(self) -> int:
        return self._state().plays_left

    @property
    def hand(self) -> list[str]:
        return list(self._state().hands[self.seat])

    def hand_size(self, seat: int) -> int:
        return len(self._state().hands[seat])

    def damage(self, seat: int) -> int:
        return len(self._state().damage[seat])

    def ward_strength(self, seat: int) -> int:
        s = self._state()
        return sum(s.ward_left[c] for c in s.wards[seat])

    def pile_top(self, suit: str) -> str:
        """The top card of a draft pile (face up)."""
        return self._state().draft_piles[suit][-1]

    def spell(self, card: str) -> Spell:
        """A card's printed school, magnitude and name."""
        return self._state().data.spells[card]


def _value(sp: Spell) -> float:
    """How much a card in hand is worth keeping (for choosing damage discards)."""
    base = {"wrath": 3.0, "ward": 2.0, "vigor": 1.2, "fortune": 1.0, "wild": 5.0}[sp.school]
    return base * sp.magnitude


class WizardCardsAutomaton(Automaton[WizardCardsView]):
    View = WizardCardsView

    def decide(self, v: WizardCardsView) -> Action:
        legal = v.legal_actions()
        if v.phase == Phase.DISCARD:
            return min(legal, key=lambda a: (_value(v.spell(a.a)), a.a))
        if v.phase == Phase.DRAFT:
            # take the pile whose top card is worth most
            return max(legal, key=lambda a: (_value(v.spell(v.pile_top(a.a))), a.a))
        return max(legal, key=lambda a: (self._score(v, a), a.key))

    def _score(self, v: WizardCardsView, a: Action) -> float:
        opp = 1 - v.seat
        opp_ward = v.ward_strength(opp)
        opp_hand = v.hand_size(opp)
        ahead = v.damage(v.seat) < v.damage(opp)
        last_play = v.plays_left <= 1 and v.variant != "hectic"
        others = [v.spell(c) for c in v.hand if c != a.a]
        useful = sum(1 for sp in others if sp.school in ("wrath", "wild") or sp.magnitude >= 2)
        if a.kind == "stop":
            # stop rather than waste a wrath on a ward or throw away a good card
            return 0.5
        sp = v.spell(a.a)
        word, mag = sp.school, sp.magnitude
        if word == "wild":
            word, mag = a.b, 4
        if word == "vigor":
            # chain: worth it when there is something to chain into
            gain = mag - (0 if v.variant == "hectic" else 1)
            return 2.0 + 1.5 * min(gain, useful) if useful else 0.2 + 0.1 * mag
        if word == "wrath":
            through = max(0, mag - opp_ward)
            hits: int = min(through, opp_hand)
            return 4.0 * hits - (1.5 if hits == 0 else 0.0) + 0.1 * mag
        if word == "fortune":
            return 1.5 + 0.4 * mag if v.plays_left > 1 or v.variant == "hectic" else 0.6 + 0.2 * mag
        if word == "ward":
            score = 1.0 + 0.5 * mag
            if ahead:
                score += 2.0
            if last_play:
                score += 1.0
            return score
        return 0.0
