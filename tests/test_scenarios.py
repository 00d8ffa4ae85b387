"""Scenario files: every shipped scenario passes; the runner refuses mistakes (an unknown key or section, a wrong
type) with file:line; a failing expectation, an illegal or unscripted move and unscripted chance are failures
reported with the line; a refused move can be asserted; every file is run and the run ends with a summary."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_here

from wizprint.solo.scenario import ScenarioError, run_all, run_scenario

HERE = Path(__file__).parent / "scenarios"
FILES = sorted(HERE.glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_shipped_scenario_passes(path: Path) -> None:
    r = run_scenario(path)
    assert r.ok, r.report()


def test_every_game_with_an_engine_has_scenarios_and_uses_refuse() -> None:
    from wizprint.solo.kernel import engine_games

    for game in engine_games():
        mine = [p for p in FILES if p.read_text(encoding="utf-8").count(f'game = "{game}"')]
        assert mine, f"no scenario file for {game}"
        assert any("refuse =" in p.read_text(encoding="utf-8") for p in mine), f"no scenario of {game} uses refuse"


def test_cli_runs_them_all() -> None:
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "scenario", *map(str, FILES)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("ok: ") == len(FILES)
    assert f"{len(FILES)} passed, 0 failed" in r.stdout


BASE = """game = "wizard-cards"
title = "t"
[setup]
hands = [["KH", "9C", "2S"], ["AS", "3S", "4S", "5S"]]
deck = ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f


def test_a_failed_expectation_gives_a_diff_with_its_line_and_exit_1(tmp_path: Path) -> None:
    f = write(tmp_path, "bad.toml", BASE + '[[step]]\ndo = "play 9C"\n[[step]]\nseat = 1\ndo = "discard AS"\n'
                                          '[[step]]\nseat = 1\ndo = "discard 3S"\n[expect]\n"damage.1" = 3\n')
    r = run_here("solo", "scenario", str(f))  # the report and exit code: in-process (a real run is above)
    assert r.returncode == 1
    assert "FAIL" in r.stdout and "bad.toml:15: final: damage.1: expected 3, got 2" in r.stdout
    assert "0 passed, 1 failed" in r.stdout


def test_a_misspelt_key_or_section_fails_with_its_line(tmp_path: Path) -> None:
    f = write(tmp_path, "typo.toml", BASE + '[[step]]\ndo = "play 9C"\nexpct = { "damage.1" = 9 }\n')
    r = run_scenario(f)
    assert not r.ok and "typo.toml:8: step 1: unknown key 'expct'" in r.report()
    f = write(tmp_path, "section.toml", BASE + '[exepct]\n"damage.1" = 9\n')
    r = run_scenario(f)
    assert not r.ok and "section.toml:6: unknown section 'exepct'" in r.report()
    f = write(tmp_path, "setup.toml", BASE.replace("[setup]\n", "[setup]\nhandz = []\n"))
    r = run_scenario(f)
    assert not r.ok and "setup.toml:4: [setup]: unknown key 'handz'" in r.report()
    f = write(tmp_path, "top.toml", "strict = 1\n" + BASE)
    assert "top.toml:1: 'strict' must be true or false" in run_scenario(f).report()


def test_strict_mode_refuses_a_choice_the_script_does_not_cover(tmp_path: Path) -> None:
    # Greater Wrath makes seat 1 choose two discards; the script goes on with seat 0
    f = write(tmp_path, "strict.toml", BASE + '[[step]]\ndo = "play 9C"\n[[step]]\nseat = 0\ndo = "play 2S"\n')
    r = run_scenario(f)
    assert not r.ok and "strict.toml:10: step 2: the script has seat 0 play 'play 2S', but seat 1 must choose now" \
        in r.report()
    # not strict: the automaton makes seat 1's choices and the script continues
    f.write_text("strict = false\n" + BASE + '[[step]]\ndo = "play KH"\n[[step]]\ndo = "play 9C"\n[[step]]\n'
                 'seat = 0\ndo = "play 2S"\n[expect]\n"damage.1" = 2\n')
    assert run_scenario(f).ok


