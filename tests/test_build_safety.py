"""A build is atomic as a folder: killed (SIGKILL) or interrupted (SIGINT) at any moment over an older build, the
output folder is the old build or the new one, its manifest matching every file; nothing of the user's is moved,
overwritten or lost; every output path built from data stays inside the output folder; numeric options are
finite."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_here
from producer_helpers import add_producer

import wizprint.atomic as atomic
import wizprint.generator.build as build_mod
from wizprint.atomic import StagedFolder, safe_relpath
from wizprint.errors import BuildError, WizprintError
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.deckpdf import PrintOptions

FAST = BuildOptions(svg=False, png=False)


def wizprint_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "wizprint", *args]


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() or p.is_symlink()}


def siblings(out: Path) -> list[str]:
    """Temporary siblings of an output folder (``.X.wizprint-tmp-...``, ``.X.wizprint-old-...``)."""
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.wizprint-"))


def assert_consistent(out: Path) -> dict[str, str]:
    """The folder's manifest lists exactly the files present (besides itself), each with its sha256."""
    manifest = json.loads((out / "manifest.json").read_text())
    listed = {f["file"]: f["sha256"] for f in manifest["files"]}
    assert files_under(out) == set(listed) | {"manifest.json"}
    for name, digest in listed.items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest, name
    assert not [n for n in files_under(out) if n.endswith(".tmp")]
    return listed


# -- interruption ---------------------------------------------------------------------------------------------

# `wizprint ARGS` that first says "ready" on stderr, once Python has started: a signal sent earlier lands in the
# interpreter's own start-up (importing `site` or `runpy`), which a signal ends with exit 1 and "Fatal Python error"
# whatever the program (on a busy machine that start-up can outlast the 50 ms a random moment waited at least)
READY = "import sys; print('ready', file=sys.stderr, flush=True); from wizprint.cli import main; main()"


