"""The state of a game of Wizards Cup (``../shared/rules/wizards-cup.txt``): its fields, the continuous Magic
powers (Permanent powers in the Duel zone, Dormant powers on top of a discard pile), each wizard's adjusted Value,
and the OpenSpiel-like surface (legal actions, apply, observation, sampling what a seat cannot see).

Everything that takes steps is pending work on ``stack`` (``pending.py``, run by ``phases.py``). Piles are lists
whose top card is the end: ``decks[seat][-1]`` is the next wizard to duel, ``discards[seat][-1]`` the visible one.
"""

from __future__ import annotations

from dataclasses import field
from functools import lru_cache, reduce
from itertools import combinations
from math import comb
from typing import NamedTuple, Self

from wizprint.errors import EngineError
from wizprint.solo.kernel import Outcome, Rng, Rules, StackGame, State, added, declare, zone

from .data import DECK, SETS, Effect, Wizard, WizardsCupData, WizardsCupTermination
from .pending import KINDS, Round, Setup, SetupStep, WizardsCupPending

# the code of each kind of pending work, registered by type (``phases.py``)
RULES: Rules[WizardsCupState] = Rules("wizards-cup")


@declare
class WizardsCupState(StackGame, State[WizardsCupData]):
    """A game of Wizards Cup (always two players): its fields, the Magic powers in play and the Values; the rules
    (``phases.py``) are registered in :data:`RULES`. What a seat sees, the decisions in words, the load's checks and
    the mending of older saves are added by :class:`~.game.WizardsCupGame`, the class the engine declares."""

    RULES = RULES

    sets: list[list[str]] = zone("set")
    decks: list[list[str]] = zone("deck")
    plans: list[list[str]] = zone("plan")
    waiting: list[list[str]] = zone("waiting")
    duel: list[list[str]] = zone("duel")
    discards: list[list[str]] = zone("discard")
    stack: list[WizardsCupPending] = field(default_factory=list)
    # the wizards whose Magic powers are in play (placed in a Duel zone and come into play there, or the visible top
    # of a discard pile), in the order they came into play: an earlier one has precedence over a later one
    in_play: list[str] = added(list)
    tokens: list[int] = field(default_factory=list)
    known: list[list[str]] = field(default_factory=list)  # each seat's cards seen face up since its last swap
    earlier: list[list[list[str]]] = added(list)  # those seen before each of its swaps, oldest first
    drafted: list[list[str]] = field(default_factory=list)  # the five cards each seat selected (for the check)
    round: int = 0  # rounds begun
    duels: int = 0  # duels fought this round
    doomed: bool = False  # The Shaman acted: both wizards of this duel lose
    current_seat: int = 0
    last: str = ""  # how the last duel was decided (for the view)

    SEATS_IN_RANGE = ("current_seat",)
    PER_SEAT = ("sets", "decks", "plans", "waiting", "duel", "discards", "tokens", "known", "earlier", "drafted")
    ENDINGS = WizardsCupTermination

    # -- set-up -----------------------------------------------------------------------------------------------
    @classmethod
    def blank(cls, data: WizardsCupData, players: int, seed: int, variant: str = "") -> Self:
        if players != 2:
            raise EngineError("Wizards Cup is a game for two players")

        def per() -> list[list[str]]:
            return [[], []]

        return cls(data=data, players=2, variant=variant, rng=Rng(seed), sets=[list(x) for x in data.sets],
                   decks=per(), plans=per(), waiting=per(), duel=per(), discards=per(), tokens=[0, 0], known=per(),
                   earlier=[[], []], drafted=per())

    @classmethod
    def new(cls, data: WizardsCupData, players: int, seed: int, variant: str) -> Self:
        """A new game: each player takes a set (P1 Black, P2 White) and the wizard selection begins."""
        s = cls.blank(data, players, seed, variant)
        s.say(f"P1 takes the {SETS[0]} set, P2 the {SETS[1]} set")
        s.stack.append(Setup())
        s.advance()
        return s

    # -- the Magic powers in play ---------------------------------------------------------------------------------
    def card(self, seat: int) -> Wizard | None:
        """The wizard of ``seat`` in the Duel zone."""
        d = self.duel[seat]
        return self.data.cards[d[0]] if d else None

    def identical(self) -> bool:
        """Two wizards with the same name in the Duel zone: both lose their Magic powers."""
        a, b = self.card(0), self.card(1)
        return a is not None and b is not None and a.name == b.name

    def powers_on(self, seat: int) -> bool:
        """Whether the Magic power of ``seat``'s wizard in the Duel zone acts."""
        return self.card(seat) is not None and not self.identical()

    def permanent(self, seat: int, word: str) -> Effect | None:
        """The effect ``word`` of ``seat``'s wizard in the Duel zone, if it has a Permanent power that acts (the
        wizard has come into play: wizards placed together come into play one after the other, ``phases.py``)."""
        w = self.card(seat)
        if w is None or w.power != "permanent" or not self.powers_on(seat) or self.duel[seat][0] not in self.in_play:
            return None
        return w.has(word)

    def dormant(self, seat: int, word: str) -> Effect | None:
        """The effect ``word`` of the visible top card of ``seat``'s discard pile, if it is a Dormant power that
        acts: no Permanent power in the Duel zone that stops Dormant powers came into play before it (a power
        already in play has precedence over one that comes into play after it)."""
        pile = self.discards[seat]
        if not pile:
            return None
        top = pile[-1]
        w = self.data.cards[top]
        if w.power != "dormant" or self.stopper(top):
            return None
        return w.has(word)

    def stopper(self, card: str) -> str:
        """The wizard in a Duel zone whose Permanent power stops the Dormant power of ``card`` (it came into play
        before ``card``), or ``""``."""
        for x in (0, 1):
            if self.permanent(x, "no_dormant") and self.before(self.duel[x][0], card):
                return self.duel[x][0]
        return ""

    def before(self, a: str, b: str) -> bool:
        """Whether wizard ``a``'s power came into play before ``b``'s (a wizard not in play comes last)."""
        order = self.in_play
        return a in order and (b not in order or order.index(a) < order.index(b))

    def come_into_play(self, card: str) -> None:
        """``card``'s power is in play from now on, after every power already in play."""
        if card in self.in_play:
            self.in_play.remove(card)
        self.in_play.append(card)

    def discard(self, seat: int, card: str) -> None:
        """``card`` (taken from wherever it was) goes face up on top of ``seat``'s discard pile: the card it covers
        is no longer visible, and its own Dormant power comes into play."""
        pile = self.discards[seat]
        if pile and pile[-1] in self.in_play:
            self.in_play.remove(pile[-1])
        pile.append(card)
        self.reveal(seat, card)
        self.come_into_play(card)

    def guarded(self, seat: int) -> bool:
        """The Soldier: the opponent's powers cannot make ``seat`` discard from its Deck or its Waiting card."""
        return self.dormant(seat, "guard") is not None

    def value(self, seat: int) -> int:
        """The adjusted Value of ``seat``'s wizard in the Duel zone: printed, the owner's boosts (Permanent and
        Dormant), the opponent's Permanent weakening."""
        w = self.card(seat)
        if w is None:
            return 0
        v = w.value
        for e in (self.permanent(seat, "boost"), self.dormant(seat, "boost")):
            if e is not None and (e.get("element") is None or e.get("element") == w.element):
                v += int(e.get("n", 0))
        weak = self.permanent(1 - seat, "weaken")
        if weak is not None:
            v -= int(weak.get("n", 0))
        return v

    def value_parts(self, seat: int) -> list[ValuePart]:
        """What makes the Value of ``seat``'s wizard in the Duel zone differ from its printed Value, each with the
        wizard whose power gives it (its own Permanent boost, the Dormant boost of the visible top of its owner's
        discard pile, the opponent's Permanent weakening); a Dormant boost that a Permanent power stops is listed
        with the wizard that stops it and counts nothing. :meth:`value` is the printed Value and the parts."""
        d = self.duel[seat]
        if not d:
            return []
        cards = self.data.cards
        w = cards[d[0]]
        out = []
        if w.power == "permanent":
            own = self.permanent(seat, "boost")
            if own is not None and own.get("element") in (None, w.element):
                out.append(ValuePart(int(own.get("n", 0)), d[0]))
        pile = self.discards[seat]
        if pile and cards[pile[-1]].power == "dormant":
            top = pile[-1]
            boost = cards[top].has("boost")
            if boost is not None and boost.get("element") in (None, w.element):
                out.append(ValuePart(int(boost.get("n", 0)), top, self.stopper(top)))
        other = self.duel[1 - seat]
        if other and cards[other[0]].power == "permanent":
            weak = self.permanent(1 - seat, "weaken")
            if weak is not None:
                out.append(ValuePart(-int(weak.get("n", 0)), other[0]))
        return out

    def value_sum(self, seat: int) -> str:
        """``8 printed +3 from The Alchemist``: the Value of ``seat``'s wizard in the Duel zone by its parts."""
        w = self.card(seat)
        if w is None:
            return ""
        parts = self.value_parts(seat)
        text = f"{w.value} printed" + "".join(f" {p.n:+d} from {self.source(seat, p.card)}" for p in parts
                                               if not p.stopped)
        stopped = [f"{p.n:+d} from {self.source(seat, p.card)} stopped by {self.source(seat, p.stopped)}"
                   for p in parts if p.stopped]
        return text + (f" ({'; '.join(stopped)})" if stopped else "")

    def source(self, seat: int, card: str) -> str:
        """A wizard named for ``seat``'s reader: ``The Alchemist`` when it is ``seat``'s, ``P2's The Nightweaver``
        when it is the opponent's."""
        owner = self.data.owner(card)
        return self.data.cards[card].name if owner == seat else f"P{owner + 1}'s {self.data.cards[card].name}"

    def deck_value(self, seat: int) -> int:
        """The total printed Value of the 6 cards of ``seat``'s current Deck (the tie-break of the game)."""
        return sum(self.data.cards[c].value for c in self.six(seat))

    def six(self, seat: int) -> list[str]:
        """``seat``'s 6 cards, wherever they are this round."""
        return [*self.decks[seat], *self.plans[seat], *self.waiting[seat], *self.duel[seat], *self.discards[seat]]

    def label(self, card: str) -> str:
        return self.data.label(card)

    def names(self, cards: list[str]) -> str:
        return ", ".join(self.label(c) for c in cards) or "nothing"

    def reveal(self, seat: int, card: str) -> None:
        """``card`` of ``seat``'s 6 has been seen by everyone."""
        if card not in self.known[seat]:
            self.known[seat].append(card)

    def swapped(self, seat: int) -> None:
        """``seat`` has swapped one of its 6 (which, no one else knows): what was seen of them is now history."""
        self.earlier[seat].append(sorted(self.known[seat]))
        self.known[seat] = []

    def sightings(self, seat: int) -> tuple[frozenset[str], ...]:
        return (*(frozenset(k) for k in self.earlier[seat]), frozenset(self.known[seat]))

    def seen_six(self, seat: int) -> tuple[list[str], list[str], list[str]]:
        """What everyone knows of ``seat``'s 6 from the cards seen face up and its swaps: the seen cards that are
        among them for certain, those that may have been swapped out, and those that were for certain."""
        if not self.earlier[seat]:
            return sorted(self.known[seat]), [], []
        decks = possible_decks(self.sightings(seat), len(self.data.sets[seat]))
        if not decks:  # a state no play makes (the checks refuse it in a saved game)
            return sorted(self.known[seat]), [], []
        seen = frozenset().union(*self.sightings(seat))
        surely = reduce(frozenset.intersection, (t for t, _ in decks))
        maybe = frozenset().union(*(t for t, _ in decks))
        return sorted(surely), sorted(maybe - surely), sorted(seen - maybe)

    def is_starting_choice(self) -> bool:
        top = self.stack[-1] if self.stack else None
        return isinstance(top, Setup) and top.step is SetupStep.SELECT  # the draft of the five secret picks

    def turns_played(self) -> int:
        return self.round

    # -- running ----------------------------------------------------------------------------------------------
    def next_item(self) -> Round:
        return Round()

    def finish(self, winners: list[int], reason: str, termination: WizardsCupTermination, numbers: tuple[int, ...]
               ) -> None:
        self.result = Outcome(tuple(winners), tuple(float(t) for t in self.tokens), reason, termination, numbers)
        self.say(reason)
        self.stack = []
        self.current_seat = -1

    def _resample(self, into: WizardsCupState, seat: int, rng: Rng) -> None:
        """The opponent's hidden cards redealt: the cards of its set that are not face up (in its Deck, plan,
        Waiting card and the set aside) are shuffled and dealt back into those places by their sizes. Its 6 are
        one of the Decks it can have by what was seen and its swaps (:func:`possible_decks`, each Deck as likely):
        the seen cards of that Deck first, then cards never seen; the seat's own Deck keeps its order."""
        x = 1 - seat
        hidden6 = len(self.decks[x]) + len(self.plans[x]) + len(self.waiting[x])
        pool = sorted([*self.decks[x], *self.plans[x], *self.waiting[x], *self.sets[x]])
        inside = seen = frozenset(self.known[x])
        if self.earlier[x]:
            seen = frozenset().union(*self.sightings(x))
            decks = possible_decks(self.sightings(x), len(self.data.sets[x]))
            if decks:
                inside = one_deck(decks, rng)
        known = [c for c in pool if c in inside]
        rest = [c for c in pool if c not in seen]
        rng.shuffle(known)
        rng.shuffle(rest)
        six = (known + rest)[:hidden6]
        aside = sorted(c for c in pool if c not in set(six))
        rng.shuffle(six)
        into.decks[x] = six[:len(self.decks[x])]
        into.plans[x] = six[len(self.decks[x]):len(self.decks[x]) + len(self.plans[x])]
        into.waiting[x] = six[len(self.decks[x]) + len(self.plans[x]):]
        into.sets[x] = aside
        into.drafted[x] = []
        into.stack = [i.clone() for i in self.stack]

    def probe(self) -> dict[str, object]:
        out = super().probe()
        out |= {"round": self.round, "duels": self.duels, "current": self.current_player, "last": self.last,
                "identical": self.identical()}
        for x in (0, 1):
            out[f"tokens.{x}"] = self.tokens[x]
            out[f"deck.{x}"] = list(reversed(self.decks[x]))
            out[f"deck_size.{x}"] = len(self.decks[x])
            out[f"waiting.{x}"] = list(self.waiting[x])
            out[f"duel.{x}"] = list(self.duel[x])
            out[f"discard.{x}"] = list(self.discards[x])
            out[f"set.{x}"] = sorted(self.sets[x])
            out[f"value.{x}"] = self.value(x)
            out[f"deck_value.{x}"] = self.deck_value(x)
            surely, maybe, out_ = self.seen_six(x)  # what the rival knows of this seat's 6
            out[f"seen_in.{x}"], out[f"seen_maybe_out.{x}"], out[f"seen_out.{x}"] = surely, maybe, out_
        return out

