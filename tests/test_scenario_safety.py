"""Scenario files are untrusted: wrong types, text that cannot be parsed, long odd lines and huge values
each give one clean line naming file:line and exit 1, never a traceback, and nothing in a scenario makes it hang.
(Split from test_solo_safety.py, which keeps saved games, the kernel's JSON, command-line limits and play.)"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from test_solo_safety import cli

from wizprint.solo.scenario import ScenarioError, run_scenario

# -- scenario files ---------------------------------------------------------------------------------------------------
WC = 'game = "wizard-cards"\ntitle = "t"\n[setup]\nhands = [["KH", "9C"], ["AS", "3S"]]\n'
COV = 'game = "covenant"\nplayers = 2\n[setup]\nphase = "event"\nhands = [["W03"], ["W05"]]\n'
REL = 'game = "relic"\nplayers = 2\nvariant = "SC01"\n[setup]\nmissions = ["MS14", "MS15"]\n'


def scen(tmp_path: Path, text: str) -> tuple[Path, str]:
    f = tmp_path / "s.toml"
    f.write_text(text, encoding="utf-8")
    r = run_scenario(f)
    assert not r.ok
    assert r.failures and all(re.match(rf"{re.escape(str(f))}:\d+: ", x) for x in r.failures), r.failures
    return f, r.report()


def line_of(text: str, needle: str) -> int:
    return next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


SCENARIOS: list[tuple[str, str, str]] = [
    ('game = "wizard-cards"\nplayers = "two"\n', "players", "'players' must be a whole number from 1 to 16"),
    ('game = "wizard-cards"\nplayers = 0\n', "players", "'players' must be a whole number from 1 to 16"),
    ('game = "wizard-cards"\nplayers = 3\n', "players", "is for 2 players, not 3"),
    ('game = "wizard-cards"\nseed = 1e300\n', "seed", "'seed' must be a whole number"),
    ('game = "wizard-cards"\nseed = -1\n', "seed", "'seed' must be a whole number"),
    ('game = "wizard-cards"\nstep = [1, 2]\n', "step", "'step' must be an array of tables"),
    ('game = "wizard-cards"\nvariant = "speedy"\n', "variant", "has no variant 'speedy'"),
    ('game = "wizard-cards"\ntitle = 5\n', "title", "'title' must be a string"),
    ('game = 5\n', "game", "'game' must be a string"),
    (WC + '[[step]]\ndo = 5\n', "do = 5", "'do' must be an action key, not 5"),
    (WC + '[[step]]\ndice = ["six"]\n', "dice =", "expected a list of die results"),
    (WC + '[[step]]\ndice = [7]\n', "dice =", "whole numbers from 1 to 6"),
    (WC + '[[step]]\ndice = [0]\n', "dice =", "whole numbers from 1 to 6"),
    (WC + 'dice = [9]\n', "dice =", "[setup] dice: expected a list of die results"),
    (WC + '[[step]]\ndo = "play KH"\nexpect = 5\n', "expect = 5", "'expect' must be a table"),
    (WC + '[expect]\n"nothing" = 1\n', '"nothing"', "unknown probe 'nothing'"),
    ('game = "wizard-cards"\nexpect = 5\n', "expect = 5", "'expect' must be a table"),
    ('game = "wizard-cards"\n[setup]\nhands = [["KH"], ["AS"], ["2S"]]\n', "hands", "3 seats given for 2 players"),
    ('game = "wizard-cards"\n[setup]\nhands = [["KH"], ["KH"]]\n', "hands", "card 'KH' is named twice"),
    ('game = "wizard-cards"\n[setup]\nhands = "KH"\n', "hands", "expected a list with one entry per seat"),
    ('game = "wizard-cards"\n[setup]\nhands = [[5]]\n', "hands", "a card id is a string, not 5"),
    ('game = "wizard-cards"\n[setup]\nwards = [["KH"]]\n', "wards", "KH is not a ward component"),
    ('game = "wizard-cards"\n[setup]\nturn = 2\n', "turn", "expected a whole number from 0 to 1"),
    ('game = "wizard-cards"\n[setup]\nturn_number = "1"\n', "turn_number", "expected a whole number"),
    ('game = "wizard-cards"\n[setup]\nrest = 1\n', "rest", "expected a string"),
    ('game = "wizard-cards"\n[setup]\nphase = "dance"\n', "phase", "'dance' is not one of draft, spell"),
    (COV + 'turn = 5\n', "turn = 5", "[setup] turn: expected a whole number from 0 to 1"),
    (COV + 'skips = [-1]\n', "skips", "[setup] skips: expected a whole number from 0 to 100"),
    (COV + 'in_play = [[5]]\n', "in_play = [[5]]", "expected a card id or a table, not 5"),
    (COV + 'x = 1\n', "x = 1", "[setup]: unknown key 'x'"),
    ('game = "covenant"\n[setup]\nin_play = [[{card = "W03", attached = 5}]]\n', "in_play",
     "[setup] in_play: expected a list of card ids, not 5"),
    ('game = "covenant"\n[setup]\nin_play = [[{card = "W03", colour = "red"}]]\n', "in_play",
     "only 'card' and 'attached'"),
    ('game = "covenant"\n[setup]\nacted = ["W03"]\n', "acted", "'W03' is not a wizard in play"),
    ('game = "covenant"\n[setup]\nquests = [["W03"]]\n', "quests", "W03 is not a quest"),
    ('game = "covenant"\n[setup]\nturn_number = 1.5\n', "turn_number", "expected a whole number"),
    (REL + 'life = [-5]\n', "life", "[setup] life: expected a whole number from 1 to 99, not -5"),
    (REL + 'level = [13]\n', "level", "[setup] level: expected a whole number from 0 to 12"),
    (REL + 'attributes = [[4, 3, 99]]\n', "attributes", "expected a whole number from 1 to 12, not 99"),
    (REL + 'attributes = [[4, 3]]\n', "attributes", "expected [strength, willpower, cunning]"),
    (REL + 'characters = ["CH01", "CH01"]\n', "characters", "CH01 is played by two seats"),
    (REL + 'characters = [["CH01"]]\n', "characters", "expected a character id, not ['CH01']"),
    (REL + 'positions = [["O01"]]\n', "positions", "expected a space id"),
    (REL + 'positions = ["Z99"]\n', "positions", "unknown space 'Z99'"),
    (REL + 'tokens = 5\n', "tokens", "expected a list with one entry per seat"),
    (REL + 'tokens = [["O01"], ["O02"], ["O03"]]\n', "tokens", "3 seats given for 2 players"),
    (REL + 'tokens = [[5]]\n', "tokens", "expected a space id, not 5"),
    (REL + 'hands = [["TR01"]]\n', "hands", "TR01#1 (a red card) cannot be there"),
    (REL + 'threats = { O01 = ["PW01"] }\n', "threats", "PW01#1 (a power card) cannot be there"),
    (REL + 'decks = { red = ["TB01"] }\n', "decks", "TB01#1 (a blue card) cannot be there"),
    (REL + 'charges = { WG01 = 3 }\n', "charges", "'WG01' is nobody's asset"),
    (REL + 'turn = "0"\n', "turn = ", "[setup] turn: expected a whole number"),
    (REL + 'phase = 3\n', "phase", "[setup] phase: expected a string"),
]


@pytest.mark.parametrize("text,needle,words", SCENARIOS, ids=[f"{i}-{w[:30]}" for i, (_, _, w) in enumerate(SCENARIOS)])
def test_a_scenario_with_wrong_types_fails_with_its_line(tmp_path: Path, text: str, needle: str, words: str) -> None:
    f, report = scen(tmp_path, text)
    assert f"{f}:{line_of(text, needle)}: " in report and words in report, report
    assert "Traceback" not in report


def test_a_scenario_that_cannot_be_parsed_names_its_line(tmp_path: Path) -> None:
    f = tmp_path / "deep.toml"
    f.write_text('game = "wizard-cards"\nx = ' + "[" * 50_000 + "]" * 50_000 + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"deep\.toml:2: malformed TOML: arrays or tables nested too deeply"):
        run_scenario(f)
    f.write_text('game = "wizard-cards"\n\nseed = ' + "9" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"deep\.toml:3: malformed TOML"):
        run_scenario(f)


def test_a_long_odd_line_is_read_in_linear_time(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text('game = "wizard-cards"\ntitle = """\n[' + " " * 300_000 + 'x\n"""\n[[step]]\ndo = 5\n',
                 encoding="utf-8")
    t = time.perf_counter()
    r = run_scenario(f)
    assert time.perf_counter() - t < 5 and f"{f}:6: step 1: 'do' must be an action key" in r.report()


def test_a_scenario_cannot_hang(tmp_path: Path) -> None:
    """Not strict, a move that never becomes legal: the automaton plays on only until the game ends (or its move
    budget runs out), and the step fails with its line."""
    f = tmp_path / "s.toml"
    text = 'game = "covenant"\nplayers = 4\nstrict = false\n[[step]]\ndo = "never legal"\n'
    f.write_text(text, encoding="utf-8")
    t = time.perf_counter()
    r = run_scenario(f)
    assert time.perf_counter() - t < 60
    assert not r.ok and f"{f}:5: step 1: the game ended before 'never legal' could be played" in r.report()


def test_a_huge_value_in_a_scenario_makes_a_short_line(tmp_path: Path) -> None:
    _, report = scen(tmp_path, WC + '[[step]]\ndo = "' + "x" * 200_000 + '"\n')
    assert max(len(ln) for ln in report.splitlines()) < 1000


def test_a_scenario_with_thousands_of_problems_prints_the_first_50_and_a_count(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text(WC + "[expect]\n" + "".join(f"probe_{i} = {i}\n" for i in range(20_000)), encoding="utf-8")
    r = cli("solo", "scenario", str(f))
    assert r.exit_code == 1 and "Traceback" not in r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == f"FAIL: {f}: t" and lines[-1] == "0 passed, 1 failed"
    assert len(lines) == 1 + 50 + 1 + 1, len(lines)
    assert lines[1] == f"  {f}:6: final: unknown probe 'probe_0' (known: " + lines[1].split("(known: ", 1)[1]
    assert lines[-2] == "  ... and 19,950 more problems"


def test_the_scenario_command_reports_wrong_types_without_traceback(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text('game = "relic"\nplayers = 2\n[setup]\nlife = [-5]\n', encoding="utf-8")
    r = cli("solo", "scenario", str(f))
    assert r.exit_code == 1 and "Traceback" not in r.stdout + r.stderr
    assert f"{f}:4: [setup] life: expected a whole number from 1 to 99, not -5" in r.stdout
