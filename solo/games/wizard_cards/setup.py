"""Wizard Cards positions for scenario files (the ``[setup]`` table)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizprint.solo.kernel import Chance
from wizprint.solo.kernel.setup import Placer, SetupError, per_seat, seat, text, whole

from .data import SUITS, WizardCardsData
from .game import WizardCardsGame
from .state import Phase

SETUP_KEYS = {
    "hands": "each seat's hand (card ids)",
    "damage": "each seat's damage pile",
    "wards": "each seat's ward components standing guard, oldest first (each absorbs its magnitude)",
    "discard": "the spell discard pile, bottom first",
    "deck": "the shared spell pile, top card first",
    "decks": "constructed variant: each seat's own deck, top card first",
    "rest": "where the cards not named go: 'deck' (default: the bottom of the pile in a seeded shuffle; in the "
            "constructed variant, the draft piles) or 'discard'",
    "first": "the seat that took the first turn (default 0)",
    "turn": "whose turn it is (default: the first player)",
    "turn_number": "turns played before this one (default 0)",
    "end_after_turn": "the final phase: the game ends after this turn number",
    "phase": "constructed variant: 'draft' (default when no deck is given: the draft starts) or 'spell'",
    "drafter": "constructed variant, draft: the seat that picks first",
}


def setup(data: WizardCardsData, table: Mapping[str, Any], players: int, seed: int, variant: str,
          chance: Chance) -> WizardCardsGame:
    """A position from a scenario file's ``[setup]``: hands, piles, wards, whose turn; or, in the constructed
    variant, the draft about to start. Cards not named anywhere go to the bottom of the pile in a seeded shuffle
    (or to the discard pile with ``rest = "discard"``)."""
    s = WizardCardsGame.blank(data, seed, variant)
    s.chance = chance
    constructed = variant == "constructed"
    phase = text(table, "phase", "draft" if constructed and "decks" not in table else "spell", ("draft", "spell"))
    if phase == "draft":
        if not constructed:
            raise SetupError("phase", "only the constructed variant starts with a draft")
        extra = sorted(set(table) - {"phase", "drafter"})
        if extra:
            raise SetupError(extra[0], "the draft starts from the rules' own piles: name only 'drafter'")
        s.start_draft(str(seat(table, "drafter", 0, 2)) if "drafter" in table else
                      s.pick(["0", "1"], "seat to draft first"))
        s.check_zones()
        return s
    place = Placer(data.spells)
    s.hands = [place.take_all(h, "hands") for h in per_seat(table, "hands", 2, list)]
    s.damage = [place.take_all(d, "damage") for d in per_seat(table, "damage", 2, list)]
    s.wards = [place.take_all(w, "wards") for w in per_seat(table, "wards", 2, list)]
    for ws in s.wards:
        for c in ws:
            if data.spells[c].school not in ("ward", "wild"):
                raise SetupError("wards", f"{c} is not a ward component ({data.text(c)})")
            s.ward_left[c] = data.spells[c].magnitude
    s.discard = place.take_all(table.get("discard", []), "discard")
    rest_to = text(table, "rest", "deck", ("deck", "discard"))
    if constructed:
        if "deck" in table:
            raise SetupError("deck", "the constructed variant has a deck per seat: use 'decks'")
        s.decks = [list(reversed(place.take_all(d, "decks"))) for d in per_seat(table, "decks", 2, list)]
        rest = place.rest()
        if rest and rest_to != "discard":
            raise SetupError("decks", f"{len(rest)} cards are not placed (every card belongs to a deck, a hand or a "
                                      f"pile in the constructed variant; or write rest = \"discard\")")
        s.discard.extend(rest)
    else:
        if "decks" in table:
            raise SetupError("decks", "only the constructed variant has a deck per seat: use 'deck'")
        top_first = place.take_all(table.get("deck", []), "deck")
        rest = place.rest()
        if rest_to == "discard":
            s.discard.extend(rest)
            bottom: list[str] = []
        else:
            s.rng.shuffle(rest)
            bottom = rest
        s.spell_pile = bottom + list(reversed(top_first))
    s.first_player = seat(table, "first", 0, 2)
    s.turn_player = seat(table, "turn", s.first_player, 2)
    s.turn_number = whole(table, "turn_number", 0)
    if "end_after_turn" in table:
        s.last_turn = whole(table, "end_after_turn", 0)
    s.phase = Phase.SPELL
    s.check_zones()
    s.start_turn()
    return s


__all__ = ["SETUP_KEYS", "SUITS", "setup"]