class ValuePart(NamedTuple):
    """A change to a wizard's Value: ``n`` (signed), from ``card``'s power; ``stopped``: the wizard whose power
    stops it (it then counts nothing), or ``""``."""

    n: int
    card: str
    stopped: str = ""


@lru_cache(maxsize=1024)
def possible_decks(sightings: tuple[frozenset[str], ...], total: int) -> tuple[tuple[frozenset[str], int], ...]:
    """The Decks a player can have now, from the cards of its set seen face up between its swaps (``sightings``:
    one set for each stretch between two swaps, oldest first, the last since its last swap; ``total``: the cards of
    its set). A swap takes one card of the 6 out and one set aside in, so each stretch's 6 differ from the last
    stretch's by one card, and hold the cards seen in that stretch. Each Deck is given by the seen cards it holds,
    with how many Decks hold exactly those (the rest of its 6 are any cards never seen)."""
    seen = frozenset().union(*sightings)
    unseen = total - len(seen)
    first = sightings[0]
    free = sorted(seen - first)
    now = {first | frozenset(c) for k in range(max(DECK - len(first) + 1, 0)) for c in combinations(free, k)
           if DECK - len(first) - k <= unseen}
    for need in sightings[1:]:
        after: set[frozenset[str]] = set()
        for t in now:
            hidden_in = DECK - len(t)  # never-seen cards among the 6
            hidden_out = unseen - hidden_in
            outside = seen - t
            for o in t:  # a seen card goes out, for a seen one or one never seen
                after.update((t - {o}) | {i} for i in outside)
                if hidden_out:
                    after.add(t - {o})
            if hidden_in:  # a card never seen goes out, for a seen one or another never seen
                after.update(t | {i} for i in outside)
                if hidden_out:
                    after.add(t)
        now = {t for t in after if need <= t}
    return tuple((t, comb(unseen, DECK - len(t))) for t in sorted(now, key=sorted))


def one_deck(decks: tuple[tuple[frozenset[str], int], ...], rng: Rng) -> frozenset[str]:
    """One of ``decks`` (:func:`possible_decks`) drawn by its number of Decks: each Deck equally likely."""
    if len(decks) == 1:
        return decks[0][0]
    k = rng.below(sum(n for _, n in decks))
    for cards, n in decks:
        if k < n:
            return cards
        k -= n
    return decks[-1][0]


__all__ = ["KINDS", "RULES", "Round", "Setup", "ValuePart", "WizardsCupState", "possible_decks"]
