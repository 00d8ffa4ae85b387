"""`wizprint new FOLDER --from GAME`: a game folder of one's own, copied whole from a shipped game, with the
folder's name as its id. It validates, builds into its own output folder (the shipped game's untouched) and plays;
its own icons are drawn from the folder; nothing of the user's is written over, and a failure leaves nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_here

from wizprint.resources import game_ids


@pytest.mark.parametrize("game", game_ids())
def test_a_new_folder_from_each_game_validates_builds_into_its_own_output_and_plays(game: str,
                                                                                    tmp_path: Path) -> None:
    new = f"my-{game}"
    r = run_here("new", new, "--from", game, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    text = (tmp_path / new / "game.toml").read_text(encoding="utf-8")
    assert f'id = "{new}"' in text and "README.md" in {p.name for p in (tmp_path / new).iterdir()}
    r = run_here("validate", f"./{new}", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.startswith(f"ok: {new} "), r.stdout + r.stderr
    r = run_here("build", f"./{new}", "--no-png", "--no-svg", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "output").iterdir()) == [new]  # never output/<shipped id>/
    manifest = json.loads((tmp_path / "output" / new / "manifest.json").read_text())
    assert any(str(f).endswith(".pdf") for f in json.dumps(manifest).split('"'))
    r = run_here("solo", "check", f"./{new}", "--games", "2", "--jobs", "1", cwd=tmp_path)
    assert r.returncode == 0 and "2 of 2 games completed, 0 errors" in r.stdout, r.stdout + r.stderr


def test_the_new_folders_own_icons_are_the_ones_drawn(tmp_path: Path) -> None:
    """An icon of the game's own, edited in the new folder, is read from there (a broken one is reported at its
    path in the folder), not from the shipped game's icons."""
    assert run_here("new", "duel", "--from", "wizards-cup", cwd=tmp_path).returncode == 0
    (tmp_path / "duel" / "icons" / "fire.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><path d='M 0 0 L",
                                                          encoding="utf-8")
    r = run_here("validate", "./duel", cwd=tmp_path)
    assert r.returncode == 1 and "duel/icons/fire.svg" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize(("args", "words"), [
    (["new", "My Game", "--from", "relic"], "the folder's name is the new game's id"),
    (["new", "covenant", "--from", "covenant"], "is a shipped game's id"),
    (["new", "mine", "--from", "relc"], "did you mean 'relic'?"),
    (["new", "nowhere/mine", "--from", "relic"], "no such folder"),
])
def test_a_name_or_a_game_that_will_not_do_is_refused_and_nothing_is_made(args: list[str], words: str,
                                                                           tmp_path: Path) -> None:
    r = run_here(*args, cwd=tmp_path)
    assert r.returncode in (1, 2) and words in " ".join(r.stderr.split()) and "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_folder_of_the_users_is_never_written_into(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    r = run_here("new", "mine", "--from", "covenant", cwd=tmp_path)
    assert r.returncode == 2 and "already exists" in r.stderr
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
    assert (tmp_path / "mine" / "notes.txt").read_text() == "keep me"
    (tmp_path / "empty").mkdir()  # an empty folder is taken
    assert run_here("new", "empty", "--from", "covenant", cwd=tmp_path).returncode == 0
    assert (tmp_path / "empty" / "game.toml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "mine"]  # no staging folder left