def _kill_at_random(out: Path, args: list[str], rnd: random.Random, sig: int, wait_for_stage: bool) -> int:
    """Start a build and send ``sig`` at a random moment: after a random delay once Python has started, or a random
    delay of up to 5 ms after its temporary folder appears (it lives a few ms for wizard-cards since files that come
    out as the old build's are linked: the writing and the swap, the moments that matter)."""
    proc = subprocess.Popen([sys.executable, "-c", READY, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    try:
        assert proc.stderr.readline() == b"ready\n"
        if wait_for_stage:
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline and not any(
                    s.startswith(f".{out.name}.wizprint-tmp-") for s in siblings(out)):
                time.sleep(0.001)
            time.sleep(rnd.uniform(0, 0.005))
        else:
            time.sleep(rnd.uniform(0.0, 1.0))
        if proc.poll() is None:
            proc.send_signal(sig)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        err = proc.stderr.read().decode()
        proc.stderr.close()
    assert "Traceback" not in err or (sig == signal.SIGINT and "KeyboardInterrupt" in err), err
    # exit 1 only as click answers Ctrl-C that comes while it reads the command line, before the command starts
    assert proc.returncode != 1 or err == "\nAborted!\n", err
    return proc.returncode


def test_sigkill_at_any_moment_leaves_the_old_build_or_the_new_one(tmp_path: Path) -> None:
    """A real ``wizprint build`` killed with SIGKILL at seeded random moments over an older build: after each
    kill the folder's manifest lists exactly the files present with their sha256. Every round builds with another
    bleed than the build it replaces, so a folder half old and half new could not pass."""
    out = tmp_path / "wizard-cards"  # -o names the parent of the game folders
    build_game("wizard-cards", out, BuildOptions(print=PrintOptions(paper="letter")))
    before = assert_consistent(out)
    rnd = random.Random(20240611)
    states = []
    start = time.monotonic()
    for i in range(10):
        code = _kill_at_random(out, ["build", "wizard-cards", "-o", str(tmp_path), "-q", "--bleed", str(0.5 * (i + 1))],
                               rnd, signal.SIGKILL, wait_for_stage=i % 5 != 4)
        left = siblings(out)  # a temporary folder left behind: killed while writing or swapping
        now = assert_consistent(out)
        states.append(("finished" if code == 0 else "old" if now == before else "new") + ("+tmp" if left else ""))
        before = now
    elapsed = time.monotonic() - start
    assert any(s.endswith("+tmp") for s in states), states  # some kills did land in the writing and the swap
    # a later build removes the temporary folders that the killed ones left
    res = subprocess.run(wizprint_cmd("build", "wizard-cards", "-o", str(tmp_path), "-q"), capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert_consistent(out)
    assert siblings(out) == []
    print(f"SIGKILL rounds: {states}, {elapsed:.1f} s")


def test_sigint_leaves_no_temporary_file_or_folder(tmp_path: Path) -> None:
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, BuildOptions(print=PrintOptions(paper="letter")))
    rnd = random.Random(7)
    for i in range(6):
        code = _kill_at_random(out, ["build", "wizard-cards", "-o", str(tmp_path), "-q", "--bleed", str(1 + i * 0.25)],
                               rnd, signal.SIGINT, wait_for_stage=i % 2 == 0)
        assert code in (0, 1, 130, -signal.SIGINT), code
        assert siblings(out) == []
        assert_consistent(out)


def test_sigterm_is_handled_as_ctrl_c_and_leaves_no_temporary_folder(tmp_path: Path) -> None:
    """SIGTERM while a rebuild writes its temporary folder or swaps it in (every file comes out new: another
    bleed each time): the folder is removed, the old build or the new one is in place, exit 143 (or 0 when the
    signal came after the build had ended); no traceback. One of the rounds at least lands before the end."""
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, BuildOptions(print=PrintOptions(paper="letter")))
    rnd = random.Random(15)
    codes = []
    for i in range(6):
        codes.append(_kill_at_random(out, ["build", "wizard-cards", "-o", str(tmp_path), "-q", "--bleed",
                                           str(1 + i * 0.25)], rnd, signal.SIGTERM, wait_for_stage=True))
        assert siblings(out) == [], codes
        assert codes[-1] in (0, 143), codes
        assert_consistent(out)
    assert 143 in codes, codes


def test_a_failed_build_leaves_the_old_build_untouched(tmp_path: Path,
                                                       game_copy: Callable[[str], Path]) -> None:
    out = tmp_path / "builds" / "covenant"
    build_game("covenant", out, FAST)
    old = {n: (out / n).read_bytes() for n in files_under(out)}
    g = game_copy("covenant")
    p = g / "spells.toml"
    p.write_text(p.read_text().replace('name = "Charm"', 'name = "Charm of the Nineteen Whispering Serpent Queens"'))
    res = subprocess.run(wizprint_cmd("build", str(g), "-o", str(out.parent)), capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 1 and "does not fit" in res.stderr
    assert {n: (out / n).read_bytes() for n in files_under(out)} == old
    assert siblings(out) == []


def test_stale_temporary_folders_are_removed_and_a_moved_old_build_is_put_back(tmp_path: Path) -> None:
    out = tmp_path / "X"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".X.{atomic.TMP_TAG}-{dead.pid}-abc123"
    stale.mkdir()
    (stale / "half.pdf").write_bytes(b"%PDF-half")
    live = tmp_path / f".X.{atomic.TMP_TAG}-{os.getppid()}-def456"  # a process still running: left alone
    live.mkdir()
    unrelated = tmp_path / ".X.something-else"
    unrelated.mkdir()
    # a killed fallback swap: the old build moved aside, the target missing
    build_game("wizard-cards", tmp_path / "old", FAST)
    moved = tmp_path / f".X.{atomic.OLD_TAG}-{dead.pid}-ghi789"
    (tmp_path / "old").rename(moved)
    (moved / "notes.txt").write_text("mine")
    result = build_game("wizard-cards", out, FAST)
    assert not stale.exists() and live.is_dir() and unrelated.is_dir() and not moved.exists()
    assert (out / "notes.txt").read_text() == "mine" and result.kept == ["notes.txt"]


def test_without_an_atomic_exchange_two_renames_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(atomic, "exchange", lambda a, b: False)
    out = tmp_path / "X"
    build_game("wizard-cards", out, FAST)
    build_game("wizard-cards", out, BuildOptions(print=PrintOptions(paper="letter"), svg=False, png=False))
    assert json.loads((out / "manifest.json").read_text())["files"][0]["paper"] == "letter"
    assert_consistent(out)
    assert siblings(out) == []


def test_the_exchange_is_atomic_on_linux(tmp_path: Path) -> None:
    if not sys.platform.startswith("linux"):
        pytest.skip("renameat2 is Linux only")
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "from-a").touch()
    (b / "from-b").touch()
    assert atomic.exchange(a, b)
    assert (a / "from-b").exists() and (b / "from-a").exists()


# -- the user's files -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("setup,words", [
    (lambda d: (d / "thesis.docx").write_text("years of work"), "it has no manifest.json"),
    (lambda d: (d / "manifest.json").write_text('{"name": "my web app"}'), "not written by wizprint"),
    (lambda d: (d / "manifest.json").write_bytes(b"\xff\xfe garbage"), "not written by wizprint"),
    (lambda d: (d / "manifest.json").mkdir(), "it has no manifest.json"),
])
def test_a_folder_that_is_not_a_build_is_refused(tmp_path: Path, setup: object, words: str) -> None:
    out = tmp_path / "wizard-cards"
    out.mkdir()
    setup(out)  # type: ignore[operator]
    before = {n: (out / n).read_bytes() for n in files_under(out)}
    res = subprocess.run(wizprint_cmd("build", "wizard-cards", "-o", str(tmp_path), "-q"), capture_output=True,
                         text=True, timeout=120)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not a wizprint build" in lines[0] and words in lines[0], res.stderr
    assert {n: (out / n).read_bytes() for n in files_under(out)} == before
    assert siblings(out) == []


