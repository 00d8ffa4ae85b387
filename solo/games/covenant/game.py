"""A game of Covenant of Wizards as the kernel, the agents and the terminal use it: the state (``state.py``; the
pending work's code registered by ``windows.py``, ``duel.py`` and ``quest.py``; what a phase offers in
``phases.py``) with the loop that resolves the pending work until somebody must decide, the legal actions and
``apply``, what a seat sees (its :class:`~.observation.CovenantObservation`), the decisions in words (``view.py``)
and the checks of a loaded game (``check.py``). The rules never import this module: it is the top of the package,
below only ``__init__``."""

from __future__ import annotations

from typing import Self

from wizprint.solo.kernel import Action, Checks, declare
from wizprint.solo.kernel.screen import TwoStep

from .check import check_state
from .data import HAND, CovenantData
from .observation import CovenantObservation, TableView
from .phases import apply_phase, phase_actions
from .state import IN_HAND, RULES, CovenantState, Phase
from .view import describe, heading, question, two_step, under_way


@declare
class CovenantGame(CovenantState):
    """A game of Covenant of Wizards (the class the engine declares)."""

    @classmethod
    def new(cls, data: CovenantData, players: int, seed: int, variant: str, table_seat: int = -1) -> Self:
        """A new game: the shared deck shuffled, seven cards each, seat 0's first turn (``table_seat``: the seat
        played with printed cards on a real table, if any)."""
        s = cls.blank(data, players, seed, variant)
        s.table_seat = table_seat
        deck = sorted(data.cards)
        s.rng.shuffle(deck)
        s.deck = deck
        for seat in range(players):
            s.draw(seat, HAND, why="the starting hand")
        s.begin_turn(0)
        s.advance()
        return s

    def check_rules(self, chk: Checks) -> None:
        """A loaded game (see ``check.py``): cards in play of the types their zones hold, attachments on wizards in
        play, what each seat has seen, the phase matching the result, whose decision it is, and the pending work."""
        check_state(self, chk)

    def advance(self) -> None:
        """Resolve everything automatic until somebody must decide (or the game is over)."""
        runners = RULES.runners
        while self.phase is not Phase.OVER:
            if self.stack:
                top = self.stack[-1]
                run = runners.get(type(top))  # (``run_item`` raises: nothing runs this kind)
                if run(self, top) if run is not None else RULES.run_item(self, top):
                    self.current_seat = top.who
                    return
                continue
            if self.phase is Phase.DISCARD:
                if len(self.hands[self.turn_player]) > self.hand_limit(self.turn_player):
                    self.current_seat = self.turn_player
                    return
                self.phase = Phase.EVENT
                continue
            acts = phase_actions(self)
            if len(acts) == 1 and (self.turn_player != self.table_seat or self.idle_whatever_the_hand()):
                self.end_phase()
                continue
            self.current_seat = self.turn_player
            self.next_legal = acts  # the legal actions (nothing changes before the decision)
            return
        self.current_seat = -1

    def idle_whatever_the_hand(self) -> bool:
        """Whether the turn player could do nothing in this phase whatever cards it held (a hand of one card of
        every design), or holds none: the table seat's phase is skipped only then."""
        return not self.hands[self.turn_player] or len(phase_actions(self, self.data.every_design)) == 1

    def _legal_actions(self) -> list[Action]:
        if not self.stack:
            return phase_actions(self)
        return RULES.legal_for(self, self.stack[-1])

    def _apply(self, action: Action) -> None:
        if not self.stack:
            apply_phase(self, action)
        else:
            RULES.apply_to(self, self.stack[-1], action)
        self.advance()

    # -- what a seat sees ---------------------------------------------------------------------------------------
    def table(self, seat: int) -> TableView:
        return {"wizards": {w: list(self.attached.get(w, ())) for w in self.wizards[seat]},
                "followers": list(self.followers[seat]), "resources": list(self.resources[seat]),
                "quests": list(self.quests[seat])}

    def observation(self, seat: int) -> CovenantObservation:
        n = self.players
        mine = IN_HAND[seat]
        obs: CovenantObservation = {
            "game": self.data.id, "seat": seat, "players": n, "phase": str(self.phase), "turn": self.turn_number,
            "turn_player": self.turn_player, "current": self.current_player, "hand": sorted(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands], "deck": len(self.deck), "discard": list(self.discard),
            "limbo": list(self.limbo), "table": [self.table(s) for s in range(n)],
            "vp": [self.vp(s) for s in range(n)], "skips": list(self.skips), "acted": list(self.acted),
            "duelled": list(self.duelled), "granted": {w: list(v) for w, v in self.granted.items()},
            "grants_used": list(self.grants_used), "summons": [str(x) for x in self.summons],
            "stack": [{"kind": f.kind, **f.to_json()} for f in self.stack],
            "seen": {x: z.code for x, z in sorted(self.seen[seat].items())},
            "seen_by": {str(t): sorted(x for x, z in self.seen[t].items() if z == mine)
                        for t in range(n) if t != seat},
            "log": self.visible_log(seat),
            "under_way": under_way(self, seat), "heading": heading(self, seat),
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
