"""Relic positions for scenario files and tests (the ``[setup]`` table). Lists are per seat; every key is optional.
Card instances are named by design id, with ``#n`` for copies (``TR01#3``); a named design with copies takes its
next free copy. Cards not named anywhere stay in their shuffled decks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wizprint.solo.kernel import Chance
from wizprint.solo.kernel.setup import Placer, SetupError, check_whole, per_seat, seat, text, whole

from .data import ATTRS, DECKS, START_INFLUENCE, RelicData
from .pending import Phase, Turn, TurnStep
from .state import RelicState

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
    v = table.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise SetupError(key, f"expected a list of {what} ids, not {v!r}")
    for x in v:
        if x not in known:
            raise SetupError(key, f"unknown {what} {x!r}")
    return list(v)


def _table(table: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    v = table.get(key, {})
    if not isinstance(v, Mapping):
        raise SetupError(key, f"expected a table, not {v!r}")
    return v


def setup(data: RelicData, table: Mapping[str, Any], players: int, seed: int, variant: str,
          chance: Chance) -> RelicState:
    """A position from a scenario file's ``[setup]`` (the keys are in ``SETUP_KEYS``); the variant names the
    scenario (default: the first)."""
    D = data
    C = D.cards
    s = RelicState.blank(data, players, seed, variant)
    s.chance = chance
    s.scenario = variant or D.scenario_ids[0]
    place = Placer(C)

    chars = per_seat(table, "characters", players, str)
    for i in range(players):
        if not chars[i]:
            chars[i] = next(c for c in D.character_ids if c not in chars)
        if chars[i] not in D.characters:
            raise SetupError("characters", f"unknown character {chars[i]!r}")
        s.set_character(i, chars[i])
        s.influence[i] = START_INFLUENCE
    if "unused_characters" in table:
        box = _ids(table, "unused_characters", D.characters, "character")
        taken = sorted(set(box) & set(chars))
        if taken:
            raise SetupError("unused_characters", f"{taken[0]} is played by a seat")
        s.unused_characters = sorted(box)
    else:
        s.unused_characters = sorted(c for c in D.character_ids if c not in chars)
    for i, v in enumerate(per_seat(table, "positions", players, str)):
        if v:
            if v not in D.spaces:
                raise SetupError("positions", f"unknown space {v!r}")
            s.positions[i] = v
    for key, nums in (("life", s.life), ("level", s.level), ("influence", s.influence)):
        for i, v in enumerate(per_seat(table, key, players, str)):
            if v != "" and v is not None:
                nums[i] = check_whole(v, key, 0, 100)
    for i, v in enumerate(per_seat(table, "attributes", players, list)):
        if v:
            if not isinstance(v, list) or len(v) != len(ATTRS):
                raise SetupError("attributes", f"expected [strength, willpower, cunning], not {v!r}")
            s.attributes[i] = [check_whole(x, "attributes", 1, 12) for x in v]
    zones: tuple[tuple[str, list[list[str]]], ...] = (
        ("hands", s.hands), ("assets", s.assets), ("trophies", s.trophies), ("corruption", s.corruption_face_down),
        ("corruption_up", s.corruption_face_up), ("completed", s.completed))
    for key, lists in zones:
        for i, xs in enumerate(per_seat(table, key, players, list)):
            lists[i].extend(place.take_all(xs, key))
    for i in range(players):
        for a in s.assets[i]:
            if C[a].charges:
                s.charges[a] = C[a].charges
    for x, n in _table(table, "charges").items():
        found = next((a for i in range(players) for a in s.assets[i] if a == x or C[a].design == x), None)
        if found is None:
            raise SetupError("charges", f"{x!r} is nobody's asset")
        s.charges[found] = check_whole(n, "charges", 0, 99)
    for sp, xs in _table(table, "threats").items():
        if sp not in D.spaces:
            raise SetupError("threats", f"unknown space {sp!r}")
        s.board[sp] = place.take_all(xs, "threats")
    tops: dict[str, list[str]] = {}
    for d, xs in _table(table, "decks").items():
        if d not in DECKS:
            raise SetupError("decks", f"unknown deck {d!r} (decks: {', '.join(DECKS)})")
        tops[d] = place.take_all(xs, f"decks.{d}")
    missions = table.get("missions")
    if missions is not None:
        if not isinstance(missions, list) or len(missions) > players:
            raise SetupError("missions", f"expected a list with one mission (or '') per seat, not {missions!r}")
        for i, m in enumerate(missions):
            if m:
                s.missions[i] = place.take(m, "missions")
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
    for i, t in enumerate(table.get("tokens", [])):
        if not isinstance(t, list) or any(x not in D.spaces for x in t):
            raise SetupError("tokens", f"expected a list of spaces per seat, not {t!r}")
        s.objective_tokens[i] = [str(x) for x in t]
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