def test_the_users_own_files_in_an_earlier_build_are_kept(tmp_path: Path) -> None:
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, FAST)
    (out / "notes.txt").write_text("print on thick paper")
    (out / "mine" / "empty").mkdir(parents=True)
    (out / "mine" / "todo.md").write_text("cut")
    (out / "link").symlink_to(out / "notes.txt")
    (out / ".thesis.draft_v2.tmp").write_text("a name like a temporary file's is no proof that wizprint made it")
    res = subprocess.run(wizprint_cmd("build", "wizard-cards", "-o", str(tmp_path), "-q", "--no-svg", "--no-png",
                                      "--paper", "letter"), capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kept 5 files of yours from the earlier build")
    assert "notes.txt" in lines[0] and "mine/todo.md" in lines[0]
    assert (out / "notes.txt").read_text() == "print on thick paper" and (out / "mine" / "todo.md").exists()
    assert (out / "mine" / "empty").is_dir() and os.readlink(out / "link") == str(out / "notes.txt")
    assert (out / ".thesis.draft_v2.tmp").exists()
    listed = {f["file"] for f in json.loads((out / "manifest.json").read_text())["files"]}
    assert listed == files_under(out) - {"manifest.json", "notes.txt", "mine/todo.md", "link", ".thesis.draft_v2.tmp"}


def test_a_user_file_where_the_new_build_writes_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "X"
    build_game("wizard-cards", out, FAST)
    (out / "svg" / "spells").mkdir(parents=True)
    (out / "svg" / "spells" / "AS.svg").write_text("<svg>my own ace</svg>")
    with pytest.raises(BuildError, match="is not one of wizprint's files there"):
        build_game("wizard-cards", out, BuildOptions(svg=True, png=False))
    assert (out / "svg" / "spells" / "AS.svg").read_text() == "<svg>my own ace</svg>"
    assert siblings(out) == []


def edit_manifest(out: Path, change: Callable[[list[dict[str, object]]], None]) -> None:
    manifest = json.loads((out / "manifest.json").read_text())
    change(manifest["files"])
    (out / "manifest.json").write_text(json.dumps(manifest))


def contents(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target."""
    return {p.relative_to(folder).as_posix(): os.readlink(p) if p.is_symlink() else p.read_bytes()
            for p in folder.rglob("*") if p.is_symlink() or p.is_file()}


def test_a_file_listed_by_an_edited_manifest_is_kept_when_its_bytes_are_not_the_listed_ones(tmp_path: Path) -> None:
    """A manifest.json edited to list the user's notes.txt (with any sha256 but that of its bytes): the rebuild
    keeps it and says so; listed with the sha256 of its very bytes, it counts as the earlier build's."""
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, FAST)
    (out / "notes.txt").write_text("print on thick paper")
    edit_manifest(out, lambda files: files.append({"file": "notes.txt", "kind": "csv", "pages": 1,
                                                   "sha256": hashlib.sha256(b"something else").hexdigest()}))
    res = run_here("build", "wizard-cards", "-o", str(tmp_path), "-q", "--no-svg", "--no-png", "--paper", "letter")
    assert res.returncode == 0, res.stderr
    assert res.stderr.startswith("kept 1 file of yours from the earlier build") and "notes.txt" in res.stderr
    assert (out / "notes.txt").read_text() == "print on thick paper"
    assert "notes.txt" not in {f["file"] for f in json.loads((out / "manifest.json").read_text())["files"]}
    edit_manifest(out, lambda files: files.append({"file": "notes.txt", "kind": "csv", "pages": 1,
                                                   "sha256": hashlib.sha256(b"print on thick paper").hexdigest()}))
    assert run_here("build", "wizard-cards", "-o", str(tmp_path), "-q", "--no-svg", "--no-png").returncode == 0
    assert not (out / "notes.txt").exists()
    assert_consistent(out)


@pytest.mark.parametrize("how", ["changed", "link", "folder"])
def test_a_changed_output_where_the_rebuild_writes_stops_it_before_it_writes(tmp_path: Path, how: str) -> None:
    """An output of the earlier build that is no longer the file it made (its bytes changed in a spreadsheet,
    replaced by a link to the user's own file, or by a folder) where the new build writes that file: one line
    naming it and why, exit 1, and the folder exactly as it was (the link not followed, its target untouched)."""
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, FAST)
    mine = tmp_path / "my-deck.pdf"
    mine.write_bytes(b"%PDF- the user's own")
    name = "wizard-cards.csv" if how == "changed" else "cards-spells.pdf"
    (out / name).unlink()
    if how == "changed":
        (out / name).write_text("id,name\nAS,my own ace\n")
    elif how == "link":
        (out / name).symlink_to(mine)
    else:
        (out / name).mkdir()
        (out / name / "inside.txt").write_text("mine")
    before = contents(out)
    res = run_here("build", "wizard-cards", "-o", str(tmp_path), "-q", "--no-svg", "--no-png", "--paper", "letter")
    lines = res.stderr.splitlines()
    assert res.returncode == 1 and len(lines) == 1, res.stderr
    assert lines[0].startswith(f"error: {out / name}") and "move it away" in lines[0], lines
    assert ("changed since wizprint wrote it" if how == "changed" else "is not the plain file wizprint wrote"
            ) in lines[0], lines
    assert contents(out) == before and mine.read_bytes() == b"%PDF- the user's own"
    assert siblings(out) == []


