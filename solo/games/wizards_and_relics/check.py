"""The checks of a loaded Wizards & Relics game (a saved game is untrusted input), beyond the kernel's, each noted
in the :class:`~wizprint.solo.kernel.Checks` with its JSON path: the cards in each zone are of the kinds it holds;
the four dealt piles, the chosen decks and the shrine in play are consistent; the battle's seats, changes and
pending work name seats and cards that exist; the pending work is in an order the rules make."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wizprint.solo.kernel import Checks

from .data import DECKS
from .pending import Ask, Choose, Effects, Enter, Reveal, Round, Setup, Triggers

if TYPE_CHECKING:
    from .state import WizardsAndRelicsState


def check_state(s: WizardsAndRelicsState, chk: Checks) -> None:
    d = s.data
    cards = d.cards
    chk.count("state.piles", len(s.piles), DECKS, DECKS)
    chk.count("state.shrine", len(s.shrine), 0, 1)
    chk.count("state.round", s.round, 0, s.step_cap)
    chk.count("state.battle", s.battle, 0, s.step_cap)
    chk.done()
    for name, zone, kinds in (("piles", s.piles, ("wizard", "relic")), ("decks", s.decks, ("wizard", "relic")),
                              ("hands", s.hands, ("wizard", "relic")), ("discards", s.discards, ("wizard", "relic")),
                              ("halls", s.halls, ("wizard",)), ("wizards", s.wizards, ("wizard",)),
                              ("relics", s.relics, ("relic",)), ("tied", s.tied, ("wizard", "relic"))):
        for i, xs in enumerate(zone):
            chk.all_known(f"state.{name}[{i}]", xs, cards)
            for x in xs:
                if x in cards and cards[x].kind not in kinds:
                    chk.fail(f"state.{name}[{i}]", f"{x} is a {cards[x].kind}, which this zone does not hold")
                    break
    for name, pile in (("shrine_pile", s.shrine_pile), ("shrine", s.shrine), ("shrines_used", s.shrines_used)):
        chk.all_known(f"state.{name}", pile, cards)
        if any(x in cards and cards[x].kind != "shrine" for x in pile):
            chk.fail(f"state.{name}", "only shrines lie here")
    chk.count("state.table_seat", s.table_seat, -1, s.players - 1)
    for i, c in enumerate(s.chosen_deck):
        chk.count(f"state.chosen_deck[{i}]", c, -1, DECKS - 1)
    if len(set(s.fighters)) != len(s.fighters):
        chk.fail("state.fighters", "a seat is named twice")
    for name in ("ignored", "silenced", "resolved", "equalized"):
        chk.all_known(f"state.{name}", getattr(s, name), cards, distinct=True)
    for i, m in enumerate(s.mods):
        chk.seat(f"state.mods[{i}].seat", m.seat)
        chk.count(f"state.mods[{i}].n", m.n, -100, 100)
        if m.source and m.source not in cards:
            chk.fail(f"state.mods[{i}].source", "not a card of the game")
        if m.colour and m.colour not in ("red", "blue", "green", "every"):
            chk.fail(f"state.mods[{i}].colour", "not a colour")
        if m.wizard and m.wizard not in cards:
            chk.fail(f"state.mods[{i}].wizard", "not a card of the game")
    for i, n in enumerate(s.drawn):
        chk.count(f"state.drawn[{i}]", n, 0, 10_000)
    for i, q in enumerate(s.discard_triggers):
        chk.seat(f"state.discard_triggers[{i}].seat", q.seat)
        if q.card not in cards:
            chk.fail(f"state.discard_triggers[{i}].card", "not a card of the game")
    for i, (hand, known) in enumerate(zip(s.hands, s.known_hand, strict=False)):
        if not set(known) <= set(hand):
            chk.fail(f"state.known_hand[{i}]", "a card known to be in the hand is not in it")
    for i, (deck, top) in enumerate(zip(s.decks, s.known_top, strict=False)):
        if list(reversed(deck[len(deck) - len(top):])) != top:
            chk.fail(f"state.known_top[{i}]", "the known top cards are not the top of the deck")
    chk.seats("state.commits.order", s.commits.order, distinct=True)
    for k, v in s.commits.chosen.items():
        chk.seat("state.commits.chosen", k)
        parts = v.split()
        if len(parts) != 2 or any(p != "none" and p not in cards for p in parts):
            chk.fail(f"state.commits.chosen.{k}", "expected 'WIZARD RELIC' (or 'none')")
        elif k < s.players and any(p != "none" and p not in s.hands[k] for p in parts):
            chk.fail(f"state.commits.chosen.{k}", "the cards played are not in that hand")
    chk.done()
    if s.result is None:
        if not chk.pending_order(s.stack, (Setup, Round), "the set-up or a round"):
            return
        for i, item in enumerate(s.stack):
            if isinstance(item, (Effects, Enter)):
                card = item.card if isinstance(item, Effects) else item.wizard
                if card not in cards:
                    chk.fail(f"state.stack[{i}]", "not a card of the game")
            if isinstance(item, Choose):
                if item.card and item.card not in cards:
                    chk.fail(f"state.stack[{i}].card", "not a card of the game")
                chk.count(f"state.stack[{i}].left", item.left, 0, 100)
                if item.ask in (Ask.MULLIGAN, Ask.SHOW) and not set(item.picked) <= set(s.hands[item.seat]):
                    chk.fail(f"state.stack[{i}].picked", "a card set aside or shown is not in the hand")
                if item.ask is Ask.SHOW and item.seat != s.table_seat:
                    chk.fail(f"state.stack[{i}].ask", "only the table's player shows cards one at a time")
                if item.ask is Ask.TRIGGER and (i == 0 or not isinstance(s.stack[i - 1], Triggers)):
                    chk.fail(f"state.stack[{i}].ask", "an order of triggers is asked with no triggers below it")
            if isinstance(item, Triggers):
                chk.all_known(f"state.stack[{i}].cards", item.cards, cards, distinct=True)
            if isinstance(item, Reveal) and not set(item.todo) <= {r for x in s.fighters for r in s.relics[x]}:
                chk.fail(f"state.stack[{i}].todo", "a relic to resolve is not in play")
        chk.count("state.current_seat", s.current_seat, 0, s.players - 1)
    for i, h in enumerate(s.halls):
        chk.count(f"state.halls[{i}]", len(h), 0, s.hall_to_win)
