"""The checks of a loaded Wizards Cup game (a saved game is untrusted input), beyond the kernel's: each card in its
owner's zones only, at most one card in a Duel zone or a Waiting place, the 6 cards of a Deck once the selection is
over, Victory tokens and counters in range, the powers in play (each in a Duel zone or on top of a discard pile,
every visible top among them), what was seen of each player's 6 (at most one stretch between swaps for each round
after the first, fitting its Deck), and pending work in an order the rules make."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizprint.solo.kernel import Checks

from .data import DECK, TO_WIN
from .pending import Ask, Choose, Round, Setup

if TYPE_CHECKING:
    from .state import WizardsCupState


def check_state(s: WizardsCupState, chk: Checks) -> None:
    from .state import possible_decks

    d = s.data
    chk.count("state.round", s.round, 0, s.step_cap)
    chk.count("state.duels", s.duels, 0, s.step_cap)
    chk.counts("state.tokens", s.tokens, 0, TO_WIN + 1)
    chk.done()
    for name in ("sets", "decks", "plans", "waiting", "duel", "discards", "known", "drafted"):
        for x, cards in enumerate(getattr(s, name)):
            chk.all_known(f"state.{name}[{x}]", cards, d.cards)
            if any(c in d.cards and d.owner(c) != x for c in cards):
                chk.fail(f"state.{name}[{x}]", f"a card of the other set is in P{x + 1}'s zones")
    for x, stretches in enumerate(s.earlier):
        chk.count(f"state.earlier[{x}]", len(stretches), 0, 2 * (TO_WIN - 1))  # a swap between two rounds
        for i, cards in enumerate(stretches):
            chk.all_known(f"state.earlier[{x}][{i}]", cards, d.cards)
            if any(c in d.cards and d.owner(c) != x for c in cards):
                chk.fail(f"state.earlier[{x}][{i}]", f"a card of the other set was seen among P{x + 1}'s 6")
    chk.all_known("state.in_play", s.in_play, d.cards)
    chk.done()
    for x in (0, 1):
        seen = frozenset().union(*s.sightings(x))
        if not set(s.known[x]) <= set(s.six(x)) or (s.earlier[x] and frozenset(s.six(x)) & seen not in {
                t for t, _ in possible_decks(s.sightings(x), len(d.sets[x]))}):
            chk.fail(f"state.known[{x}]", f"what was seen of P{x + 1}'s 6 does not fit its Deck")
    tops = [pile[-1] for pile in s.discards if pile]
    if len(set(s.in_play)) != len(s.in_play):
        chk.fail("state.in_play", "a wizard is in play twice")
    if any(c not in tops and not any(c in z for z in s.duel) for c in s.in_play):
        chk.fail("state.in_play", "a wizard in play is neither in a Duel zone nor visible on a discard pile")
    if any(c not in s.in_play for c in tops):
        chk.fail("state.in_play", "the visible top of a discard pile is not in play")
    for x in (0, 1):
        chk.count(f"state.duel[{x}]", len(s.duel[x]), 0, 1)
        chk.count(f"state.waiting[{x}]", len(s.waiting[x]), 0, 1)
        chk.count(f"state.drafted[{x}]", len(s.drafted[x]), 0, DECK - 1)
        selecting = any(isinstance(i, Setup) for i in s.stack)
        if not selecting and s.result is None and len(s.six(x)) != DECK:
            chk.fail(f"state.decks[{x}]", f"P{x + 1} has {len(s.six(x))} cards in play, not {DECK}")
    if s.result is None:
        if not chk.pending_order(s.stack, (Setup, Round), "the selection or a round"):
            return
        for i, item in enumerate(s.stack):
            if isinstance(item, Round) and not set(item.queue) <= set(d.cards):
                chk.fail(f"state.stack[{i}].queue", "not a card of the game")
            if isinstance(item, Round):
                chk.seats(f"state.stack[{i}].winners", item.winners, distinct=True)
            if isinstance(item, Choose):
                chk.count(f"state.stack[{i}].left", item.left, 0, DECK)
                if item.ask is Ask.SWAP_IN and item.card not in s.decks[item.seat]:
                    chk.fail(f"state.stack[{i}].card", "the card to swap out is not in that Deck")
        chk.count("state.current_seat", s.current_seat, 0, 1)
