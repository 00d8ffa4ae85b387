"""CSV export/import: the round trip gives the same records; formulas cannot run in a spreadsheet."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_here

from wizprint.cards.loader import load_game
from wizprint.generator.csvio import export_csv, import_csv, record_key


@pytest.mark.parametrize("game", ["wizard-cards", "covenant"])
def test_round_trip_gives_the_same_records(game: str, tmp_path: Path) -> None:
    src = load_game(game)
    path = tmp_path / f"{game}.csv"
    path.write_text(export_csv(src), encoding="utf-8")
    out = tmp_path / "imported"
    import_csv(src, path, out)
    back = load_game(out)
    assert [record_key(r) for r in back.cards()] == [record_key(r) for r in sorted(
        src.cards(), key=lambda r: [record_key(x) for x in back.cards()].index(record_key(r)))]
    assert sorted(record_key(r) for r in back.records) == sorted(record_key(r) for r in src.records)
    # and the imported folder exports to the same CSV rows (as a set: file order may differ)
    assert sorted(export_csv(back).splitlines()) == sorted(export_csv(src).splitlines())


def test_csv_has_header_copies_and_every_printable_field() -> None:
    rows = list(csv.DictReader(io.StringIO(export_csv(load_game("covenant")))))
    assert len(rows) == 87
    assert sum(int(r["copies"]) for r in rows) == 91
    duel = next(r for r in rows if r["name"] == "Wizards Duel")
    assert duel["copies"] == "5" and duel["effects"] == "duel"
    giant = next(r for r in rows if r["name"] == "Defeat the Giant")
    assert giant["effects"] == "'quest_level(n=-1)" or giant["effects"] == "quest_level(n=-1)"
    assert giant["vp"] == "4"
    mage = next(r for r in rows if r["name"] == "Rescue the Mage")
    assert mage["effects"] == "on_complete(then=[search(what=wizard)])"
    assert "Look through the deck" in mage["rules_text"]


def test_formula_cells_are_escaped_and_restored(game_copy: Callable[[str], Path], tmp_path: Path) -> None:
    g = game_copy("covenant")
    p = g / "events.toml"
    text = p.read_text()
    bad = {"E01": "=HYPERLINK(\\\"http://x\\\",\\\"y\\\")", "E03": "+1 Treachery", "E04": "-Theft", "E05": "@SUM(A1)",
           "E06": "'quoted"}
    for cid, name in bad.items():
        start = text.index(f'id = "{cid}"')
        a = text.index('name = "', start) + len('name = "')
        b = text.index('"\n', a)
        text = text[:a] + name + text[b:]
    p.write_text(text)
    game = load_game(g)
    out = export_csv(game)
    cells = [c for row in csv.reader(io.StringIO(out)) for c in row]
    for cell in cells:
        assert not cell.startswith(("=", "+", "-", "@")), cell
    assert "'=HYPERLINK(\"http://x\",\"y\")" in cells and "'+1 Treachery" in cells and "''quoted" in cells
    path = tmp_path / "evil.csv"
    path.write_text(out)
    back = load_game(import_csv(game, path, tmp_path / "back").parent)
    names = {c.id: c.name for c in back.cards()}
    assert names["E01"] == '=HYPERLINK("http://x","y")' and names["E04"] == "-Theft" and names["E06"] == "'quoted"


def test_cli_export_to_stdout_and_file_and_deck(tmp_path: Path) -> None:
    res = run_here("export", "csv", "wizard-cards", "--deck", "reference")  # what it writes: in-process
    assert res.returncode == 0
    assert res.stdout.startswith("\ufeff")  # the CSV carries its byte-order mark (read as utf-8-sig)
    assert [r["id"] for r in csv.DictReader(io.StringIO(res.stdout.removeprefix("\ufeff")))] == ["REF1", "REF2"]
    f = tmp_path / "wc.csv"
    res = run_here("export", "csv", "wizard-cards", "-o", str(f))
    assert res.returncode == 0 and len(list(csv.DictReader(io.StringIO(f.read_text())))) == 55
    res = run_here("export", "csv", "wizard-cards", "--deck", "nope")
    assert res.returncode == 1 and "has no deck 'nope'" in res.stderr and "Traceback" not in res.stderr


def test_import_reports_bad_rows_with_their_line(tmp_path: Path) -> None:
    src = load_game("covenant")
    rows = export_csv(src).splitlines()
    rows[3] = rows[3].replace(",1,", ",lots,", 1)  # copies column of the 3rd card
    path = tmp_path / "broken.csv"
    path.write_text("\n".join(rows) + "\n")
    res = run_here("import", "csv", str(path), "--game", "covenant", "-o", str(tmp_path / "out"))
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert f"{path}:4:" in res.stderr
