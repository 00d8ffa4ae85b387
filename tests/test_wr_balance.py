"""Wizards & Relics' balance goal, held by its automaton checks: no wizard colour, rarity tier (of the
wizard or the relic played) or seat wins more than 10 points above its fair share of the battles (games, for
seats); Glorious cards win more than Superb and Common ones, yet far from always; every card is played; no errors.
These are 700-game checks with the same seed for each player count."""

from __future__ import annotations

from typing import Any

import pytest

from wizprint.solo.kernel import engine
from wizprint.solo.playtest import run_games, summarise

GAME = "wizards-and-relics"


def check(players: int, games: int = 700) -> dict[str, Any]:
    eng = engine(GAME)
    designs = sorted({c.split("#")[0] for c in eng.data.instances})
    results = run_games(GAME, games, 1, ["automaton"], players, jobs=1)
    return summarise(GAME, results, 1, ["automaton"], players, "", designs, {})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_colour_rarity_or_seat_wins_more_than_ten_points_above_its_fair_share(players: int) -> None:
    s = check(players)
    assert s["completed"] == s["games"] and not s["errors"]
    assert s["never_played"] == []
    fair = 1 / players
    for seat, r in s["win_rate_by_seat"].items():
        assert r["win_rate"] - fair <= 0.10, f"seat {seat} wins {r['win_rate']} (fair share {fair:.3f})"
    groups = s["groups"]
    kinds = {k.split(":")[0] for k in groups}
    assert {"wizard colour", "wizard rarity", "relic rarity"} <= kinds
    for name, g in groups.items():
        assert g["above_fair"] <= 0.10, f"{name}: {g['win_rate']} against a fair share of {g['fair_share']}"
    for kind in ("wizard rarity", "relic rarity"):
        glorious, superb, common = (groups[f"{kind}: {r}"]["above_fair"] for r in ("glorious", "superb", "common"))
        assert glorious > superb > common, f"{kind}: the tiers do not rise with rarity"
        assert groups[f"{kind}: glorious"]["win_rate"] < 0.75, f"{kind}: Glorious cards all but always win"
