"""Wizards & Relics positions for scenario files (the ``[setup]`` table): a round about to begin, with every
player's deck, hand, discard pile and Hall given, the shrine to be revealed and the Master Wizard; or the set-up
itself (the four decks dealt, ready to be chosen)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizprint.solo.kernel import Chance
from wizprint.solo.kernel.setup import Placer, SetupError, per_seat, seat, text, whole

from .data import DECKS, WizardsAndRelicsData
from .game import WizardsAndRelicsGame
from .pending import Round, Setup

SETUP_KEYS = {
    "phase": "'round' (default: a round begins with the shrine given) or 'setup' (the four decks are dealt from the "
             "seed and the players choose; name no cards then)",
    "decks": "each seat's deck, top card first",
    "hands": "each seat's hand",
    "discards": "each seat's discard pile, bottom first",
    "halls": "each seat's Hall of Immortality (wizards)",
    "shrine": "the shrine revealed in the round's Shrine phase",
    "shrine_pile": "the shrine pile below it, top first (the shrines not named go below these, in a seeded shuffle)",
    "master": "the Master Wizard of the round (default 0)",
    "round": "the number of the round that begins (default 1)",
}


def setup(data: WizardsAndRelicsData, table: Mapping[str, Any], players: int, seed: int, variant: str,
          chance: Chance) -> WizardsAndRelicsGame:
    """A position from a scenario file's ``[setup]``. The wizards and relics not named are set aside in the unchosen
    piles (out of the game), so every deck holds exactly the cards the file gives."""
    s = WizardsAndRelicsGame.blank(data, players, seed, variant)
    s.chance = chance
    phase = text(table, "phase", "round", ("round", "setup"))
    if phase == "setup":
        extra = sorted(set(table) - {"phase", "master"})
        if extra:
            raise SetupError(extra[0], "the set-up deals the decks from the seed: name only 'master'")
        from .phases import deal

        deal(s)
        s.master = seat(table, "master", 0, players)
        s.stack.append(Setup(seat=s.master))
        s.check_zones()
        s.advance()
        return s
    place = Placer(data.instances)
    s.decks = [list(reversed(place.take_all(d, "decks"))) for d in per_seat(table, "decks", players, list)]
    s.hands = [place.take_all(h, "hands") for h in per_seat(table, "hands", players, list)]
    s.discards = [place.take_all(h, "discards") for h in per_seat(table, "discards", players, list)]
    s.halls = [place.take_all(h, "halls") for h in per_seat(table, "halls", players, list)]
    for key, zone in (("decks", s.decks), ("hands", s.hands), ("discards", s.discards), ("halls", s.halls)):
        for xs in zone:
            for c in xs:
                if data[c].kind == "shrine":
                    raise SetupError(key, f"{c} is a shrine: shrines lie in the shrine pile")
                if key == "halls" and data[c].kind != "wizard":
                    raise SetupError(key, f"{c} is not a wizard: only wizards enter the Hall")
    top: list[str] = []
    if "shrine" in table:
        top.append(place.take(table["shrine"], "shrine"))
    top += place.take_all(table.get("shrine_pile", []), "shrine_pile")
    for c in top:
        if data[c].kind != "shrine":
            raise SetupError("shrine", f"{c} is not a shrine")
    rest = place.rest()
    shrines = [c for c in rest if data[c].kind == "shrine"]
    s.rng.shuffle(shrines)
    s.shrine_pile = shrines + list(reversed(top))
    others = [c for c in rest if data[c].kind != "shrine"]
    s.piles = [others[i::DECKS] for i in range(DECKS)]
    s.chosen_deck = [i % DECKS for i in range(players)]
    s.master = seat(table, "master", 0, players)
    s.round = whole(table, "round", 1, 1, 1000) - 1
    for x, h in enumerate(s.halls):
        if len(h) >= s.hall_to_win:
            raise SetupError("halls", f"P{x + 1} already has {len(h)} wizards in the Hall: the game would be over")
    s.check_zones()
    s.stack.append(Round(seat=s.master))
    s.advance()
    return s


__all__ = ["SETUP_KEYS", "setup"]
