"""A game of Wizards & Relics as the kernel, the agents and the terminal use it: the state (``state.py``, its rules
registered by ``phases.py`` and ``effects.py``) with the deal of a new game, what a seat sees (its
:class:`~.view.WizardsAndRelicsObservation`), the decisions in words (``view.py``) and the checks of a loaded game
(``check.py``). The rules never import this module: it is the top of the package, below only ``__init__``."""

from __future__ import annotations

from typing import Self

from wizprint.solo.kernel import Action, Checks, declare
from wizprint.solo.kernel.screen import TwoStep

from .check import check_state
from .data import WizardsAndRelicsData
from .pending import Setup
from .phases import deal
from .state import WizardsAndRelicsState
from .view import WizardsAndRelicsObservation, describe, heading, pending_view, question, two_step


@declare
class WizardsAndRelicsGame(WizardsAndRelicsState):
    """A game of Wizards & Relics (the class the engine declares)."""

    @classmethod
    def new(cls, data: WizardsAndRelicsData, players: int, seed: int, variant: str) -> Self:
        """A new game: the rarity piles shuffled and dealt into four decks, the shrines shuffled, the Master
        Wizard chosen at random (the rulebook: the most wizardly player); then the players choose their decks."""
        s = cls.blank(data, players, seed, variant)
        deal(s)
        s.master = int(s.pick([str(i) for i in range(players)], "Master Wizard of the first round"))
        s.say(f"P{s.master + 1} is the Master Wizard of the first round")
        s.stack.append(Setup(seat=s.master))
        s.advance()
        return s

    def check_rules(self, chk: Checks) -> None:
        check_state(self, chk)

    def observation(self, seat: int) -> WizardsAndRelicsObservation:
        n = self.players
        obs: WizardsAndRelicsObservation = {
            "game": self.data.id, "seat": seat, "players": n, "round": self.round, "battle": self.battle,
            "master": self.master, "current": self.current_player, "hall_to_win": self.hall_to_win,
            "hand": sorted(self.hands[seat]), "hand_sizes": [len(h) for h in self.hands],
            "deck_sizes": [len(d) for d in self.decks], "piles": [len(p) for p in self.piles],
            "my_deck": sorted(self.decks[seat]) if self.chosen_deck[seat] >= 0 else [],
            "discards": [list(d) for d in self.discards], "halls": [list(h) for h in self.halls],
            "wizards": [list(w) for w in self.wizards], "relics": [list(r) for r in self.relics],
            "tied": [list(t) for t in self.tied], "shrine": list(self.shrine), "shrine_pile": len(self.shrine_pile),
            "shrines_used": list(self.shrines_used), "fighters": list(self.fighters), "losers": list(self.losers),
            "committed": self.commits.view(seat) if self.commits.order else {},
            "mods": [{"seat": m.seat, "n": m.n, "source": m.source, "colour": m.colour, "wizard": m.wizard,
                      "why": m.why} for m in self.mods],
            "ignored": list(self.ignored), "silenced": list(self.silenced), "no_advantage": self.no_advantage,
            "drawn": list(self.drawn), "equalized": list(self.equalized),
            "totals": {str(s): self.table_total(s) for s in self.fighters} if self.battle_open() else {},
            "advantage": {str(s): self.advantage(s) for s in self.fighters}
            if self.battle_open() and self.advantage_checked() else {},
            "last_totals": {str(k): v for k, v in self.last_totals.items()},
            "known_hand": [list(k) for k in self.known_hand], "known_top": [list(k) for k in self.known_top],
            "chosen_deck": list(self.chosen_deck),
            "pending": pending_view(self, seat),
            "log": self.visible_log(seat), "heading": heading(self, seat),
        }
        if self.result:
            obs["outcome"] = self.result.as_dict()
        return obs

    def describe(self, action: Action) -> str:
        return describe(self, action)

    def question(self) -> str:
        return question(self)

    def two_step(self, legal: list[Action]) -> TwoStep | None:
        return two_step(self, legal)
