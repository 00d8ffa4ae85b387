"""Relic positions for scenario files and tests (the ``[setup]`` table). Lists are per seat; every key is optional.
Card instances are named by design id, with ``#n`` for copies (``TR01#3``); a named design with copies takes its
next free copy. Cards not named anywhere stay in their shuffled decks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizprint.errors import quote
from wizprint.solo.kernel import Chance
from wizprint.solo.kernel.setup import Placer, SetupError, check_whole, name, names, per_seat, seat, text, whole

from .check import HOLDS
from .data import ATTRS, COLOURS, DECKS, MAX_LEVEL, START_INFLUENCE, RelicData
from .game import RelicGame
from .pending import Phase, Turn, TurnStep

SETUP_KEYS = {
    "characters": "each seat's character sheet (default: CH01, CH02, ... not named by another seat)",
    "unused_characters": "the character sheets in the box, which a corrupted player draws from (default: every "
                         "sheet no seat plays)",
    "positions": "each seat's space (default: the character's start)",
    "attributes": "each seat's [strength, willpower, cunning] (default: the character's)",
    "life": "each seat's Life (default: the character's)",
    "level": "each seat's level (default 0)",
    "influence": "each seat's influence (default 3)",
    "hands": "each seat's Power cards",
    "assets": "each seat's Wargear, Relics and Threat assets",
    "trophies": "each seat's trophies",
    "corruption": "each seat's face-down Corruption cards",
    "corruption_up": "each seat's face-up Corruption cards",
    "missions": "each seat's active mission ('' for none; default: one is drawn)",
    "completed": "each seat's completed missions",
    "tokens": "the spaces holding each seat's objective tokens (default: those of its active mission)",
    "scenario_tokens": "each seat's character tokens on the scenario sheet",
    "skips": "turns each seat will miss",
    "threats": "{ space = [Threat cards] }",
    "charges": "{ card = n } (default: the card's printed charges)",
    "decks": "{ power|corruption|mission|relic|wargear|red|blue|yellow = [cards, top first] }",
    "turn": "whose turn it is (default 0)",
    "turn_number": "the turn's number (default 1)",
    "phase": "turn (default: the turn starts), movement, exploration, engagement or experience",
}
STAGES = {"turn": TurnStep.START, "movement": TurnStep.MOVEMENT, "exploration": TurnStep.EXPLORATION,
          "engagement": TurnStep.ENGAGEMENT, "experience": TurnStep.EXPERIENCE}


def _ids(table: Mapping[str, Any], key: str, known: Mapping[str, Any], what: str) -> list[str]:
    return names(table.get(key, []), key, known, what)


def _table(table: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    v = table.get(key, {})
    if not isinstance(v, Mapping):
        raise SetupError(key, f"expected a table, not {quote(v)}")
    return v


def _of_decks(data: RelicData, xs: list[str], key: str, decks: tuple[str, ...]) -> list[str]:
    """The cards ``xs``, each checked to belong to one of ``decks``."""
    for x in xs:
        if data.cards[x].deck not in decks:
            raise SetupError(key, f"{x} (a {data.cards[x].deck} card) cannot be there (only {', '.join(decks)})")
    return xs


def setup(data: RelicData, table: Mapping[str, Any], players: int, seed: int, variant: str,
          chance: Chance) -> RelicGame:
    """A position from a scenario file's ``[setup]`` (the keys are in ``SETUP_KEYS``); the variant names the
    scenario (default: the first)."""
    D = data
    C = D.cards
    s = RelicGame.blank(data, players, seed, variant)
    s.chance = chance
    s.scenario = variant or D.scenario_ids[0]
    place = Placer(C)

    chars = [name(c, "characters", D.characters, "character", empty=True)
             for c in per_seat(table, "characters", players, str)]
    for i in range(players):
        if not chars[i]:
            chars[i] = next(c for c in D.character_ids if c not in chars)
        if chars[i] in chars[:i]:
            raise SetupError("characters", f"{chars[i]} is played by two seats")
        s.set_character(i, chars[i])
        s.influence[i] = START_INFLUENCE
    if "unused_characters" in table:
        box = _ids(table, "unused_characters", D.characters, "character")
        taken = sorted(set(box) & set(chars))
        if taken:
            raise SetupError("unused_characters", f"{taken[0]} is played by a seat")
        s.unused_characters = sorted(set(box))
    else:
        s.unused_characters = sorted(c for c in D.character_ids if c not in chars)
    for i, v in enumerate(per_seat(table, "positions", players, str)):
        if name(v, "positions", D.spaces, "space", empty=True):
            s.positions[i] = v
    for key, nums, lo, hi in (("life", s.life, 1, 99), ("level", s.level, 0, MAX_LEVEL),
                              ("influence", s.influence, 0, 99)):
        for i, v in enumerate(per_seat(table, key, players, str)):
            if v != "":
                nums[i] = check_whole(v, key, lo, hi)
    for i, v in enumerate(per_seat(table, "attributes", players, list)):
        if v != []:
            if not isinstance(v, list) or len(v) != len(ATTRS):
                raise SetupError("attributes", f"expected [strength, willpower, cunning], not {quote(v)}")
            s.attributes[i] = [check_whole(x, "attributes", 1, 12) for x in v]
    zones: tuple[tuple[str, list[list[str]]], ...] = (
        ("hands", s.hands), ("assets", s.assets), ("trophies", s.trophies), ("corruption", s.corruption_face_down),
        ("corruption_up", s.corruption_face_up), ("completed", s.completed))
    holds = {"hands": "hands", "assets": "assets", "trophies": "trophies", "corruption": "corruption_face_down",
             "corruption_up": "corruption_face_up", "completed": "completed"}
    for key, lists in zones:
        for i, xs in enumerate(per_seat(table, key, players, list)):
            lists[i].extend(_of_decks(D, place.take_all(xs, key), key, HOLDS[holds[key]]))
    for i in range(players):
        for a in s.assets[i]:
            if C[a].charges:
                s.charges[a] = C[a].charges
    for x, n in _table(table, "charges").items():
        found = next((a for i in range(players) for a in s.assets[i] if a == x or C[a].design == x), None)
        if found is None:
            raise SetupError("charges", f"{quote(x)} is nobody's asset")
        s.charges[found] = check_whole(n, "charges", 0, 99)
    for sp, xs in _table(table, "threats").items():
        name(sp, "threats", D.spaces, "space")
        s.board[sp] = _of_decks(D, place.take_all(xs, "threats"), "threats", COLOURS)
    tops: dict[str, list[str]] = {}
    for d, xs in _table(table, "decks").items():
        if d not in DECKS:
            raise SetupError("decks", f"unknown deck {quote(d)} (decks: {', '.join(DECKS)})")
        tops[d] = _of_decks(D, place.take_all(xs, f"decks.{d}"), f"decks.{d}", (d,))
    missions = table.get("missions")
    if missions is not None:
        if not isinstance(missions, list) or len(missions) > players:
            raise SetupError("missions", f"expected a list with one mission (or '') per seat, not {quote(missions)}")
        for i, m in enumerate(missions):
            if m != "":
                s.missions[i] = _of_decks(D, [place.take(m, "missions")], "missions", ("mission",))[0]
    used = set(place.used)
    for d in DECKS:
        rest = sorted(x for x in D.by_deck[d] if x not in used)
        s.rng.shuffle(rest)
        s.decks[d] = rest + list(reversed(tops.get(d, [])))
    for i in range(players):
        if missions is None or i >= len(missions):
            x = s.take_top("mission")
            if x:
                s.missions[i] = x
        if s.missions[i]:
            obj = C[s.missions[i]].objective
            if obj is not None and obj.word == "objective_tokens":
                s.objective_tokens[i] = [str(x) for x in obj["spaces"]]
    tokens = per_seat(table, "tokens", players, list)
    for i, t in enumerate(tokens[:len(table.get("tokens", []))]):  # seats not given keep their mission's tokens
        s.objective_tokens[i] = names(t, "tokens", D.spaces, "space")
    for key, ints in (("scenario_tokens", s.scenario_tokens), ("skips", s.skips)):
        for i, v in enumerate(per_seat(table, key, players, int)):
            ints[i] = check_whole(v, key, 0, 99)
    s.check_zones()
    s.turn_player = seat(table, "turn", 0, players)
    s.turn_number = whole(table, "turn_number", 1)
    phase = text(table, "phase", "turn", STAGES)
    s.phase = Phase.START if phase == "turn" else Phase(phase)
    s.say(f"Turn {s.turn_number}: {s.who(s.turn_player)} ({D.characters[s.characters[s.turn_player]].name}), "
          f"{phase}")
    s.stack = [Turn(seat=s.turn_player, step=STAGES[phase])]
    s.advance()
    return s


__all__ = ["SETUP_KEYS", "setup"]