@pytest.mark.parametrize("listed", ["../outside.txt", "sub/../../outside.txt", "ABSOLUTE"])
def test_a_manifest_listing_a_path_outside_the_folder_is_refused(tmp_path: Path, listed: str) -> None:
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, FAST)
    outside = tmp_path / "outside.txt"
    outside.write_text("mine")
    name = str(outside) if listed == "ABSOLUTE" else listed
    edit_manifest(out, lambda files: files.append({"file": name, "kind": "csv", "pages": 1,
                                                   "sha256": hashlib.sha256(b"mine").hexdigest()}))
    before = contents(out)
    res = run_here("build", "wizard-cards", "-o", str(tmp_path), "-q", "--no-svg", "--no-png")
    lines = res.stderr.splitlines()
    assert res.returncode == 1 and len(lines) == 1, res.stderr
    # a long listed path is quoted cut short (a hostile manifest may hold any text): its start is named
    assert "is not a wizprint build" in lines[0] and f"lists {name[:40]!r}"[:-1] in lines[0]
    assert "which is not a file inside" in lines[0]
    assert outside.read_text() == "mine" and contents(out) == before and siblings(out) == []


@pytest.mark.parametrize("blocked", ["svg", "svg/spells"])
def test_a_file_where_a_folder_of_the_build_goes_is_named_and_kept(tmp_path: Path, blocked: str) -> None:
    """A file of the user's named like a folder the build makes (svg/, svg/<deck>/): one line naming the folder and
    the file in its way, before anything is drawn; the file is kept."""
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, FAST)
    (out / blocked).parent.mkdir(parents=True, exist_ok=True)
    (out / blocked).write_text("mine")
    res = run_here("build", "wizard-cards", "-o", str(tmp_path), "-q", "--no-png")
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert res.stderr == (f"error: cannot make the folder {blocked}/ in output folder {out}: {out / blocked} is a "
                          f"file of yours in the way (wizprint does not delete it); move it away or rename it, and "
                          f"try again\n")
    assert (out / blocked).read_text() == "mine" and siblings(out) == []


