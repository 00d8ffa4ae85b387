"""What Covenant's effect words do when a card resolves: one handler per word in :data:`EFFECTS`, found by the
word. :func:`start_effect` first chooses the effect's target (asking the player when there is a choice: a
:class:`~.pending.Choice`), then :func:`do_effect` runs the word's handler.

A handler is ``(state, seat, effect, target, card)``: ``seat`` resolves ``effect`` of ``card`` on ``target`` (a card,
a seat number, or "" for none).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from wizprint.cards.markup import plural
from wizprint.solo.kernel import Words, one_per_design

from .data import TARGETED, CardEffect
from .pending import Choice, Duel, Lookup, Negation, Quest, Roll, Slaying, Theft
from .texts import DOES, TYPE_NAMES

if TYPE_CHECKING:
    from .state import CovenantState

Handler = Callable[["CovenantState", int, CardEffect, str, str], None]
EFFECTS: Words[Handler] = Words("covenant")


def targets(s: CovenantState, seat: int, word: str, what: str) -> list[str]:
    """The legal targets of an effect for ``seat`` (cards, or seats as numbers)."""
    c = s.data.cards
    if word == "steal" or word == "destroy" or word == "slay":
        if word == "steal" and what == "item" and not s.wizards[seat]:
            return []
        out: list[str] = []
        for r in s.rivals(seat):
            if what == "wizard":
                out.extend(s.wizards[r])
            elif what == "item":
                out.extend(s.items_of(r))
            elif what == "follower":
                out.extend(s.followers_of(r))
            elif what == "resource":
                out.extend(s.resources[r])
        return sorted(out)
    if word == "look_hand":
        return [str(r) for r in s.rivals(seat) if s.hands[r]]
    if word == "skip_turn":
        return [str(r) for r in s.rivals(seat)]
    if word == "reanimate":
        return sorted({x for x in s.discard if c[x].type == what})
    return []


def search_finds(s: CovenantState, what: str) -> list[str]:
    """The cards of type ``what`` in the deck, one per design."""
    c = s.data.cards
    return one_per_design(x for x in s.deck if c[x].type == what)


def start_effect(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    """Resolve one effect, choosing its target now if it has none yet."""
    word = eff.word
    if word == "search" and s.table_seat >= 0 and s.deck:  # on a real table the program does not know the deck
        if seat == s.table_seat:  # the person looks through it and says what they take (or none)
            for i in range(len(s.deck)):
                s.see_in_deck(seat, i)
            s.stack.append(Choice(seat=seat, effect=eff, card=card, who=seat))
        else:  # the person lays out what the searcher may take
            s.stack.append(Lookup(seat=seat, effect=eff, card=card, who=s.table_seat))
        return
    if word == "search":
        found = search_finds(s, eff.what)
        if not found:
            s.shuffle_deck()
            s.say(f"P{seat + 1} searches the deck: no {TYPE_NAMES.get(eff.what, eff.what)}; the deck is shuffled")
            return
        if len(found) == 1:
            do_effect(s, seat, eff, found[0], card)
            return
        for i in range(len(s.deck)):  # the searcher looks through the deck
            s.see_in_deck(seat, i)
        # the choices are read from the deck when asked (a determinised deck may hold others)
        s.stack.append(Choice(seat=seat, effect=eff, card=card, who=seat))
        return
    if word in TARGETED and not tgt:
        opts = targets(s, seat, word, eff.what)
        if not opts:
            s.say(f"{s.label(card)}: there is nothing to {DOES.get(word, word.replace('_', ' '))}")
            return
        if len(opts) > 1:
            s.stack.append(Choice(seat=seat, effect=eff, options=tuple(opts), card=card, who=seat))
            return
        tgt = opts[0]
    do_effect(s, seat, eff, tgt, card)


def do_effect(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    EFFECTS.get(eff.word)(s, seat, eff, tgt, card)


@EFFECTS("draw")
def _draw(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    s.draw(seat, eff.n, why=s.label(card))


@EFFECTS("search")
def _search(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    if tgt not in s.deck:
        s.shuffle_deck()
        s.say(f"P{seat + 1} searches the deck: no {TYPE_NAMES.get(eff.what, eff.what)}; the deck is shuffled")
        return
    s.deck.remove(tgt)
    s.hands[seat].append(tgt)
    s.note_draw(seat, tgt)
    s.shuffle_deck()
    s.reveal_in_hand(seat, tgt)
    s.say(f"P{seat + 1} searches the deck and takes {s.label(tgt)}; the deck is shuffled")


@EFFECTS("skip_turn")
def _skip_turn(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    r = int(tgt)
    s.skips[r] += 1
    s.say(f"P{r + 1} will miss their next turn: {s.label(card)}")


@EFFECTS("destroy")
def _destroy(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    if s.controller(tgt) >= 0:
        s.remove(tgt, "destroyed", s.label(card))


@EFFECTS("steal")
def _steal(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    s.stack.append(Theft(seat=seat, target=tgt))


@EFFECTS("slay")
def _slay(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    s.stack.append(Slaying(target=tgt))


def _with(s: CovenantState, card: str) -> str:
    """The card an effect comes from, as the log names it: ``S04 Divination``, ``W16 Mystic's Scry action``."""
    return f"{s.label(card)}'s Scry action" if s.data.cards[card].type == "wizard" else s.label(card)


