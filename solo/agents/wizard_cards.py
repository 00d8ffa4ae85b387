"""The Wizard Cards automaton: chains Vigor, spends Wrath when it gets through, keeps Ward when ahead, and
gives up its weakest cards to damage."""

from __future__ import annotations

from ..core import Action, State
from ..games.wizard_cards import WizardCardsState, cards
from ..rng import Rng


def _value(card: str) -> float:
    """How much a card in hand is worth keeping (for choosing damage discards)."""
    word, mag, _, _ = cards()[card]
    base = {"wrath": 3.0, "ward": 2.0, "vigor": 1.2, "fortune": 1.0, "wild": 5.0}[word]
    return base * mag


class WizardCardsAutomaton:
    name = "automaton"

    def __init__(self) -> None:
        self.rng = Rng(0)

    def seed(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: State, seat: int) -> Action:
        assert isinstance(state, WizardCardsState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if state.phase == "discard":
            return min(legal, key=lambda a: (_value(a.a), a.a))
        if state.phase == "draft":
            # take the pile whose top card is worth most
            return max(legal, key=lambda a: (_value(state.piles[a.a][-1]), a.a))
        return max(legal, key=lambda a: (self._score(state, seat, a), a.key))

    def _score(self, s: WizardCardsState, seat: int, a: Action) -> float:
        opp = 1 - seat
        hand = s.hands[seat]
        opp_ward = sum(w[1] for w in s.wards[opp])
        opp_hand = len(s.hands[opp])
        ahead = len(s.damage[seat]) < len(s.damage[opp])
        last_play = s.plays_left <= 1 and s.variant != "hectic"
        others = [c for c in hand if c != a.a]
        useful = sum(1 for c in others if cards()[c][0] in ("wrath", "wild") or cards()[c][1] >= 2)
        if a.kind == "stop":
            # stop rather than waste a wrath on a ward or throw away a good card
            return 0.5
        word, mag, _, _ = cards()[a.a]
        if word == "wild":
            word, mag = a.b, 4
        if word == "vigor":
            # chain: worth it when there is something to chain into
            gain = mag - (0 if s.variant == "hectic" else 1)
            return 2.0 + 1.5 * min(gain, useful) if useful else 0.2 + 0.1 * mag
        if word == "wrath":
            through = max(0, mag - opp_ward)
            hits: int = min(through, opp_hand)
            return 4.0 * hits - (1.5 if hits == 0 else 0.0) + 0.1 * mag
        if word == "fortune":
            return 1.5 + 0.4 * mag if s.plays_left > 1 or s.variant == "hectic" else 0.6 + 0.2 * mag
        if word == "ward":
            score = 1.0 + 0.5 * mag
            if ahead:
                score += 2.0
            if last_play:
                score += 1.0
            return score
        return 0.0
