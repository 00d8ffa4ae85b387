"""Wizards Cup positions for scenario files (the ``[setup]`` table): a round about to be planned, or a duel about
to begin with each player's Deck in order, Waiting card, discard pile and Victory tokens; or the wizard selection
itself. Cards are named by design (``C07``: the seat's own copy) or by instance (``C07#2``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizprint.solo.kernel import Chance
from wizprint.solo.kernel.setup import SetupError, per_seat, text, whole

from .data import DECK, TO_WIN, WizardsCupData
from .game import WizardsCupGame
from .pending import Round, RoundStep, Setup

SETUP_KEYS = {
    "phase": "'duel' (default: the Decks are planned and the first duel begins), 'plan' (a round begins with the "
             "planning of the 6 cards given in 'decks') or 'select' (the wizard selection from the seed)",
    "decks": "each seat's Deck: for 'duel', the 5 cards top first; for 'plan', its 6 cards",
    "waiting": "each seat's Waiting card ('duel' only)",
    "discards": "each seat's discard pile, bottom first ('duel' only; these cards are part of the 6)",
    "tokens": "each seat's Victory tokens (0 or 1)",
    "round": "the number of the round (default 1)",
}


def _card(data: WizardsCupData, seat: int, name: Any, key: str) -> str:
    if not isinstance(name, str):
        raise SetupError(key, f"expected a card id, not {name!r}")
    card = name if "#" in name else f"{name}#{seat + 1}"
    if card not in data.cards:
        raise SetupError(key, f"{name} is not a wizard of the game")
    if data.owner(card) != seat:
        raise SetupError(key, f"{name} belongs to the other player's set")
    return card


def setup(data: WizardsCupData, table: Mapping[str, Any], players: int, seed: int, variant: str,
          chance: Chance) -> WizardsCupGame:
    s = WizardsCupGame.blank(data, players, seed, variant)
    s.chance = chance
    phase = text(table, "phase", "duel", ("duel", "plan", "select"))
    if phase == "select":
        extra = sorted(set(table) - {"phase"})
        if extra:
            raise SetupError(extra[0], "the selection starts from the full sets: name nothing else")
        s.stack.append(Setup())
        s.advance()
        return s
    tokens = per_seat(table, "tokens", 2, int)
    for x, t in enumerate(tokens):
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t < TO_WIN:
            raise SetupError("tokens", f"P{x + 1}'s Victory tokens must be 0 or 1")
    s.tokens = [int(t) if isinstance(t, int) else 0 for t in tokens]
    s.round = whole(table, "round", 1, 1, 1000) - 1
    decks = per_seat(table, "decks", 2, list)
    used: set[str] = set()

    def take(x: int, name: Any, key: str) -> str:
        c = _card(data, x, name, key)
        if c in used:
            raise SetupError(key, f"{name} is named twice")
        used.add(c)
        s.sets[x].remove(c)
        return c

    for x in (0, 1):
        for key in ("decks", "discards"):
            if not isinstance(per_seat(table, key, 2, list)[x], list):
                raise SetupError(key, f"P{x + 1}'s entry must be a list of cards")
        if phase == "plan":
            if len(decks[x]) != DECK:
                raise SetupError("decks", f"P{x + 1}'s Deck must have {DECK} cards to plan, not {len(decks[x])}")
            s.decks[x] = [take(x, c, "decks") for c in decks[x]]
            continue
        s.decks[x] = list(reversed([take(x, c, "decks") for c in decks[x]]))
        waits = per_seat(table, "waiting", 2, list)[x] if "waiting" in table else []
        s.waiting[x] = [take(x, c, "waiting") for c in (waits if isinstance(waits, list) else [waits])]
        s.discards[x] = [take(x, c, "discards") for c in per_seat(table, "discards", 2, list)[x]] \
            if "discards" in table else []
        if len(s.six(x)) != DECK:
            raise SetupError("decks", f"P{x + 1} has {len(s.six(x))} cards in Deck, Waiting card and discard "
                                      f"pile together, not {DECK}")
        s.known[x] = list(s.discards[x])
    s.in_play = [pile[-1] for pile in s.discards if pile]  # the visible tops: in play before the first duel
    s.check_zones()
    if phase == "plan":
        s.stack.append(Round())
    else:
        s.round += 1
        s.stack.append(Round(step=RoundStep.DRAW))
        s.say(f"Round {s.round}: the Decks are planned")
    s.advance()
    return s


__all__ = ["SETUP_KEYS", "setup"]
