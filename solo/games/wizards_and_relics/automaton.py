"""The Wizards & Relics automaton: a heuristic player that decides from its seat's view only.

It plays the wizard and relic pair whose chance of winning the battle is worth the cards it spends: the chance
comes from an estimate of the pair's total (base powers, the shrine's effect on the wizard, abilities and
enchantments, expected advantage) against a typical rival total, so strong wizards are kept for shrines that favour
them and weak pairs are thrown into rounds that look lost. It takes a good relic as spoils, ignores the strongest
rival relic, silences the rival ability that gives most, and discards its weakest cards (discard triggers first).
Of its triggers that fire together it resolves those that take or put a card first and those that draw last (the
card put on top is drawn at once; a draw that empties the deck does not shuffle away the card it would take)."""

from __future__ import annotations

import math

from wizprint.solo.kernel import Action, Automaton, SeatView

from .data import Card, Effect, affected
from .pending import Ask, Choose, Round, RoundStep
from .state import WizardsAndRelicsState

TYPICAL_TOTAL = 7.5  # a rival's total in a battle, roughly (a wizard, a relic, a change or two)
TRIGGER_FIRST = {"take": 0, "put": 1, "recall": 2, "draw": 3}  # the order it resolves its triggers in, by word


class WizardsAndRelicsView(SeatView[WizardsAndRelicsState]):
    """What the automaton may ask: its own hand and decks, and what is public."""

    __slots__ = ()

    def hand(self) -> list[str]:
        return sorted(self._state().hands[self.seat])

    def card(self, c: str) -> Card:
        return self._state().data[c]

    def ask(self) -> Choose | None:
        top = self._state().stack[-1] if self._state().stack else None
        return top if isinstance(top, Choose) and top.seat == self.seat else None

    def shrine(self) -> Card | None:
        s = self._state()
        return s.data[s.shrine[0]] if s.shrine else None

    def rivals(self) -> list[int]:
        s = self._state()
        return s.rivals(self.seat) if self.seat in s.fighters else [x for x in range(s.players) if x != self.seat]

    def halls(self) -> list[int]:
        return [len(h) for h in self._state().halls]

    def hall_to_win(self) -> int:
        return self._state().hall_to_win

    def rival_relics(self) -> list[tuple[int, str]]:
        s = self._state()
        return [(x, r) for x in s.rivals(self.seat) for r in s.relics[x]]

    def total(self, seat: int) -> int:
        return self._state().total(seat)

    def discard_pile(self) -> list[str]:
        return list(self._state().discards[self.seat])

    def no_advantage(self) -> bool:
        return self._state().no_advantage

    def hand_check(self) -> bool:
        """Whether the spoils phase's hand check is under way."""
        return any(isinstance(x, Round) and x.step is RoundStep.HAND_CHECK for x in self._state().stack)


def effect_value(e: Effect) -> float:
    """What an effect is worth in power, roughly."""
    w = e.word
    if w == "power":
        n = float(e.get("n", 0))
        return n if not e.get("when") else n * 0.45
    if w == "power_per":
        return float(e.get("n", 1)) * min(float(e.get("most", 3)), 2.5)
    if w == "weaken":
        return float(e.get("n", 1)) * (1.0 if not e.get("when") else 0.45)
    if w in ("reveal_hand", "reveal_deck"):
        return float(e.get("n", 1)) * 1.2
    if w == "discard_for":
        return float(e.get("n", 1)) * 1.0
    if w in ("ignore", "summon", "extra_relic"):
        return 2.0
    if w in ("silence", "advantage_over", "draw", "take", "steadfast", "equalize", "rival_discards"):
        return 0.6
    return 0.3


def trigger_rank(c: Card, fired: str) -> int:
    """When to resolve ``c``'s trigger among others that fired with it: take or put first, draw last."""
    trig = c.has(fired)
    return min((TRIGGER_FIRST.get(e.word, 2) for e in trig.then), default=2) if trig else 2


def card_value(c: Card) -> float:
    """What a card is worth to keep (its power and what its text adds)."""
    return c.power + sum(effect_value(e) for e in c.effects)


