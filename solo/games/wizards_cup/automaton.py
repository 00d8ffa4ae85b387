"""The Wizards Cup automaton: a heuristic player that decides from its seat's view only.

It drafts by each wizard's strength (the share of the 18 designs it beats in a duel of two wizards placed
together, found by the rules' own duel resolution) and what its power adds, plus what it adds to the wizards
already chosen (a Dormant booster for each wizard of its Element, a new Element; less for a third wizard of one
Element or power type), as a weighted draw (the worthier, the likelier; every wizard sometimes); it keeps its
weakest wizard waiting, plays its boosters first (they help the next wizard from the discard pile once they lose)
and the rest in a varied order, never rearranges, and swaps its weakest wizard for a clearly stronger one between
rounds."""

from __future__ import annotations

import math

from wizprint.solo.kernel import Action, Automaton, SeatView

from .data import Wizard, WizardsCupData
from .game import WizardsCupGame
from .pending import Ask, Choose
from .state import WizardsCupState

NOISE = 0.35  # how much the order varies from game to game
DRAFT_T = 0.12  # the draft's temperature: a wizard worth 0.1 less is taken about 2.3 times less often
SWAP_GAIN = 0.12  # the strength a swap must gain
# what a Magic power is worth beyond a duel of two wizards placed together (the strength), roughly: The Shaman
# trades itself for the rival's best, a Waiting card taken or discarded, a Deck rearranged or a top card sunk
POWER_WORTH = {"both_lose": 0.45, "swap_waiting": 0.2, "discard_waiting": 0.15, "rearrange": 0.12, "sink": 0.1,
               "guard": 0.15, "boost": 0.2, "on_win_discard": 0.1}


class WizardsCupView(SeatView[WizardsCupState]):
    """What the automaton may ask: its own set, Deck and Waiting card, and what is public."""

    __slots__ = ()

    def ask(self) -> Choose | None:
        top = self._state().stack[-1] if self._state().stack else None
        return top if isinstance(top, Choose) and top.seat == self.seat else None

    def data(self) -> WizardsCupData:
        return self._state().data

    def wizard(self, card: str) -> Wizard:
        return self._state().data[card]

    def deck(self) -> list[str]:
        """My Deck (and Waiting card and plan): the cards I am choosing among or have chosen."""
        s = self._state()
        return [*s.decks[self.seat], *s.plans[self.seat], *s.waiting[self.seat]]

    def aside(self) -> list[str]:
        return list(self._state().sets[self.seat])


_STRENGTH: dict[int, tuple[WizardsCupData, dict[str, float]]] = {}


def strength(data: WizardsCupData) -> dict[str, float]:
    """Each design's share of wins in a duel of two wizards placed together, against every design (the rules'
    own resolution, with no other power in play); remembered per card data."""
    got = _STRENGTH.get(id(data))
    if got is not None and got[0] is data:
        return got[1]
    from .phases import decide

    out: dict[str, float] = {}
    designs = sorted(data.designs)
    for d in designs:
        wins = 0.0
        for e in designs:
            s = WizardsCupGame.blank(data, 2, 0)  # a scratch table: two wizards in the Duel zone
            s.duel = [[f"{d}#1"], [f"{e}#2"]]
            s.in_play = [f"{d}#1", f"{e}#2"]
            s.doomed = not s.identical() and any(data[c].has("both_lose") for c in (f"{d}#1", f"{e}#2"))
            losers, _, _ = decide(s)
            wins += 1.0 if losers == [1] else 0.0
        out[d] = wins / len(designs)
    _STRENGTH[id(data)] = (data, out)
    return out


class WizardsCupAutomaton(Automaton[WizardsCupView]):
    name = "automaton"
    View = WizardsCupView

    def decide(self, view: WizardsCupView) -> Action:
        legal = view.legal_actions()
        ch = view.ask()
        st = strength(view.data())
        if ch is None:
            return legal[0]

        def power(c: str) -> float:
            w = view.wizard(c)
            # a Permanent boost is already in the strength (the duel sees it); the other words are not
            return st[w.id] + sum(POWER_WORTH.get(e.word, 0.0) for e in w.effects
                                  if not (w.power == "permanent" and e.word == "boost"))

        def noisy(x: float) -> float:
            return x + NOISE * self.rng.below(1000) / 1000.0

        if ch.ask is Ask.SELECT:  # a weighted draw (Gumbel noise): the stronger, the likelier, none never
            mine = view.deck()
            return max(legal, key=lambda a: (power(a.a) + self.synergy(view, a.a, mine) + DRAFT_T * self.gumbel(), a.a))
        if ch.ask is Ask.WAIT:
            return min(legal, key=lambda a: (noisy(power(a.a)), a.a))
        if ch.ask is Ask.ORDER:
            def first(c: str) -> float:
                w = view.wizard(c)
                boost = w.has("boost")
                helps = boost is not None and w.power == "dormant" and any(
                    view.wizard(o).element == boost.get("element", view.wizard(o).element)
                    for o in view.deck() if o != c)
                return (1.0 if helps else 0.0) + noisy(0.5 * power(c))
            return max(legal, key=lambda a: (first(a.a), a.a))
        if ch.ask is Ask.REARRANGE:
            return Action("keep")
        if ch.ask is Ask.SWAP_OUT:
            deck = [a for a in legal if a.kind == "out"]
            if not deck or not view.aside():
                return Action("keep")
            worst = min(deck, key=lambda a: (power(a.a), a.a))
            best = max(power(c) for c in view.aside())
            return worst if best - power(worst.a) > SWAP_GAIN else Action("keep")
        return max(legal, key=lambda a: (power(a.a), a.a))  # SWAP_IN

    def gumbel(self) -> float:
        u = (self.rng.below(1_000_000) + 0.5) / 1_000_000
        return -math.log(-math.log(u))

    @staticmethod
    def synergy(view: WizardsCupView, card: str, mine: list[str]) -> float:
        """What ``card`` adds to the wizards already in my Deck: a Dormant booster for each of its Element (and
        a wizard for each booster of its Element), a new Element (0.04)."""
        w = view.wizard(card)
        others = [view.wizard(c) for c in mine]
        bonus = 0.0
        b = w.has("boost")
        if b is not None and b.get("element"):
            bonus += 0.06 * sum(1 for o in others if o.element == b.get("element"))
        bonus += 0.06 * sum(1 for o in others if (ob := o.has("boost")) is not None and ob.get("element") == w.element)
        if all(o.element != w.element for o in others):
            bonus += 0.04
        # a team, not a pile of the strongest: a third wizard of one Element or Magic power type is worth less
        if sum(1 for o in others if o.element == w.element) >= 2:
            bonus -= 0.3
        if sum(1 for o in others if o.power == w.power) >= 2:
            bonus -= 0.15
        return bonus


__all__ = ["WizardsCupAutomaton", "WizardsCupView", "strength"]
