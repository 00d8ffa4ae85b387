"""Every file a user names is read only if it is a regular file, and never past its limit: a named pipe (FIFO), a
link to /dev/zero, a folder or a huge sparse file given as a saved game, a scenario or a CSV gets one line naming
it and exit 1 at once; none hangs, none is read into memory. Each command runs in its own process, with a timeout:
a command that blocks on a FIFO fails the test instead of hanging it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_here
from test_solo_safety import saved

from wizprint.files import FileProblem, read_file

TIMEOUT = 60  # seconds: each command answers in about one; a blocked open never would


def _fifo(p: Path) -> None:
    os.mkfifo(p)


def _dev_zero(p: Path) -> None:
    p.symlink_to("/dev/zero")


def _folder(p: Path) -> None:
    p.mkdir()


def _sparse(p: Path) -> None:
    with open(p, "wb") as fh:
        fh.truncate(64 << 30)  # 64 GiB that take no room on the disk


SPECIAL: dict[str, tuple[Callable[[Path], None], str]] = {
    "fifo": (_fifo, "is not a regular file (a named pipe)"),
    "link to /dev/zero": (_dev_zero, "is not a regular file (a device)"),
    "folder": (_folder, "is not a regular file (a folder)"),
    "huge sparse file": (_sparse, "is larger than {limit}, the limit for {what}"),
}


def wizprint(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wizprint", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, cwd=cwd, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("kind", SPECIAL)
@pytest.mark.parametrize("what", ["saved game", "scenario", "csv"])
def test_a_special_file_named_by_the_user_is_refused_at_once(tmp_path: Path, what: str, kind: str) -> None:
    make, words = SPECIAL[kind]
    f = tmp_path / {"saved game": "game.save.json", "scenario": "s.toml", "csv": "cards.csv"}[what]
    make(f)
    if what == "saved game":
        r = wizprint("solo", "play", "covenant", "--load", str(f), cwd=tmp_path)
        why = words.format(limit="16 MiB", what="a saved game")
        assert r.stderr.splitlines() == [f"error: cannot read saved game {f}: {why}"], r.stderr
    elif what == "scenario":
        r = wizprint("solo", "scenario", str(f), cwd=tmp_path)
        why = words.format(limit="1 MiB", what="a scenario file")
        assert r.stdout.splitlines() == [f"FAIL: {f}: s", f"  {f}: {why}", "0 passed, 1 failed"], r.stdout + r.stderr
        assert r.stderr == ""
    else:
        r = wizprint("import", "csv", str(f), "--game", "covenant", "-o", str(tmp_path / "out"), cwd=tmp_path)
        if kind == "huge sparse file":  # a CSV's problems are counted
            assert r.stderr.splitlines() == [f"error: {f}: the file is larger than 16 MiB, the limit for a CSV file",
                                             "1 problem found"], r.stderr
        else:
            assert r.stderr.splitlines() == [f"error: cannot read {f}: {words}"], r.stderr
        assert not (tmp_path / "out").exists()
    assert r.returncode == 1, r.stdout + r.stderr
    assert "Traceback" not in r.stdout + r.stderr


def test_a_fifo_in_a_game_folder_is_refused_at_once(tmp_path: Path) -> None:
    import shutil

    from wizprint.resources import cards_dir

    g = tmp_path / "wizard-cards"
    shutil.copytree(cards_dir() / "wizard-cards", g, ignore=shutil.ignore_patterns("__pycache__"))
    os.mkfifo(g / "extra.toml")
    r = wizprint("validate", str(g), cwd=tmp_path)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "error: wizard-cards/extra.toml: is not a regular file (a named pipe)" in r.stderr.splitlines(), r.stderr


def test_a_resumed_games_log_file_that_is_a_fifo_is_kept_and_the_log_goes_elsewhere(tmp_path: Path) -> None:
    """Before a resumed game writes its log over a file, it reads the file's first line (is it a wizprint log?):
    a FIFO of that name is not one, and is not waited on."""
    import json

    save = tmp_path / "game.save.json"
    save.write_text(json.dumps(saved("covenant", 3, 12)), encoding="utf-8")
    log = tmp_path / "game.log"
    os.mkfifo(log)
    r = subprocess.run([sys.executable, "-m", "wizprint", "solo", "play", "covenant", "--load", str(save),
                        "--log-file", str(log)], input="quit\n", capture_output=True, text=True, timeout=TIMEOUT,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    said = "".join(r.stdout.split())  # a long path is folded across lines on the screen
    assert "".join(f"{log} is not a wizprint game log: it is kept, and the log is written to "
                   f"{tmp_path / 'game-2.log'}".split()) in said, r.stdout
    assert (tmp_path / "game-2.log").read_text(encoding="utf-8").startswith("wizprint solo play: covenant")


def test_import_csv_reads_standard_input_as_dash(tmp_path: Path) -> None:
    """``import csv -`` reads the CSV from standard input (up to the same limit), with the same result as the
    file."""
    exported = run_here("export", "csv", "covenant")
    assert exported.returncode == 0
    (tmp_path / "cards.csv").write_text(exported.stdout, encoding="utf-8")
    from_file = run_here("import", "csv", str(tmp_path / "cards.csv"), "--game", "covenant", "-o",
                         str(tmp_path / "a"))
    from_stdin = run_here("import", "csv", "-", "--game", "covenant", "-o", str(tmp_path / "b"),
                          input=exported.stdout)
    assert from_file.returncode == 0 and from_stdin.returncode == 0, from_stdin.stderr
    a = (tmp_path / "a" / "cards.toml").read_text(encoding="utf-8").splitlines()
    b = (tmp_path / "b" / "cards.toml").read_text(encoding="utf-8").splitlines()
    assert b[0] == a[0].replace("imported from cards.csv", "imported from standard input") and b[1:] == a[1:]


def test_read_file_reads_a_regular_file_up_to_its_limit(tmp_path: Path) -> None:
    f = tmp_path / "f.txt"
    f.write_bytes(b"x" * 100)
    assert read_file(f, 100) == b"x" * 100
    with pytest.raises(FileProblem, match=r"f.txt: is larger than 99 bytes, the limit for a note$"):
        read_file(f, 99, "a note")
    with pytest.raises(FileProblem, match=r"missing: cannot be read: No such file or directory$"):
        read_file(tmp_path / "missing", 100)
