"""What the Covenant tests share: the engine, positions from ``setup()`` with scripted dice (strict: an unscripted
roll is an error), moves by key and the probe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wizprint.solo.games.covenant import CovenantState, Info
from wizprint.solo.kernel import Chance, engine

SCENARIOS = Path(__file__).parent / "scenarios"
ENGINE = engine("covenant")


def cards() -> dict[str, Info]:
    cs: dict[str, Info] = ENGINE.data.cards
    return cs


def new_state(players: int, seed: int) -> CovenantState:
    s = ENGINE.new_state(players, seed)
    assert isinstance(s, CovenantState)
    return s


def setup(table: dict[str, Any], players: int, seed: int, dice: tuple[int, ...] = ()) -> CovenantState:
    s = ENGINE.setup(table, players, seed, "", Chance(dice=dice, strict=True))
    assert isinstance(s, CovenantState)
    return s


def mk(players: int = 2, dice: tuple[int, ...] = (), seed: int = 1, **table: Any) -> CovenantState:
    return setup(table, players, seed, dice)


def do(s: CovenantState, *keys: str, dice: tuple[int, ...] = ()) -> None:
    s.script(dice=dice)
    for k in keys:
        s.apply_key(k)


def legal(s: CovenantState) -> list[str]:
    return [a.key for a in s.legal_actions()]


def p(s: CovenantState, key: str) -> Any:
    return s.probe()[key]


def duel_position(p1_hand: list[str] | None = None, p0_extra: list[str] | None = None) -> CovenantState:
    # Elementalist: Dueler +2, Staff of Power +2, Apprentice +1 = +5; Druid: Nature +1, Wand of Wonder +1 = +2
    return mk(hands=[["D01", *(p0_extra or [])], p1_hand or []], in_play=[["W08+I05+F02"], ["W12+I06", "W01"]],
              phase="duel")
