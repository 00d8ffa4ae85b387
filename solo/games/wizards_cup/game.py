"""A game of Wizards Cup as the kernel, the agents and the terminal use it: the state (``state.py``, its rules
registered by ``phases.py``) with what a seat sees (its :class:`~.view.WizardsCupObservation`), the decisions in
words (``view.py``), the checks of a loaded game (``check.py``) and the mending of a game saved by an earlier version
(``saved.py``). The rules never import this module: it is the top of the package, below only ``__init__``."""

from __future__ import annotations

from collections.abc import Mapping

from wizprint.solo.kernel import Action, Checks, declare

from .check import check_state
from .data import TO_WIN
from .saved import rebuild_in_play, sightings
from .state import WizardsCupState
from .view import WizardsCupObservation, describe, heading, question


@declare
class WizardsCupGame(WizardsCupState):
    """A game of Wizards Cup (the class the engine declares)."""

    def observation(self, seat: int) -> WizardsCupObservation:
        seen = [self.seen_six(x) for x in (0, 1)]
        obs: WizardsCupObservation = {
            "game": self.data.id, "seat": seat, "players": 2, "round": self.round, "duels": self.duels,
            "current": self.current_player, "tokens": list(self.tokens), "to_win": TO_WIN,
            "my_set": sorted(self.sets[seat]), "my_deck": list(reversed(self.decks[seat])),
            "my_plan": list(self.plans[seat]), "my_waiting": list(self.waiting[seat]),
            "deck_sizes": [len(d) + len(p) for d, p in zip(self.decks, self.plans, strict=True)],
            "waiting_sizes": [len(w) for w in self.waiting], "set_sizes": [len(x) for x in self.sets],
            "duel": [list(d) for d in self.duel], "discards": [list(d) for d in self.discards],
            "values": [self.value(x) for x in (0, 1)], "value_sums": [self.value_sum(x) for x in (0, 1)],
            "stopped": [self.stopper(p[-1]) if p else "" for p in self.discards], "identical": self.identical(),
            "last": self.last,
            "pending": self.pending_view(seat), "log": self.visible_log(seat), "heading": heading(self, seat),
            "known": [k[0] for k in seen], "maybe": [k[1] for k in seen], "known_out": [k[2] for k in seen],
        }
        if self.result:
            obs["outcome"] = self.result.as_dict()
        return obs

    def describe(self, action: Action) -> str:
        return describe(self, action)

    def question(self) -> str:
        return question(self)

    def check_rules(self, chk: Checks) -> None:
        check_state(self, chk)

    def upgrade(self, retired: Mapping[str, object]) -> None:
        """A game saved before ``in_play`` and ``earlier``: both rebuilt from the rest of the state (``saved.py``)."""
        if "in_play" in self.missing:
            self.in_play = rebuild_in_play(self)
        if "earlier" in self.missing:
            self.earlier = [[] for _ in range(self.players)]
            for x in range(self.players):
                stretches = sightings(self, x)
                if len(stretches) > 1:
                    self.earlier[x], self.known[x] = stretches[:-1], stretches[-1]
