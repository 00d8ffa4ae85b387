"""Numbers that are not finite (TOML's nan and inf, JSON's NaN and Infinity, a number too large for a float such as
1e400) are refused wherever wizprint reads a number from a user's file: the files of a game folder (card data,
``[engine]`` tables, vocabulary, layouts), scenario files, saved games, a build's manifest and an import's record.
Each is one line naming the file and the key (and the line, for TOML)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from cli_helpers import run_here

from wizprint.errors import WizprintError
from wizprint.generator.build import previous_build
from wizprint.generator.csvio import IMPORT_MARKER, previous_import
from wizprint.resources import cards_dir, layouts_dir
from wizprint.solo.scenario import ScenarioError, run_scenario
from wizprint.validation import Validation

LAYOUT_FILES = (("layout.toml", "layout.toml"), ("sheets.toml", "sheets.toml"), ("board.toml", "board-layout.toml"),
                ("components.toml", "components-layout.toml"), ("map.toml", "map-layout.toml"))
SAVES = Path(__file__).parent / "saves"


def game_folder(tmp_path: Path, game: str) -> Path:
    """A copy of a shipped game that carries its own layout files."""
    dst = tmp_path / game
    shutil.copytree(cards_dir() / game, dst, ignore=shutil.ignore_patterns("__pycache__"))
    for src, name in LAYOUT_FILES:
        if (layouts_dir() / game / src).is_file():
            shutil.copy(layouts_dir() / game / src, dst / name)
    return dst


def replace_line(path: Path, old: str, new: str) -> int:
    """Replace the first ``old`` in a file; the 1-based line where it was."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.mark.parametrize("game,file,old,new,key", [
    ("covenant", "game.toml", "search_budget = 200", "search_budget = nan", "engine.search_budget"),
    ("wizards-cup", "game.toml", "step_cap = 5000", "step_cap = inf", "engine.step_cap"),
    ("wizards-cup", "wizards.toml", "value = 5", "value = 1e400", "card[1].value"),
    ("wizards-and-relics", "map-layout.toml", "margin = 6", "margin = -inf", "map.margin"),
    ("covenant", "layout.toml", 'parchment = "#f6efdf"', "parchment = nan", "style.parchment"),
    ("relic", "vocabulary.toml", 'vs = { type = "str", default = "" }', 'vs = { type = "str", default = +nan }',
     "words.battle_bonus.params.vs.default"),
])
def test_a_number_that_is_not_finite_in_a_game_folder_is_refused_at_its_line(tmp_path: Path, game: str, file: str,
                                                                             old: str, new: str, key: str) -> None:
    g = game_folder(tmp_path, game)
    line = replace_line(g / file, old, new)
    literal = new.rsplit("=", 1)[1].strip(" }")
    lines = [ln for ln, ok in Validation([str(g)]) if not ok]
    assert len(lines) == 1 and re.fullmatch(rf"error: \S*/{re.escape(file)}:{line}: {re.escape(key)}: must be a "
                                            rf"finite number, not {re.escape(literal)}", lines[0]), lines


@pytest.mark.parametrize("text,line,key,literal", [
    ('game = "wizard-cards"\nseed = nan\n', 2, "seed", "nan"),
    ('game = "wizard-cards"\nseed = inf\n', 2, "seed", "inf"),
    ('game = "wizard-cards"\n[setup]\ndice = [1, -inf]\n', 3, "setup.dice[2]", "-inf"),
    ('game = "wizards-cup"\n[[step]]\ndo = "x"\nexpect = { score = 1e999 }\n', 4, "step[1].expect.score", "1e999"),
])
def test_a_number_that_is_not_finite_in_a_scenario_is_refused_at_its_line(tmp_path: Path, text: str, line: int,
                                                                          key: str, literal: str) -> None:
    f = tmp_path / "s.toml"
    f.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        run_scenario(f)
    assert str(info.value) == f"{f}:{line}: {key}: must be a finite number, not {literal}"
    res = run_here("solo", "scenario", str(f))
    assert res.returncode == 1 and "Traceback" not in res.stdout + res.stderr
    assert f"{f}:{line}: {key}: must be a finite number, not {literal}" in res.stdout


@pytest.mark.parametrize("save,path,literal", [
    ("wr-midgame.save.json", ("state", "no_advantage"), "NaN"),  # a key read only by an older save's conversion
    ("wr-no-advantage.save.json", ("state", "no_advantage"), "Infinity"),
    ("wcup-midgame.save.json", ("state", "steps"), "-Infinity"),
])
def test_a_saved_game_holding_nan_or_infinity_is_refused(tmp_path: Path, save: str, path: tuple[str, ...],
                                                         literal: str) -> None:
    data = json.loads((SAVES / save).read_text(encoding="utf-8"))
    data[path[0]][path[1]] = "PLACE"
    f = tmp_path / "game.save.json"
    f.write_text(json.dumps(data, indent=1).replace('"PLACE"', literal), encoding="utf-8")
    res = run_here("solo", "play", data["game"], "--load", str(f))
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stdout + res.stderr
    assert res.stderr.strip() == f"error: {f}: {'.'.join(path)}: expected a finite number, got {literal}"


def test_a_manifest_or_import_record_holding_nan_is_not_wizprints(tmp_path: Path) -> None:
    build = tmp_path / "build"
    build.mkdir()
    (build / "manifest.json").write_text('{"game": "covenant", "pages": NaN, "files": []}', encoding="utf-8")
    (build / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(WizprintError, match=r"its manifest\.json was not written by wizprint"):
        previous_build(build)
    imported = tmp_path / "imported"
    imported.mkdir()
    (imported / IMPORT_MARKER).write_text('{"made_by": "wizprint import csv", "files": [], "rows": Infinity}',
                                          encoding="utf-8")
    with pytest.raises(WizprintError, match=f"its {re.escape(IMPORT_MARKER)} was not written by wizprint"):
        previous_import(imported)
