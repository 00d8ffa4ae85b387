"""A game of Wizard Cards as the kernel, the agents and the terminal use it: the state (``state.py``: its fields and
every rule) with what a seat sees (its :class:`~.view.WizardCardsObservation`) and its decisions in words
(``view.py``). The rules never import this module: it is the top of the package, below only ``__init__``."""

from __future__ import annotations

from wizprint.solo.kernel import Action, declare

from .state import Phase, WizardCardsState
from .view import WizardCardsObservation, describe, question


@declare
class WizardCardsGame(WizardCardsState):
    """A game of Wizard Cards (the class the engine declares)."""

    def observation(self, seat: int) -> WizardCardsObservation:
        opp = 1 - seat
        srt = self.data.sorted
        obs: WizardCardsObservation = {
            "game": self.data.id, "variant": self.variant, "seat": seat, "phase": str(self.phase),
            "current": self.current_player, "turn": self.turn_number + 1, "turn_player": self.turn_player,
            "first": self.first_player, "hand": srt(self.hands[seat]), "opponent_hand": len(self.hands[opp]),
            "spell_discard": list(self.discard), "damage": [list(d) for d in self.damage],
            "wards": [[(c, self.ward_left[c]) for c in ws] for ws in self.wards], "spell": list(self.cast),
            "plays_left": self.plays_left, "pending_discards": self.damage_due, "end_after_turn": self.last_turn,
            "log": self.visible_log(seat),
            "heading": "Draft" if self.phase == Phase.DRAFT else f"turn {self.turn_number + 1}",
            "deck": len(self.decks[seat]) if self.decks else len(self.spell_pile),
        }
        if self.decks:
            obs["opponent_deck"] = len(self.decks[opp])
            # the draft was public: each side knows which cards the other holds in hand and deck together
            obs["own_deck_cards"] = srt(self.decks[seat])
            obs["opponent_cards"] = srt(self.decks[opp] + self.hands[opp])
            obs["piles"] = {s: list(p) for s, p in self.draft_piles.items()}
            obs["drafter"] = self.drafter
        if self.result:
            obs["outcome"] = self.result.as_dict()
        return obs

    def describe(self, action: Action) -> str:
        return describe(self, action)

    def question(self) -> str:
        return question(self)