class WizardsAndRelicsAutomaton(Automaton[WizardsAndRelicsView]):
    name = "automaton"
    View = WizardsAndRelicsView
    typical = TYPICAL_TOTAL  # a rival's total in a two-player battle
    per_rival = 0.9  # what each further rival adds to the total to beat
    spread = 1.4  # how far (in power) a total is from a sure win or loss
    stake = 10.0  # a battle won, in power; ``high_stake`` when a seat is one wizard from winning
    high_stake = 16.0
    spend = 0.28  # the cost of spending a card, per point of its value
    spoils_relic = 3.0  # the least value of a relic worth taking as spoils instead of a draw

    def __init__(self) -> None:
        super().__init__()
        self._values: dict[str, tuple[Card, float]] = {}  # card id -> (the card, what its text adds to its power)

    def text_value(self, c: Card) -> float:
        """What ``c``'s effects are worth in power (remembered: the search asks for the same cards many times)."""
        got = self._values.get(c.id)
        if got is None or got[0] is not c:
            got = self._values[c.id] = (c, sum(effect_value(e) for e in c.effects))
        return got[1]

    def decide(self, view: WizardsAndRelicsView) -> Action:
        legal = view.legal_actions()
        ch = view.ask()
        if ch is None:
            if legal[0].kind == "lack":  # (the table's player: no wizard or no relic in hand)
                return legal[0]
            if legal[0].kind == "deck":
                return legal[self.rng.below(len(legal))]
            return self.play(view, legal)
        return self.answer(view, ch, legal)

    # -- phase 2 ----------------------------------------------------------------------------------------------
    def estimate(self, view: WizardsAndRelicsView, w: str, r: str) -> float:
        """The pair's expected total."""
        shrine = view.shrine()
        return self._wizard_estimate(view, w, shrine, len(view.rivals())) + self._relic_estimate(view, r)

    def _wizard_estimate(self, view: WizardsAndRelicsView, w: str, shrine: Card | None, rivals: int) -> float:
        if w == "none":
            return 0.0
        wc = view.card(w)
        t = wc.power + self.text_value(wc)
        if shrine is not None and affected(shrine, wc):
            t += self.text_value(shrine)
        if not view.no_advantage():
            t += 0.33 * rivals ** 0.5
        return t

    def _relic_estimate(self, view: WizardsAndRelicsView, r: str) -> float:
        if r == "none":
            return 0.0
        rc = view.card(r)
        return rc.power + self.text_value(rc)

    def play(self, view: WizardsAndRelicsView, legal: list[Action]) -> Action:
        halls = view.halls()
        need = view.hall_to_win()
        rivals = view.rivals()
        stake = self.stake
        if halls[view.seat] == need - 1 or any(halls[x] == need - 1 for x in rivals):
            stake = self.high_stake
        target = self.typical + self.per_rival * (len(rivals) - 1)
        shrine = view.shrine()
        wizards: dict[str, tuple[float, float]] = {}  # card -> (estimate, value spent)
        relics: dict[str, tuple[float, float]] = {}
        for a in legal:
            if a.a not in wizards:
                wc = view.card(a.a) if a.a != "none" else None
                wizards[a.a] = (self._wizard_estimate(view, a.a, shrine, len(rivals)),
                                wc.power + self.text_value(wc) if wc is not None else 0.0)
            if a.b not in relics:
                r = self._relic_estimate(view, a.b)
                relics[a.b] = (r, r)  # a relic's estimate is its value
        best: tuple[float, Action] | None = None
        exp, below, spread, spend = math.exp, self.rng.below, self.spread, self.spend  # (a call per pair)
        for a in legal:
            (we, ws), (re_, rs) = wizards[a.a], relics[a.b]
            p = 1.0 / (1.0 + exp(-(we + re_ - target) / spread))
            score = p * stake - spend * (ws + rs) + below(100) * 1e-4
            if best is None or score > best[0]:
                best = (score, a)
        assert best is not None
        return best[1]

    # -- choices ----------------------------------------------------------------------------------------------
    def answer(self, view: WizardsAndRelicsView, ch: Choose, legal: list[Action]) -> Action:
        ask = ch.ask
        cards = [a for a in legal if a.a]

        def value_of(a: Action) -> float:
            return card_value(view.card(a.a))

        def stop() -> Action:
            return next(a for a in legal if a.kind in ("pass", "stop"))

        if ask is Ask.MULLIGAN:
            return self.mulligan(view, ch, legal)
        if ask is Ask.SHOW:  # (the table's player: every card of the kind, then no more)
            return legal[0]
        if ask in (Ask.HAND_CHECK, Ask.RIVAL_DISCARD):
            return min(cards, key=lambda a: (-1 if view.card(a.a).has("on_discard") else 0, value_of(a), a.a))
        if ask is Ask.DISCARD_FOR:
            hand = view.hand()
            if len(hand) <= 3 or not cards:
                return stop()
            worst = min(cards, key=lambda a: (-1 if view.card(a.a).has("on_discard") else 0, value_of(a), a.a))
            return worst if value_of(worst) <= ch.n + 2.5 else stop()
        if ask is Ask.TRIGGER:
            return min(cards, key=lambda a: (trigger_rank(view.card(a.a), ch.what), a.a))
        if ask is Ask.TAKE and view.hand_check():  # a card taken back would only be discarded again
            cards = [a for a in cards if a.a != ch.card]
        if ask in (Ask.TAKE, Ask.PUT, Ask.SUMMON, Ask.EXTRA_RELIC, Ask.ORDER):
            return max(cards, key=lambda a: (value_of(a), a.a)) if cards else stop()
        if ask is Ask.IGNORE:
            return max(cards, key=lambda a: (view.card(a.a).power, value_of(a), a.a))
        if ask is Ask.SILENCE:
            return max(cards, key=lambda a: (sum(effect_value(e) for e in view.card(a.a).effects), a.a))
        if ask is Ask.SPOILS:
            relics = [a for a in legal if a.kind == "take"]
            if relics:
                best = max(relics, key=lambda a: (value_of(a), a.a))
                if value_of(best) >= self.spoils_relic:
                    return best
            return next(a for a in legal if a.kind == "draw")
        return legal[0]

    def mulligan(self, view: WizardsAndRelicsView, ch: Choose, legal: list[Action]) -> Action:
        """Keep at least two wizards and two relics: set aside the weakest cards of the kind there is too much of."""
        hand = [c for c in view.hand() if c not in ch.picked]
        wiz = [c for c in hand if view.card(c).kind == "wizard"]
        rel = [c for c in hand if view.card(c).kind == "relic"]
        many: list[str] = []
        if len(wiz) < 2 and len(rel) > 4:
            many = rel
        elif len(rel) < 2 and len(wiz) > 4:
            many = wiz
        if many:
            worst = min(many, key=lambda c: (card_value(view.card(c)), c))
            return Action("aside", worst)
        return Action("keep")