@pytest.mark.parametrize("holds_a_file", [True, False])
def test_a_folder_of_the_users_where_the_build_writes_a_file_is_named_and_kept(tmp_path: Path,
                                                                               holds_a_file: bool) -> None:
    out = tmp_path / "wizard-cards"
    build_game("wizard-cards", out, FAST)
    (out / "cards-spells.pdf").unlink()
    (out / "cards-spells.pdf").mkdir()
    if holds_a_file:
        (out / "cards-spells.pdf" / "note.txt").write_text("mine")
    res = run_here("build", "wizard-cards", "-o", str(tmp_path), "-q", "--no-svg", "--no-png")
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    assert res.stderr == (f"error: {out / 'cards-spells.pdf'} is listed in manifest.json but is not the plain file "
                          f"wizprint wrote (it is a link or a folder), and the new output folder has a file of that "
                          f"name; wizprint never replaces a file of yours: move it away (or delete it) first\n")
    assert (out / "cards-spells.pdf").is_dir() and siblings(out) == []
    assert not holds_a_file or (out / "cards-spells.pdf" / "note.txt").read_text() == "mine"


@pytest.mark.parametrize("command", [["build", "wizard-cards", "-q", "-o"], ["export", "csv", "wizard-cards", "-o"],
                                     ["solo", "check", "wizard-cards", "-n", "1", "-q", "--json"]])
def test_an_output_under_a_file_names_the_file_in_the_way(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "prints").write_text("mine")
    target = tmp_path / "prints" / "x" / ("y.json" if command[0] == "solo" else "y")
    res = run_here(*command, str(target))
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert res.stderr.startswith("error: cannot create output folder ") and res.stderr.endswith(
        f": {tmp_path / 'prints'} is a file, not a folder, and it is in the way (wizprint leaves it alone: move it "
        f"away or choose another place)\n"), res.stderr
    assert (tmp_path / "prints").read_text() == "mine"


# -- a rebuild links the files that come out the same ---------------------------------------------------------------
def made_otherwise(out: Path, name: str, data: bytes) -> None:
    """The build in ``out`` as if it had made ``name`` with the bytes ``data`` (its manifest says so)."""
    (out / name).write_bytes(data)
    manifest = json.loads((out / "manifest.json").read_text())
    for f in manifest["files"]:
        if f["file"] == name:
            f["sha256"] = hashlib.sha256(data).hexdigest()
    (out / "manifest.json").write_text(json.dumps(manifest))


def test_a_rebuild_links_what_comes_out_the_same_and_writes_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "wizard-cards"
    opts = BuildOptions(png=False)
    build_game("wizard-cards", out, opts)
    first = {f: os.stat(out / f) for f in files_under(out) if f != "manifest.json"}
    edited, shared = sorted(f for f in first if f.endswith(".pdf"))[:2]
    made_otherwise(out, edited, b"%PDF- as an earlier build made it")  # wizprint's file: the rebuild replaces it
    os.link(out / shared, tmp_path / "copy.pdf")  # linked from elsewhere: never shared with the new build
    build_game("wizard-cards", out, opts)
    fresh = tmp_path / "fresh"
    build_game("wizard-cards", fresh, opts)
    assert {f: (out / f).read_bytes() for f in files_under(out)} == {f: (fresh / f).read_bytes()
                                                                    for f in files_under(fresh)}
    for f, st in first.items():
        now = os.stat(out / f)
        if f in (edited, shared):
            assert now.st_ino != st.st_ino, f
        else:  # the same file (inode, time), now in the new folder, and linked nowhere else
            assert (now.st_ino, now.st_mtime_ns, now.st_nlink) == (st.st_ino, st.st_mtime_ns, 1), f
    copy = os.stat(tmp_path / "copy.pdf")
    assert copy.st_nlink == 1 and copy.st_ino == first[shared].st_ino
    assert len(first) > 50 and siblings(out) == []
    assert_consistent(out)


def test_a_staged_folder_links_only_plain_equal_unshared_files_inside_the_target(tmp_path: Path) -> None:
    target, outside = tmp_path / "t", tmp_path / "o"
    (target / "sub").mkdir(parents=True)
    outside.mkdir()
    for name, data in {"same.txt": b"same", "other.txt": b"before", "sub/same.txt": b"same",
                       "shared.txt": b"same"}.items():
        (target / name).write_bytes(data)
    os.link(target / "shared.txt", tmp_path / "shared-elsewhere.txt")
    (outside / "same.txt").write_bytes(b"same")
    (target / "away").symlink_to(outside)  # a folder of the target that leads outside it
    (target / "alias.txt").symlink_to(target / "same.txt")
    names = ["same.txt", "other.txt", "sub/same.txt", "shared.txt", "away/same.txt", "alias.txt", "new.txt"]
    with StagedFolder(target) as stage:
        stage.reusable = set(names)
        made = {n: stage.write(n, b"same") for n in names}
        linked = {n for n, p in made.items() if os.path.exists(target / n) and os.path.samefile(p, target / n)}
        assert linked == {"same.txt", "sub/same.txt"}
        assert all(p.read_bytes() == b"same" for p in made.values())
        with pytest.raises(BuildError, match="two files"):
            stage.write("same.txt", b"same")  # a name made twice is still refused


