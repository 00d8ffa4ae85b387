"""Covenant positions for scenario files and tests (the ``[setup]`` table)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizprint.errors import quote
from wizprint.solo.kernel import Chance
from wizprint.solo.kernel.setup import Placer, SetupError, check_whole, per_seat, seat, text, whole

from .data import CovenantData
from .game import CovenantGame
from .state import PHASES, Phase

SETUP_KEYS = {
    "hands": "each seat's hand (card ids; a design with copies, like D01, takes its next free copy D01#n)",
    "deck": "the deck, top card first",
    "rest": "where the cards not named go: 'deck' (default: the bottom of the deck in a seeded shuffle) or "
            "'discard'",
    "in_play": "each seat's cards in play: 'W10' or 'W10+I05+F02' (a wizard and what is attached to it) or a table "
               "{card = \"W10\", attached = [\"I05\"]}; stand-alone followers and resources are plain ids",
    "quests": "each seat's completed quests",
    "discard": "the discard pile, bottom first",
    "turn": "whose turn it is (default 0)",
    "turn_number": "the number of this turn (default 1)",
    "phase": "'research' (default: the turn starts with its Research draw), 'event', 'duel', 'summon' or "
             "'adventure'",
    "skips": "turns each seat must miss",
    "acted": "wizards that already used their action this turn",
    "duelled": "wizards that already duelled this turn",
}


class _Cards:
    """Hands out card instances once each; an unknown id is reported as such."""

    def __init__(self, data: CovenantData):
        self.data = data
        self.place = Placer(data.cards)

    def take(self, x: Any, key: str) -> str:
        if isinstance(x, str) and x not in self.place.known and x not in self.place.copies:
            raise SetupError(key, f"unknown card {quote(x)}")
        return self.place.take(x, key)

    def take_all(self, xs: Any, key: str) -> list[str]:
        if not isinstance(xs, list):
            raise SetupError(key, f"expected a list of card ids, not {quote(xs)}")
        return [self.take(x, key) for x in xs]


def _names(table: Mapping[str, Any], key: str, where: str = "") -> list[str]:
    v = table.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise SetupError(where or key, f"expected a list of card ids, not {quote(v)}")
    return list(v)


def setup(data: CovenantData, table: Mapping[str, Any], players: int, seed: int, variant: str,
          chance: Chance) -> CovenantGame:
    """A position from a scenario file's ``[setup]`` (the keys are in ``SETUP_KEYS``)."""
    s = CovenantGame.blank(data, players, seed, variant)
    s.chance = chance
    c = data.cards
    place = _Cards(data)
    phase = text(table, "phase", "research", ("research", *(str(p) for p in PHASES)))
    s.hands = [place.take_all(h, "hands") for h in per_seat(table, "hands", players, list)]
    for at, entries in enumerate(per_seat(table, "in_play", players, list)):
        if not isinstance(entries, list):
            raise SetupError("in_play", f"expected a list of cards per seat, not {quote(entries)}")
        for e in entries:
            if isinstance(e, Mapping):
                extra = sorted(set(e) - {"card", "attached"})
                if extra:
                    raise SetupError("in_play", f"a table entry has only 'card' and 'attached', not {quote(extra[0])}")
                if not isinstance(e.get("card"), str):
                    raise SetupError("in_play", f"a table entry names its card: {{card = \"W10\"}}, not {quote(e)}")
                head, rest = str(e["card"]), _names(e, "attached", "in_play")
            elif isinstance(e, str):
                head, *rest = e.split("+")
            else:
                raise SetupError("in_play", f"expected a card id or a table, not {quote(e)}")
            head = place.take(head, "in_play")
            info = c[head]
            if info.type == "wizard":
                s.wizards[at].append(head)
                for x in rest:
                    x = place.take(x, "in_play")
                    if c[x].type != "item" and not (c[x].type == "follower" and c[x].attach):
                        raise SetupError("in_play", f"{x} cannot be attached to a wizard")
                    s.attach(x, head)
            elif rest:
                raise SetupError("in_play", f"only a wizard can have cards attached ({quote(e)})")
            elif info.type == "follower" and not info.attach:
                s.followers[at].append(head)
            elif info.type == "resource":
                s.resources[at].append(head)
            else:
                raise SetupError("in_play", f"{head} ({info.type}) cannot stand alone in play")
    for at, qs in enumerate(per_seat(table, "quests", players, list)):
        for q in place.take_all(qs, "quests"):
            if c[q].type != "quest":
                raise SetupError("quests", f"{q} is not a quest")
            s.quests[at].append(q)
    s.discard = place.take_all(table.get("discard", []), "discard")
    top_first = place.take_all(table.get("deck", []), "deck")
    rest = place.place.rest()
    if text(table, "rest", "deck", ("deck", "discard")) == "discard":
        s.discard.extend(rest)
        bottom: list[str] = []
    else:
        s.rng.shuffle(rest)
        bottom = rest
    s.deck = bottom + list(reversed(top_first))
    s.skips = [check_whole(x, "skips", 0, 100) for x in per_seat(table, "skips", players, int)]
    s.turn_player = seat(table, "turn", 0, players)
    s.turn_number = whole(table, "turn_number", 1, 1)
    in_play = {w for ws in s.wizards for w in ws}
    for key in ("acted", "duelled"):
        for x in _names(table, key):
            if x not in in_play:
                raise SetupError(key, f"{quote(x)} is not a wizard in play")
    s.acted = _names(table, "acted")
    s.duelled = _names(table, "duelled")
    s.check_zones()
    if s.check_win():
        return s
    if phase == "research":
        s.turn_number -= 1
        s.begin_turn(s.turn_player)
    else:
        s.phase = Phase(phase)
        s.say(f"Turn {s.turn_number}: P{s.turn_player + 1} ({phase} phase)")
    s.advance()
    return s


__all__ = ["SETUP_KEYS", "setup"]
