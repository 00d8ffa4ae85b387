"""Every game's play screen fits a terminal of 80 x 24: after each of the player's decisions, the decision with its
numbered options and every log line since the previous decision (the bots' turns included) are on the screen (or
were, on a '-- more' screen just before); no text is cut with '…'; no prompt offers a single option."""

from __future__ import annotations

from pathlib import Path

import pytest
from screen_helpers import at_random, play


@pytest.mark.parametrize("game,args,prompts", [
    ("wizard-cards", ["--seed", "4"], 200),
    ("wizards-and-relics", ["--seed", "4", "--players", "4"], 150),
    ("wizards-and-relics", ["--seed", "3", "--players", "2"], 150),
    ("wizards-cup", ["--seed", "4"], 150),
    ("relic", ["--seed", "4", "--players", "3"], 150),
    ("covenant", ["--seed", "4", "--players", "3"], 150),
])
def test_every_decision_and_what_led_to_it_fit_on_an_80_by_24_screen(game: str, args: list[str], prompts: int,
                                                                     tmp_path: Path) -> None:
    g = play(game, args, tmp_path, at_random, prompts)
    assert g.decisions, "no decision was shown"
    assert not g.problems, "\n".join(g.problems[:10]) + (f"\n... and {len(g.problems) - 10} more"
                                                          if len(g.problems) > 10 else "")