def test_a_symlinked_output_folder_is_replaced_where_it_points(tmp_path: Path) -> None:
    real = tmp_path / "real"
    build_game("wizard-cards", real, FAST)
    link = tmp_path / "link"
    link.symlink_to(real)
    build_game("wizard-cards", link, BuildOptions(print=PrintOptions(paper="letter"), svg=False, png=False))
    assert link.is_symlink() and json.loads((real / "manifest.json").read_text())["files"][0]["paper"] == "letter"
    assert_consistent(real)


# -- paths built from data -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../x", "../../dx", "/etc/passwd", "a/../../b", "a//b", "a/./b", "nul\x00byte",
                                  "back\\slash", "C:drive", "", "x" * 300, "line\nbreak"])
def test_unsafe_output_names_are_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(BuildError) as exc:
        safe_relpath(name)
    assert len(str(exc.value)) < 250 and "\n" not in str(exc.value)
    with StagedFolder(tmp_path / "out") as stage, pytest.raises(BuildError):
        stage.write(name, b"x")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("bad_id", ["../../evil", "a/b", "nul\x00", "..", "x" * 250])
def test_a_card_id_that_would_leave_the_output_folder_fails_cleanly(bad_id: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Checked at write time even if loading let the id through."""
    from wizprint.cards.loader import load_game

    def load_with_bad_id(ref: object) -> object:
        g = load_game(ref)  # type: ignore[arg-type]
        first = next(r for r in g.records if r.kind == "card" and r.deck == "spells")
        g.records = [dataclasses.replace(r, id=bad_id) if r is first else r for r in g.records]
        return g

    monkeypatch.setattr(build_mod, "load_game", load_with_bad_id)
    with pytest.raises(BuildError, match="cannot be part of a file name"):
        build_game("wizard-cards", tmp_path / "out", BuildOptions(svg=True, png=False))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["../../escape.txt", "/tmp/wizprint-escape.txt", "svg/../../up.txt"])
def test_a_kind_of_output_cannot_write_outside(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_producer(monkeypatch, "extra", (name,))
    with pytest.raises(BuildError, match="output file name"):
        build_game("wizard-cards", tmp_path / "a" / "b" / "out", FAST)
    assert not (tmp_path / "escape.txt").exists() and not Path("/tmp/wizprint-escape.txt").exists()
    assert list(tmp_path.iterdir()) == []  # the folders a/b made for the build are gone too


def test_two_outputs_with_one_name_fail_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_producer(monkeypatch, "extra", ("cards-spells.pdf",))
    with pytest.raises(WizprintError, match=r"two files of the output folder have the name 'cards-spells\.pdf'"):
        build_game("wizard-cards", tmp_path / "out", FAST)
    assert list(tmp_path.iterdir()) == []


# -- numeric options ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args,words", [
    (["--back-offset", "nan,0"], "--back-offset takes two finite numbers"),
    (["--back-offset", "0,inf"], "--back-offset takes two finite numbers"),
    (["--back-offset", "-inf,1"], "--back-offset takes two finite numbers"),
    (["--back-offset", "1e400,0"], "--back-offset takes two finite numbers"),
    (["--back-offset", "1,2,3"], "--back-offset takes X,Y"),
    (["--bleed", "nan"], "--bleed must be between 0 and 6"),
    (["--bleed", "inf"], "--bleed must be between 0 and 6"),
    (["--bleed", "-inf"], "--bleed must be between 0 and 6"),
])
def test_numeric_options_must_be_finite(args: list[str], words: str, tmp_path: Path) -> None:
    for game in ("wizard-cards", "calibrate"):
        res = run_here("build", game, "-o", str(tmp_path / "o"), *args)  # the messages, not the process: in-process
        assert res.returncode == 2 and "Traceback" not in res.stderr
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], res.stderr
    assert not (tmp_path / "o").exists()
