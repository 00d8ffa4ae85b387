"""`wizprint validate` on broken copies of the data: one clear file:line error per problem, exit 1, no traceback."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_here


def validate(path: Path) -> subprocess.CompletedProcess[str]:
    """`wizprint validate PATH` in this process (what it says and returns; the shipped data is validated by a real
    process below)."""
    return run_here("validate", str(path), cwd=path.parent)


def edit(path: Path, old: str, new: str, count: int = 1) -> int:
    """Replace text in a data file; return the 1-based line where the first replacement landed."""
    text = path.read_text()
    assert old in text, old
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, count))
    return line


def line_of(path: Path, needle: str) -> int:
    for i, ln in enumerate(path.read_text().splitlines(), 1):
        if needle in ln:
            return i
    raise AssertionError(needle)


def assert_one_error(res: subprocess.CompletedProcess[str], file: str, line: int, card: str, words: str) -> None:
    assert res.returncode == 1, res.stdout + res.stderr
    assert "Traceback" not in res.stderr
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1, res.stderr
    err = errors[0]
    assert f"{file}:{line}:" in err, err
    if card:
        assert f"[{card}]" in err, err
    assert re.search(words, err), err


def test_the_shipped_data_is_valid() -> None:
    res = subprocess.run([sys.executable, "-m", "wizprint", "validate"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "ok: covenant" in res.stdout and "ok: wizard-cards" in res.stdout


def test_malformed_toml(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("covenant")
    line = edit(g / "items.toml", 'name = "Staff of Power"', 'name = "Staff of Power')
    assert_one_error(validate(g), "items.toml", line, "", "malformed TOML")


def test_wrong_type(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("covenant")
    # the 9th wizard's vp: a string where an integer belongs
    text = (g / "wizards.toml").read_text()
    start = text.index('id = "W09"')
    vp_at = text.index("vp = 1", start)
    (g / "wizards.toml").write_text(text[:vp_at] + 'vp = "one"' + text[vp_at + 6:])
    line = text[:vp_at].count("\n") + 1
    assert_one_error(validate(g), "wizards.toml", line, "W09", "vp must be an integer")


def test_missing_field(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("covenant")
    text = (g / "wizards.toml").read_text()
    start = text.index('id = "W05"')
    ab = text.index('ability = "scry"\n', start)
    (g / "wizards.toml").write_text(text[:ab] + text[ab + len('ability = "scry"\n'):])
    record_line = text[:start].count("\n")  # the [[card]] line just above the id
    assert_one_error(validate(g), "wizards.toml", record_line, "W05", "missing field 'ability'")


def test_duplicate_id(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("covenant")
    line = edit(g / "spells.toml", 'id = "S12"', 'id = "S11"') - 1
    assert_one_error(validate(g), "spells.toml", line, "S11", "duplicate id 'S11'")


def test_unknown_effect_word(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("covenant")
    line = edit(g / "spells.toml", '{ word = "reroll" }', '{ word = "rerol" }')
    assert_one_error(validate(g), "spells.toml", line, "S20", "unknown effect word 'rerol'.*did you mean 'reroll'")


def test_text_too_long(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("covenant")
    edit(g / "events.toml", 'name = "Theft"', 'name = "Theft of the Seventeen Silver Candlesticks of Old Aldermere"')
    from wizprint.resources import layouts_dir

    layout_line = line_of(layouts_dir() / "covenant" / "layout.toml", 'text = "{{ card.name }}"') - 3
    assert_one_error(validate(g), "layouts/covenant/layout.toml", layout_line, "E04", "does not fit")


def test_count_mismatch(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("covenant")
    edit(g / "events.toml", "copies = 5", "copies = 4")
    res = validate(g)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    deck_line = line_of(g / "game.toml", "count = 91")
    type_line = line_of(g / "game.toml", "count = 5")
    assert any(f"game.toml:{deck_line}:" in e and "deck 'main' has 90 cards" in e for e in errors), errors
    assert any(f"game.toml:{type_line}:" in e and "type 'duel' has 4 cards" in e for e in errors), errors


def test_unknown_key_and_bad_enum(game_copy: Callable[[str], Path]) -> None:
    g = game_copy("wizard-cards")
    line = edit(g / "components.toml", 'suit = "hearts"', 'suit = "cups"')
    res = validate(g)
    assert res.returncode == 1
    assert f"components.toml:{line}:" in res.stderr and "'cups' is not one of" in res.stderr


@pytest.mark.parametrize("target,words", [("no-such-game", "unknown game 'no-such-game'"),
                                          ("/nonexistent/folder", "/nonexistent/folder: no such game folder")])
def test_unknown_game_or_path(target: str, words: str, tmp_path: Path) -> None:
    res = run_here("validate", target)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert words in res.stderr