def test_an_illegal_scripted_move_names_the_step_line(tmp_path: Path) -> None:
    f = write(tmp_path, "illegal.toml", BASE + '[[step]]\ndo = "play QS"\n')
    r = run_scenario(f)
    assert not r.ok and "illegal.toml:7: step 1: 'play QS' is not legal" in r.report()


def test_refuse_and_legal_assertions(tmp_path: Path) -> None:
    ok = write(tmp_path, "ok.toml", BASE + '[[step]]\nrefuse = ["play QS", "stop"]\n'
                                         'legal = ["play KH", "play 9C", "play 2S"]\nlegal_includes = ["play 2S"]\n'
                                         'do = "play KH"\n[[step]]\nlegal_includes = ["stop"]\n')
    assert run_scenario(ok).ok, run_scenario(ok).report()
    bad = write(tmp_path, "bad.toml", BASE + '[[step]]\nrefuse = "play KH"\n')
    r = run_scenario(bad)
    assert not r.ok and "bad.toml:7: step 1: 'play KH' should be refused now, but it was accepted" in r.report()
    bad = write(tmp_path, "bad2.toml", BASE + '[[step]]\nlegal = ["play KH"]\n')
    r = run_scenario(bad)
    assert not r.ok and "bad2.toml:7: step 1: the legal moves are not as expected" in r.report()
    assert "not expected ['play 2S', 'play 9C']" in r.report()


def test_scripted_dice_that_are_never_rolled_fail_in_strict_mode(tmp_path: Path) -> None:
    f = write(tmp_path, "dice.toml", BASE + '[[step]]\ndice = [6, 6]\n[[step]]\ndo = "play 2S"\n')
    r = run_scenario(f)
    assert not r.ok and "2 scripted dice were never rolled" in r.report()


def test_an_unscripted_random_choice_in_the_set_up_is_an_error(tmp_path: Path) -> None:
    """Set-up runs under the same strictness: the constructed draft's first picker is chance."""
    f = write(tmp_path, "draft.toml", 'game = "wizard-cards"\nvariant = "constructed"\n[setup]\nphase = "draft"\n')
    r = run_scenario(f)
    assert not r.ok and "does not script" in r.report()
    f.write_text('game = "wizard-cards"\nvariant = "constructed"\n[setup]\npicks = ["1"]\n[[step]]\nseat = 1\n'
                 'do = "draft hearts"\n[expect]\ncurrent = 0\n')
    assert run_scenario(f).ok, run_scenario(f).report()


def test_arrange_puts_cards_on_top_of_a_pile(tmp_path: Path) -> None:
    f = write(tmp_path, "arrange.toml", BASE.replace('deck = [', 'deck_unused = [').replace(
        'deck_unused = ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]\n', '') +
              '[[step]]\narrange = { spell_pile = ["QD", "KD", "JD"] }\ndo = "play 9C"\n[[step]]\nseat = 1\n'
              'do = "discard AS"\n[[step]]\ndo = "discard 3S"\n[expect]\n"hand.0" = ["2S", "JD", "KD", "KH", "QD"]\n')
    r = run_scenario(f)
    assert r.ok, r.report()


def test_three_files_where_the_first_fails_are_all_reported(tmp_path: Path) -> None:
    a = write(tmp_path, "a.toml", BASE + '[[step]]\ndo = "play QS"\n')
    b = write(tmp_path, "b.toml", BASE + '[[step]]\ndo = "play KH"\n')
    c = write(tmp_path, "c.toml", BASE + '[expect]\n"damage.1" = 0\n')
    results, failed = run_all([a, b, c])
    assert [r.ok for r in results] == [False, True, True] and failed == 1
    r = run_here("solo", "scenario", str(a), str(b), str(c))
    assert r.returncode == 1
    assert r.stdout.count("FAIL: ") == 1 and r.stdout.count("ok: ") == 2 and "2 passed, 1 failed" in r.stdout


def test_an_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    f = write(tmp_path, "broken.toml", 'game = "wizard-cards"\n[[step]\n')
    with pytest.raises(ScenarioError, match=r"broken.toml:2: malformed TOML"):
        run_scenario(f)
    results, failed = run_all([f, tmp_path / "missing.toml"])
    assert failed == 2 and "cannot read" in results[1].report()