@EFFECTS("look_hand")
def _look_hand(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    r = int(tgt)
    hand = s.hands[r]
    for x in hand:
        s.see_in_hand(seat, x, r)
    s.say(f"P{seat + 1} looks at P{r + 1}'s hand ({plural(len(hand), 'card')}) with {_with(s, card)}")
    s.say(f"you see in P{r + 1}'s hand: {s.names(sorted(hand)) or 'nothing'}", (seat,))


@EFFECTS("look_deck")
def _look_deck(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    top = []
    for i in range(len(s.deck) - 1, max(-1, len(s.deck) - 1 - eff.n), -1):
        s.see_in_deck(seat, i)
        top.append(s.deck[i])
    s.say(f"P{seat + 1} looks at the top {plural(len(top), 'card')} of the deck with {_with(s, card)}")
    s.say(f"you see on top of the deck, top card first: {s.names(top)}", (seat,))


@EFFECTS("reanimate")
def _reanimate(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    if tgt in s.discard:
        s.discard.remove(tgt)
        s.hands[seat].append(tgt)
        s.reveal_in_hand(seat, tgt)
        s.say(f"P{seat + 1} takes {s.label(tgt)} back from the discard pile into their hand ({s.label(card)})")


@EFFECTS("vortex")
def _vortex(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    lost = ", ".join(f"P{t + 1} {plural(len(s.hands[t]), 'card')}" for t in range(s.players))
    for t in range(s.players):
        for x in s.hands[t]:
            s.forget(x)
        s.discard.extend(sorted(s.hands[t]))  # (in id order: the order a hand is held in is nobody's to see)
        s.hands[t] = []
    s.say(f"Every player discards their whole hand ({s.label(card)}): {lost}")


@EFFECTS("danger")
def _danger(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    j = s.nearest_index(Quest)
    if j >= 0:
        q = s.stack[j]
        assert isinstance(q, Quest)
        q.danger_bonus += eff.n
        s.say(f"The Danger of {s.label(q.card)} rises by {eff.n}: {s.label(card)}")


@EFFECTS("roll_bonus")
def _roll_bonus(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    j = s.nearest_index((Duel, Quest))
    if j < 0:
        return
    d = s.stack[j]
    n, what = eff.n, eff.what
    if isinstance(d, Duel) and what in ("duel", "either"):
        if seat == d.seat:
            d.challenger_bonus += n
        elif seat == d.rival:
            d.defender_bonus += n
        else:
            return
        s.say(f"P{seat + 1}'s duel total gets +{n}: {s.label(card)}")
    elif isinstance(d, Quest) and what in ("quest", "either") and seat == d.seat:
        d.level_bonus += n
        s.say(f"P{seat + 1}'s Quest Level gets +{n} in round {d.round}: {s.label(card)}")


@EFFECTS("negate")
def _negate(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    for w in reversed(s.stack):
        if isinstance(w, Negation) and w.source == tgt:
            w.negated = True
            return


@EFFECTS("reroll")
def _reroll(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    j = s.nearest_index(Roll)
    if j > 0:
        rf = s.stack[j]
        assert isinstance(rf, Roll)
        v = s.roll_dice(rf, again=True)
        rf.total = v
        rf.done = True
        s.stack[j - 1].take_roll(rf.slot, v)


@EFFECTS("prevent_slay")
def _prevent_slay(s: CovenantState, seat: int, eff: CardEffect, tgt: str, card: str) -> None:
    for f in reversed(s.stack):
        if isinstance(f, Slaying) and f.target == tgt:
            f.saved = True
            return
