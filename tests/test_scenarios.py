"""Scenario files: every shipped scenario passes; a failing expectation, an illegal or unscripted move and an
unscripted die are reported clearly with exit 1."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wizprint.solo.scenario import ScenarioError, run_scenario

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_shipped_scenario_passes(path: Path) -> None:
    r = run_scenario(path)
    assert r.ok, r.report()


def test_cli_runs_them_all() -> None:
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "scenario", *map(str, FILES)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("ok: ") == len(FILES)


BASE = """game = "wizard-cards"
title = "t"
[setup]
hands = [["KH", "9C", "2S"], ["AS", "3S", "4S", "5S"]]
deck = ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
"""


def test_a_failed_expectation_gives_a_diff_and_exit_1(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(BASE + '[[step]]\ndo = "play 9C"\n[[step]]\nseat = 1\ndo = "discard AS"\n[[step]]\nseat = 1\n'
                 'do = "discard 3S"\n[expect]\n"damage.1" = 3\n')
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "scenario", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert "FAIL" in r.stdout and "damage.1: expected 3, got 2" in r.stdout


def test_strict_mode_refuses_a_choice_the_script_does_not_cover(tmp_path: Path) -> None:
    f = tmp_path / "strict.toml"
    # Greater Wrath makes seat 1 choose two discards; the script goes on with seat 0
    f.write_text(BASE + '[[step]]\ndo = "play 9C"\n[[step]]\nseat = 0\ndo = "play 2S"\n')
    with pytest.raises(ScenarioError, match="seat 1 must choose now"):
        run_scenario(f)
    # not strict: the automaton makes seat 1's choices and the script continues
    f.write_text("strict = false\n" + BASE + '[[step]]\ndo = "play KH"\n[[step]]\ndo = "play 9C"\n[[step]]\nseat = 0\n'
                 'do = "play 2S"\n[expect]\n"damage.1" = 2\n')
    assert run_scenario(f).ok


def test_an_illegal_scripted_move_names_the_step_line(tmp_path: Path) -> None:
    f = tmp_path / "illegal.toml"
    f.write_text(BASE + '[[step]]\ndo = "play QS"\n')
    with pytest.raises(ScenarioError, match=r"illegal.toml:6: step 1: 'play QS' is not legal"):
        run_scenario(f)


def test_scripted_dice_that_are_never_rolled_fail_in_strict_mode(tmp_path: Path) -> None:
    f = tmp_path / "dice.toml"
    f.write_text(BASE + '[[step]]\ndice = [6, 6]\n[[step]]\ndo = "play 2S"\n')
    r = run_scenario(f)
    assert not r.ok and "2 scripted dice were never rolled" in r.report()
