"""The kinds of output of a build, each a producer registered by name: chosen with --only and --skip (the older
--no-svg and --no-png still work), a wrong name said in one line, a new kind added by registering it, and a job
that makes other files than it planned reported as a fault of wizprint."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from cli_helpers import run_here
from producer_helpers import add_producer

from wizprint.cards.loader import load_game
from wizprint.errors import WizprintBug
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.csvio import export_csv
from wizprint.generator.producing import REGISTRY, Plan, made

BUILT_IN = ["decks", "sheets", "records", "board", "map", "dial-boards", "tokens", "svg", "previews", "csv", "manifest"]


def _files(folder: Path) -> dict[str, str]:
    """Every file of a build folder (relative name) with its sha256."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_built_in_kinds_are_registered_in_the_order_the_manifest_lists_them() -> None:
    assert list(REGISTRY)[:len(BUILT_IN)] == BUILT_IN
    assert [name for name, p in REGISTRY.items() if p.always] == ["manifest"]
    assert REGISTRY["previews"].needs == ("decks",)


def test_a_kind_registered_before_the_built_in_ones_is_listed_after_them() -> None:
    """The manifest's order is that of the modules named in build.py's OUTPUT_KINDS, whichever module was
    imported (and so registered its kinds) first."""
    from wizprint.generator.build import OUTPUT_KINDS
    from wizprint.generator.producing import Producer, in_order

    saved = dict(REGISTRY)
    early = Producer("early", "early: a kind of a module imported first", lambda drawn, opts: Plan())
    try:
        REGISTRY.clear()
        REGISTRY.update({"early": early, **saved})
        in_order(OUTPUT_KINDS)
        assert list(REGISTRY) == [*saved, "early"]
    finally:
        REGISTRY.clear()
        REGISTRY.update(saved)


def test_the_help_of_only_and_skip_names_every_kind(tmp_path: Path) -> None:
    from wizprint.cli import EXPORTS, KINDS
    from wizprint.generator.producing import exports

    assert KINDS.split(", ") == [name for name, p in REGISTRY.items() if not p.always and not p.asked]
    assert EXPORTS.split(", ") == exports()
    res = run_here("build", "--help")
    assert "--only" in res.stdout and "--skip" in res.stdout and "dial-boards" in res.stdout


def test_only_makes_the_kinds_named_and_the_manifest(tmp_path: Path) -> None:
    result = build_game("wizard-cards", tmp_path / "w", BuildOptions(only=("csv", "sheets")))
    assert [o.file for o in result.outputs] == ["sheet-reference-sheet.pdf", "wizard-cards.csv"]
    assert sorted(_files(tmp_path / "w")) == ["manifest.json", "sheet-reference-sheet.pdf", "wizard-cards.csv"]
    assert (tmp_path / "w" / "wizard-cards.csv").read_text(encoding="utf-8") == export_csv(load_game("wizard-cards"))
    listed = json.loads((tmp_path / "w" / "manifest.json").read_text())["files"]
    assert [f["file"] for f in listed] == ["sheet-reference-sheet.pdf", "wizard-cards.csv"]


def test_previews_alone_are_cut_from_deck_pdfs_that_are_not_kept(tmp_path: Path) -> None:
    """The previews are cut from the decks' PDFs (``needs``): made alone, they are the previews of a whole build,
    and the PDFs they were cut from are not kept."""
    whole = _files(build_game("wizard-cards", tmp_path / "all", BuildOptions(svg=False)).out_dir)
    alone = _files(build_game("wizard-cards", tmp_path / "previews", BuildOptions(only=("previews",))).out_dir)
    assert sorted(alone) == ["manifest.json", "preview-reference.png", "preview-spells.png"]
    assert {f: alone[f] for f in alone if f != "manifest.json"} == {f: whole[f] for f in whole if f.endswith(".png")}


def test_skip_makes_what_the_older_switches_make(tmp_path: Path) -> None:
    for name, args in (("skip", ["--skip", "svg,previews"]), ("switches", ["--no-svg", "--no-png"])):
        res = run_here("build", "wizard-cards", "-q", "-j", "1", "-o", str(tmp_path / name), *args)
        assert res.returncode == 0, res.stderr
    skipped, switched = _files(tmp_path / "skip" / "wizard-cards"), _files(tmp_path / "switches" / "wizard-cards")
    assert skipped == switched and "cards-spells.pdf" in skipped
    assert not any(f.startswith("svg/") or f.endswith(".png") for f in skipped)


@pytest.mark.parametrize("args,words", [
    (["--only", "decks,cardz"], "--only: 'cardz' is not a kind of output (kinds: decks, sheets,"),
    (["--skip", "manifest"], "--skip: manifest cannot be skipped"),
    (["--only", " , "], "--only takes kinds of output separated by commas"),
])
def test_a_kind_that_is_not_one_is_one_clear_line(args: list[str], words: str, tmp_path: Path) -> None:
    res = run_here("build", "wizard-cards", "-o", str(tmp_path / "o"), *args)
    assert res.returncode == 2 and res.stderr.splitlines() == [res.stderr.strip()]
    assert res.stderr.startswith("error: ") and words in res.stderr, res.stderr
    assert not (tmp_path / "o").exists()


def test_a_new_kind_is_made_and_chosen_like_the_built_in_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    add_producer(monkeypatch, "notes", ("notes.txt",))
    res = run_here("build", "wizard-cards", "-q", "-o", str(tmp_path / "only"), "--only", "notes")
    assert res.returncode == 0, res.stderr
    assert sorted(_files(tmp_path / "only" / "wizard-cards")) == ["manifest.json", "notes.txt"]
    result = build_game("wizard-cards", tmp_path / "skip", BuildOptions(svg=False, png=False, skip=("notes",)))
    assert "notes.txt" not in {o.file for o in result.outputs} and result.outputs


def test_a_job_that_makes_other_files_than_it_planned_is_a_fault_of_wizprint(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    add_producer(monkeypatch, "notes", ("notes.txt",), lambda: [made("other.txt", "notes", "x")])
    with pytest.raises(WizprintBug, match=r"a build job made \['other\.txt'\], not the files it planned"):
        build_game("wizard-cards", tmp_path / "out", BuildOptions(only=("notes",)))
    assert list(tmp_path.iterdir()) == []
