"""The command line: builds from any folder, clear one-line errors for bad options and unwritable folders."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import run_here

WIZPRINT = str(Path(sys.executable).with_name("wizprint"))  # the console script installed beside this python


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A real `python -m wizprint` process (the tests that read only messages, exit codes and files run the same
    command line in-process: `run_here`)."""
    return subprocess.run([sys.executable, "-m", "wizprint", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_console_script_builds_from_another_folder(tmp_path: Path) -> None:
    for game in ("wizard-cards", "covenant"):
        res = subprocess.run([WIZPRINT, "build", game], capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert res.returncode == 0, res.stderr
        out = tmp_path / "output" / game
        manifest = json.loads((out / "manifest.json").read_text())
        assert manifest["game"] == game
        for f in manifest["files"]:
            assert (out / f["file"]).is_file()
        assert any(f["kind"] == "cards" for f in manifest["files"])


def test_games_lists_counts() -> None:
    res = run_here("games")
    assert res.returncode == 0
    assert "covenant: Covenant of Wizards" in res.stdout and "91 cards" in res.stdout
    assert "wizard-cards" in res.stdout and "54 cards" in res.stdout


@pytest.mark.parametrize("args,words", [
    (["build", "covenant", "--paper", "a5"], "--paper must be one of a4, letter"),
    (["build", "covenant", "--duplex", "sideways"], "--duplex must be long, short or off"),
    (["build", "covenant", "--bleed", "9"], "--bleed must be between 0 and 6"),
    (["build", "covenant", "--back-offset", "1;2"], "--back-offset takes X,Y"),
    (["build", "covenant", "--layout", "booklet"], "--layout must be auto, butted, spaced or gutterfold"),
    (["build", "nosuchgame"], "unknown game 'nosuchgame'"),
])
def test_bad_options_give_one_clear_line(args: list[str], words: str, tmp_path: Path) -> None:
    res = run_here(*args, "-o", str(tmp_path / "o"), cwd=tmp_path)
    assert res.returncode != 0
    assert "Traceback" not in res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and words in lines[0], res.stderr
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").rglob("*.pdf"))


def test_unwritable_folder() -> None:
    """/proc refuses new folders to every user, root included."""
    res = run_here("build", "covenant", "-o", "/proc/wizprint-test/out")
    assert res.returncode == 1 and "Traceback" not in res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot create output folder /proc/wizprint-test/out" in lines[0]


def test_output_path_that_is_a_file(tmp_path: Path) -> None:
    """Works as root too: an output 'folder' that is a file cannot be created."""
    blocker = tmp_path / "blocker"
    blocker.write_text("not a folder")
    res = run_here("build", "covenant", "-o", str(blocker / "out"))
    assert res.returncode == 1 and "Traceback" not in res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "cannot create output folder" in lines[0]


def test_failed_build_writes_nothing(tmp_path: Path) -> None:
    from wizprint.resources import cards_dir

    g = tmp_path / "covenant"
    shutil.copytree(cards_dir() / "covenant", g)
    p = g / "spells.toml"
    p.write_text(p.read_text().replace('name = "Charm"', 'name = "Charm of the Nineteen Whispering Serpent Queens"'))
    res = run_here("build", str(g), "-o", str(tmp_path / "out"))
    assert res.returncode == 1 and "[S16]" in res.stderr and "does not fit" in res.stderr
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").rglob("*")) == []


def test_calibration_sheet(tmp_path: Path) -> None:
    import pikepdf

    res = run_here("build", "calibrate", "--paper", "letter", "--duplex", "short", "-o", str(tmp_path))
    assert res.returncode == 0, res.stderr
    with pikepdf.open(tmp_path / "calibrate" / "calibration-letter-short.pdf") as pdf:  # -o: the parent folder
        assert len(pdf.pages) == 2
        assert [float(v) for v in pdf.pages[0].MediaBox] == [0, 0, 612, 792]


def test_python_dash_m_help() -> None:
    res = run("--help")
    assert res.returncode == 0 and "build" in res.stdout and "validate" in res.stdout


def test_sheet_block_too_tall_is_an_error_with_its_line(tmp_path: Path) -> None:
    from wizprint.resources import cards_dir

    g = tmp_path / "covenant"
    shutil.copytree(cards_dir() / "covenant", g)
    long_para = " ".join(["A very long paragraph that never ends."] * 400)
    (g / "sheets.toml").write_text(
        '[sheets.ability-sheet]\ntitle = "Too much"\n\n[[sheets.ability-sheet.blocks]]\nkind = "heading"\n'
        'text = "Fine"\n\n[[sheets.ability-sheet.blocks]]\nkind = "para"\ntext = "' + long_para + '"\n')
    res = run_here("build", str(g), "-o", str(tmp_path / "out"), "--no-svg", "--no-png")
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "sheets.toml:8: [ability-sheet] block 2:" in res.stderr and "taller than a column" in res.stderr


def test_games_lists_one_game_with_how_it_is_played_solo() -> None:
    r = run_here("games", "relic")
    assert r.returncode == 0 and r.stdout.startswith("relic: Relic")
    assert "solo play: 2-4 players; scenarios (--variant): SC01 The Mystery Beyond," in r.stdout
    assert "wizard-cards" not in r.stdout
    assert "variants (--variant): hectic, constructed" in run_here("games", "wizard-cards").stdout
    bad = run_here("games", "relc")
    assert bad.returncode == 1 and bad.stderr.startswith("error: unknown game 'relc'")


def test_version_is_the_installed_packages() -> None:
    from importlib.metadata import version

    r = run_here("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"wizprint {version('wizprint')}"


@pytest.mark.parametrize(("args", "meant"), [(["build", "relc"], "relic"), (["validate", "Covenent"], "covenant"),
                                            (["solo", "play", "wizard-card"], "wizard-cards"),
                                            (["games", "wizards_cup"], "wizards-cup")])
def test_a_mistyped_game_id_gets_did_you_mean(args: list[str], meant: str, tmp_path: Path) -> None:
    r = run_here(*args, cwd=tmp_path)
    assert r.returncode != 0 and f"did you mean '{meant}'?" in r.stderr and "Traceback" not in r.stderr
    assert not list(tmp_path.iterdir())  # nothing built or saved


def test_an_id_like_no_game_lists_the_games_without_a_guess(tmp_path: Path) -> None:
    r = run_here("build", "zzz", cwd=tmp_path)
    assert r.returncode == 1 and "did you mean" not in r.stderr and "games: relic, " in r.stderr


# -- a user's error, and a fault of wizprint ----------------------------------------------------------------------
def _build_raising(monkeypatch: pytest.MonkeyPatch, exc: BaseException, tmp_path: Path) -> tuple[int, list[str]]:
    """``wizprint build`` whose build raises ``exc``: its exit status and the lines of its stderr."""
    from typer.testing import CliRunner

    import wizprint.generator.build as build
    from wizprint.cli import app

    def broken(*args: object, **kwargs: object) -> None:
        raise exc

    monkeypatch.setattr(build, "build_game", broken)
    r = CliRunner().invoke(app, ["build", "wizard-cards", "-q", "-o", str(tmp_path)])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stderr.splitlines()


def test_a_users_error_is_one_line_without_a_traceback(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from wizprint.errors import BuildError

    assert _build_raising(monkeypatch, BuildError("output folder x is not a folder"), tmp_path) == (
        1, ["error: output folder x is not a folder"])


@pytest.mark.parametrize("kind", ["WizprintBug", "EngineBug", "KeyError", "RuntimeError"])
def test_a_fault_of_wizprint_shows_its_traceback_and_asks_for_a_report(kind: str, monkeypatch: pytest.MonkeyPatch,
                                                                      tmp_path: Path) -> None:
    """A fault of wizprint itself (a WizprintBug, or any exception that is not a user's error) never passes for a
    user's error: its traceback, then one line that says it is a bug and where to report it."""
    import builtins

    import wizprint.errors as errors
    from wizprint.clitools import BUG_EXIT

    cls = getattr(errors, kind, None) or getattr(builtins, kind)
    code, lines = _build_raising(monkeypatch, cls("the plan lost a file"), tmp_path)
    assert code == BUG_EXIT
    assert lines[0] == "Traceback (most recent call last):"
    assert any(ln.partition(":")[0].endswith(kind) and "the plan lost a file" in ln for ln in lines)
    assert lines[-1].startswith("this is a bug in wizprint") and errors.REPORT_TO in lines[-1]
    assert not any(ln.startswith("error:") for ln in lines)
