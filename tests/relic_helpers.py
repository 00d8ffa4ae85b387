"""Shared positions and helpers of the Relic engine tests (test_relic_engine.py, test_relic_advancement.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wizprint.solo.games.relic import RelicState
from wizprint.solo.games.relic.pending import Battle, Dice, RollKind, SkillTest
from wizprint.solo.kernel import Chance, engine

SCENARIOS = Path(__file__).parent / "scenarios"
ENGINE = engine("relic")
D = ENGINE.data


def new_state(players: int, seed: int, variant: str = "") -> RelicState:
    s = ENGINE.new_state(players, seed, variant)
    assert isinstance(s, RelicState)
    return s


def mk(players: int = 2, seed: int = 1, variant: str = "SC01", **table: Any) -> RelicState:
    table.setdefault("missions", ["MS14", "MS15", "MS16", "MS22"][:players])
    hands = list(table.get("hands", []))
    while len(hands) < players:
        hands.append(["PW26"] if len(hands) == 1 else [])
    table["hands"] = hands
    s = ENGINE.setup(table, players, seed, variant, Chance(strict=True))
    assert isinstance(s, RelicState)
    return s


def do(s: RelicState, *keys: str, dice: tuple[int, ...] = (), picks: tuple[str, ...] = ()) -> None:
    s.script(dice=dice, picks=picks)
    for k in keys:
        s.apply_key(k)


def legal(s: RelicState) -> list[str]:
    return sorted(a.key for a in s.legal_actions())


def said(s: RelicState, text: str) -> bool:
    return any(text in t for t in s.log_texts())


def turn_over(s: RelicState) -> bool:
    """Seat 0's turn is over (its Experience phase had nothing to ask): seat 1's turn has begun."""
    return s.turn_player == 1 and s.phase != "experience"


def rolling(s: RelicState, context: RollKind) -> bool:
    """The seat is about to roll its dice for ``context``."""
    f = s.pending
    return isinstance(f, Dice) and f.context == context


def skill_test(s: RelicState) -> SkillTest:
    """The skill test the turn player is rolling for."""
    f = s.nearest(SkillTest, s.turn_player)
    assert f is not None
    return f


def battle(s: RelicState) -> Battle:
    f = s.pending
    assert isinstance(f, Battle)
    return f


