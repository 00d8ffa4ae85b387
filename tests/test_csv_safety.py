"""``import csv`` with any CSV file and any output folder: bounded work, every encoding answered, every problem
named by CSV row and column, the user's files never overwritten or deleted, nothing left behind by a failure."""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import json
import random
import resource
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from cli_helpers import run_here
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizprint.cards import tomlwrite
from wizprint.cards.loader import load_game
from wizprint.cards.model import Game
from wizprint.errors import DataErrors, WizprintError
from wizprint.generator import csvio
from wizprint.generator.csvio import (
    IMPORT_MARKER,
    MAX_CELL_CHARS,
    MAX_FILE_BYTES,
    export_csv,
    import_csv,
    record_key,
)
from wizprint.generator.layout import GameLayout, load_layout


@pytest.fixture(scope="module")
def covenant_csv() -> str:
    # the CSV's text without its byte-order mark: these tests encode it in other ways (the BOM: test_print_details)
    return export_csv(load_game("covenant"), bom=False)


def rows_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def start_lines(text: str) -> list[int]:
    """The line on which each row of a CSV text starts (a quoted cell may span lines)."""
    reader = csv.reader(io.StringIO(text))
    out, end = [], 0
    for _ in reader:
        out.append(end + 1)
        end = reader.line_num
    return out


def to_csv(rows: list[list[str]]) -> str:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue()


def import_cli(path: Path, out: Path, game: str = "covenant",
               limit_memory: bool = False) -> subprocess.CompletedProcess[str]:
    def cap() -> None:  # 1 GiB of address space: a CSV must not need more
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    args = ["import", "csv", str(path), "--game", game, "-o", str(out)]
    if not limit_memory:  # only the memory cap needs a process of its own; the messages are read in-process
        return run_here(*args)
    return subprocess.run([sys.executable, "-m", "wizprint", *args], capture_output=True, text=True, timeout=120,
                          preexec_fn=cap)


def error_lines(res: subprocess.CompletedProcess[str]) -> list[str]:
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    lines = res.stderr.strip().splitlines()
    assert all(len(ln) < 700 for ln in lines)
    return lines


def left_behind(folder: Path) -> list[str]:
    """Everything in ``folder`` (a test's tmp_path) besides the CSV files the test wrote."""
    return sorted(p.name for p in folder.iterdir() if not p.name.endswith(".csv"))


# -- encodings ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-be-bom", "utf-32"])
def test_utf8_with_or_without_bom_and_utf16_32_with_bom_are_read(encoding: str, tmp_path: Path,
                                                                  covenant_csv: str) -> None:
    data = (b"\xfe\xff" + covenant_csv.encode("utf-16-be") if encoding == "utf-16-be-bom"
            else covenant_csv.encode(encoding))
    path = tmp_path / "cards.csv"
    path.write_bytes(data)
    out = tmp_path / "out"
    import_csv(load_game("covenant"), path, out)
    assert sorted(record_key(r) for r in load_game(out).records) == sorted(
        record_key(r) for r in load_game("covenant").records)


@pytest.mark.parametrize("data,line,words", [
    # Latin-1 (what a spreadsheet may save): the first bad byte is on line 4
    (lambda t: "\n".join([*t.splitlines()[:3], "E99,Caf\xe9,event"]).encode("latin-1"), 4, "not UTF-8 text"),
    # UTF-16 without a byte-order mark
    (lambda t: t.encode("utf-16-le"), 1, "UTF-16 without a byte-order mark"),
    # a UTF-16 file cut in the middle of a character
    (lambda t: t.encode("utf-16")[:-1], 0, "not UTF-16 text"),
    # a binary file
    (lambda t: bytes(range(256)) * 10, 1, "NUL"),
])
def test_other_encodings_are_one_clear_error_naming_the_first_bad_line(data: object, line: int, words: str,
                                                                        tmp_path: Path, covenant_csv: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_bytes(data(covenant_csv))  # type: ignore[operator]
    lines = error_lines(import_cli(path, tmp_path / "out"))
    assert len(lines) == 2 and words in lines[0] and lines[1] == "1 problem found", lines
    if line:
        assert lines[0].startswith(f"error: {path}:{line}: ")
    assert left_behind(tmp_path) == []


# -- limits ------------------------------------------------------------------------------------------------------

def test_a_file_over_the_size_limit_is_refused_at_once(tmp_path: Path, covenant_csv: str) -> None:
    """A 60 MB CSV: refused before it is read (the issue saw 78 s, 2.1 GB and 469,722 error lines)."""
    path = tmp_path / "huge.csv"
    header, body = covenant_csv.split("\n", 1)
    with path.open("w") as fh:
        fh.write(header + "\n")
        while fh.tell() < 60_000_000:
            fh.write(body)
    start = time.monotonic()
    lines = error_lines(import_cli(path, tmp_path / "out", limit_memory=True))
    assert time.monotonic() - start < 10
    assert lines == [f"error: {path}: the file is larger than 16 MiB, the limit for a CSV file", "1 problem found"]
    assert left_behind(tmp_path) == []


def test_a_file_just_under_the_limit_full_of_errors_is_quick_and_prints_50_lines(tmp_path: Path,
                                                                                 covenant_csv: str) -> None:
    rows = rows_of(covenant_csv)
    bad = [[c if h != "copies" else "lots" for h, c in zip(rows[0], r)] for r in rows[1:]]
    path = tmp_path / "big.csv"
    with path.open("w") as fh:
        fh.write(to_csv(rows[:1]))
        chunk = to_csv(bad)
        while fh.tell() + len(chunk.encode()) < MAX_FILE_BYTES:
            fh.write(chunk)
    start = time.monotonic()
    lines = error_lines(import_cli(path, tmp_path / "out", limit_memory=True))
    assert time.monotonic() - start < 20
    assert len(lines) == 52 and lines[0].startswith(f"error: {path}:2: [E01] column 'copies': must be a whole")
    assert lines[50] == f"... and {csvio.MAX_ROWS + 1 - 50:,} more problems"  # 10,000 rows, then the row limit
    assert lines[51] == f"{csvio.MAX_ROWS + 1} problems found"
    assert left_behind(tmp_path) == []


@pytest.mark.parametrize("size", [MAX_CELL_CHARS + 1, 1_000_000])
def test_a_cell_over_the_limit_names_its_row_and_column(size: int, tmp_path: Path, covenant_csv: str) -> None:
    rows = rows_of(covenant_csv)
    rows[5][rows[0].index("flavor")] = "x" * size
    path = tmp_path / "cell.csv"
    path.write_text(to_csv(rows))
    lines = error_lines(import_cli(path, tmp_path / "out"))
    assert len(lines) == 2 and lines[0].startswith(f"error: {path}:6: [{rows[5][0]}] column 'flavor': the cell")
    assert "more than the limit of 65,536" in lines[0] and len(lines[0]) < 300


def test_a_cell_nested_too_deep_is_an_error_not_a_recursion(covenant_csv: str) -> None:
    rows = rows_of(covenant_csv)
    h = rows[0]
    rows[3][h.index("effects")] = "draw(n=" + "[" * 5000 + "]" * 5000 + ")"
    rows[4][h.index("effects")] = "x(a=[" * 10000  # unclosed
    with pytest.raises(DataErrors) as exc:
        csvio.read_csv(load_game("covenant"), to_csv(rows), "deep.csv")
    msgs = [str(i) for i in exc.value.issues]
    assert msgs[0].startswith("deep.csv:4: ") and "column 'effects': nested more than 32 deep" in msgs[0]
    assert msgs[1].startswith("deep.csv:5: ") and "column 'effects': nested more than 32 deep" in msgs[1]


# -- every problem at its row and column --------------------------------------------------------------------------

def test_problems_name_the_csv_row_and_column(covenant_csv: str) -> None:
    game = load_game("covenant")
    rows = rows_of(covenant_csv)
    h = rows[0]
    rows[0] = [*h, "colour"]  # an unknown column: one error for the header, not one per row
    rows[1][h.index("copies")] = "0"
    rows[2][h.index("effects")] = "draw(n=2"
    rows[3].extend(["", "stray"])  # more cells than columns
    rows[4][h.index("name")] = "bell\x07"
    quest = next(i for i, r in enumerate(rows) if i and r[h.index("type")] == "quest")
    rows[quest][h.index("vp")] = "many"
    # a multi-line cell: the next row's line number counts its lines
    rows[6][h.index("flavor")] = "one\ntwo\nthree"
    rows[7][h.index("copies")] = "1e9"
    text = to_csv(rows)
    at = start_lines(text)
    assert at[7] == at[6] + 3  # the row after the three-line cell starts three lines later
    with pytest.raises(DataErrors) as exc:
        csvio.read_csv(game, text, "covenant.csv")
    expected = [
        "covenant.csv:1: unknown column 'colour' (not a field of covenant)",
        f"covenant.csv:{at[1]}: [{rows[1][0]}] column 'copies': must be a whole number of at least 1, not '0'",
        f"covenant.csv:{at[2]}: [{rows[2][0]}] column 'effects': cannot read the effects: ",
        f"covenant.csv:{at[3]}: [{rows[3][0]}] the row has {len(h) + 2} cells, the header names {len(h) + 1} "
        f"columns",
        f"covenant.csv:{at[4]}: [{rows[4][0]}] column 'name': the cell holds a control character (U+0007)",
        f"covenant.csv:{at[quest]}: [{rows[quest][0]}] column 'vp': must be a whole number, not 'many'",
        f"covenant.csv:{at[7]}: [{rows[7][0]}] column 'copies': must be a whole number of at least 1, not '1e9'",
    ]
    got = [str(i) for i in exc.value.issues]
    assert len(got) == len(expected) and all(any(g.startswith(e) for g in got) for e in expected), got
    assert [i.line for i in exc.value.issues] == sorted(i.line for i in exc.value.issues)


@pytest.fixture(scope="module")
def relic_csv() -> str:
    return export_csv(load_game("relic"))


@pytest.mark.parametrize("column,cell,words", [
    ("threat_icons", "[1, NaN]", "NaN is not a number a card can hold"),
    ("threat_icons", "[1, -Infinity]", "-Infinity is not a number a card can hold"),
    ("threat_icons", "[1e999999]", "1e999999 is not a number a card can hold"),
    ("threat_icons", "{not json", "is not JSON"),
    ("threat_icons", "[" * 100 + "]" * 100, "nested more than 32 deep"),
    ("threat_icons", "[" * 10000, "nested more than 32 deep"),
    ("omen", "perhaps", "must be true or false, not 'perhaps'"),
    ("effects", "gain(n=" + "9" * 400 + ".5)", "cannot read the effects: a number is too large"),
    ("value", "1" * 5000, "must be a whole number, not '111"),
    ("value", "1.5", "must be a whole number, not '1.5'"),
])
def test_typed_cells_are_checked_finite_and_bounded(column: str, cell: str, words: str, relic_csv: str) -> None:
    """Columns of list or table fields hold JSON (no NaN or infinity, bounded nesting); whole numbers are whole
    and short; yes/no fields say so."""
    game = load_game("relic")
    rows = rows_of(relic_csv)
    rows[2][rows[0].index(column)] = cell
    with pytest.raises(DataErrors) as exc:
        csvio.read_csv(game, to_csv(rows), "j.csv")
    msgs = [str(i) for i in exc.value.issues]
    assert len(msgs) == 1 and msgs[0].startswith(f"j.csv:3: [{rows[2][0]}] column '{column}': ") and words in msgs[0]
    assert len(msgs[0]) < 250


def test_problems_found_when_loading_the_import_name_the_csv_row(tmp_path: Path, covenant_csv: str) -> None:
    """The written folder is loaded before it is renamed into place; what loading finds is told at the CSV row
    and column that made it, never at the generated cards.toml or the temporary folder."""
    rows = rows_of(covenant_csv)
    h = rows[0]
    quest = next(i for i, r in enumerate(rows) if i and r[h.index("type")] == "quest")
    rows[quest][h.index("vp")] = "99"  # above the declared maximum
    rows[3][h.index("type")] = "dragon"  # not a type of the game
    rows[5][0] = rows[4][0]  # a duplicate id
    path = tmp_path / "covenant.csv"
    path.write_text(to_csv(rows))
    at = start_lines(to_csv(rows))
    lines = error_lines(import_cli(path, tmp_path / "out"))
    text = "\n".join(lines)
    assert "cards.toml" not in text and "wizprint-tmp" not in text
    assert f"error: {path}:{at[quest]}: [{rows[quest][0]}] column 'vp': " in text
    assert f"error: {path}:{at[3]}: [{rows[3][0]}] column 'type': type 'dragon' is not one of" in text
    assert f"error: {path}:{at[5]}: [{rows[5][0]}] duplicate id '{rows[5][0]}' (first at {path}:{at[4]})" in text
    assert f"error: {path}: type 'event' has 5 cards, game.toml declares 6" in text  # the CSV as a whole
    assert left_behind(tmp_path) == []


# -- control characters in cells: quoted, never a row of their own, read back unchanged -----------------------

GAMES = ["wizard-cards", "covenant", "relic", "wizards-and-relics", "wizards-cup"]
# what the loader refuses in a card's text (every other character may be in a name or a flavour text)
LOADER_REFUSES = "".join(chr(c) for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
PIECES = ["\r", "\n", "\r\n", "\t", "\x85", "\u2028", "\u2029", "\x9b", "=cmd|' /C calc'!A0", "=1+1", "+1", "-1",
          "@SUM(A1)", "'", '"', ",", ";", " ", "a", "é", "**", "\\"]
BREAKS = ["\r", "\n", "\r\n", "\r\r", "\x85", "\u2028", "\u2029"]
_PARTS = st.lists(st.sampled_from(PIECES) | st.text(st.characters(exclude_categories=("Cs",),
                                                                  exclude_characters=LOADER_REFUSES), max_size=4),
                  max_size=6).map("".join)
# a text with a line break (or a line separator) at its start, inside it or at its end, among other pieces
TEXTS = st.tuples(_PARTS, st.sampled_from(BREAKS), _PARTS).map("".join).filter(str.strip)
FORMULA = ("=", "+", "-", "@")


@functools.cache
def game_and_layout(game: str) -> tuple[Game, GameLayout]:
    g = load_game(game)
    return g, load_layout(g)


def with_texts(game: Game, texts: dict[str, tuple[str, str]]) -> Game:
    """The game with the name and flavour text of some cards (by id) replaced."""
    records = [dataclasses.replace(r, name=texts[r.id][0], flavor=texts[r.id][1]) if r.kind == "card" and r.id in texts
               else r for r in game.records]
    return dataclasses.replace(game, records=records)


def spreadsheet_rows(text: str) -> list[list[str]]:
    """The rows as a spreadsheet reads them: a line break outside quotes ends a row (Python's csv module reads as
    Excel and LibreOffice do)."""
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline="")))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_control_characters_in_names_and_flavour_stay_in_their_cell_and_read_back(game: str,
                                                                                   data: st.DataObject) -> None:
    """A carriage return, line feed, tab, NEL, line separator or other control character at the start of or
    inside a card's name or flavour text is written in a quoted cell: a spreadsheet reads one row per card, no cell
    starts a formula, and the file reads back to the same names and flavour texts."""
    src, layout = game_and_layout(game)
    cards = src.cards()
    chosen = data.draw(st.lists(st.sampled_from([c.id for c in cards]), min_size=1, max_size=3, unique=True))
    texts = {cid: (data.draw(TEXTS), data.draw(st.just("") | TEXTS)) for cid in chosen}
    g = with_texts(src, texts)
    text = export_csv(g, layout=layout)
    rows = spreadsheet_rows(text)
    assert len(rows) == 1 + len(cards)
    assert all(len(r) == len(rows[0]) for r in rows)
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA), cell
    back = {rec["id"]: rec for rec in csvio.read_csv(g, text.removeprefix("\ufeff"), f"{game}.csv")}
    for cid, (name, flavor) in texts.items():
        assert back[cid]["name"] == name
        assert back[cid].get("flavor", "") == flavor


@pytest.mark.parametrize("game", GAMES)
def test_a_csv_with_control_characters_imports_back_to_the_same_game(game: str, tmp_path: Path) -> None:
    """The whole round trip (export, import csv, load) of names and flavour texts that start with, or hold, a
    carriage return before a formula, for each game's CSV shape (the build writes the same CSV)."""
    src, layout = game_and_layout(game)
    cards = src.cards()
    texts = {cards[0].id: ("\r=cmd|' /C calc'!A0", "\r\n=HYPERLINK(\"http://x\")"),
             cards[-1].id: ("Ash\rvale\u2028\x85=1+1", "line one\rline two\n\t-2")}
    g = with_texts(src, texts)
    path = tmp_path / f"{game}.csv"
    path.write_text(export_csv(g, layout=layout), encoding="utf-8", newline="")
    assert len(spreadsheet_rows(path.read_bytes().decode("utf-8"))) == 1 + len(cards)
    back = load_game(import_csv(src, path, tmp_path / "imported").parent)
    assert sorted(record_key(r) for r in back.cards()) == sorted(record_key(r) for r in g.cards())


# -- the output folder ----------------------------------------------------------------------------------------

def test_a_folder_of_the_users_is_refused_and_untouched(tmp_path: Path, covenant_csv: str) -> None:
    """The issue's example: a user's own spells.toml in FOLDER (no game.toml) was deleted by the import."""
    path = tmp_path / "covenant.csv"
    path.write_text(covenant_csv)
    out = tmp_path / "mine"
    out.mkdir()
    (out / "spells.toml").write_text("# my own spells, not a wizprint file\n")
    lines = error_lines(import_cli(path, out))
    assert len(lines) == 1 and "is not empty and is not an earlier import" in lines[0]
    assert [p.name for p in out.iterdir()] == ["spells.toml"]
    assert (out / "spells.toml").read_text() == "# my own spells, not a wizprint file\n"
    with pytest.raises(WizprintError, match="not an earlier import"):
        import_csv(load_game("covenant"), path, load_game("covenant").root)  # nor into the game's own folder
    assert left_behind(tmp_path) == ["mine"]


def test_an_earlier_import_is_replaced_and_the_users_files_in_it_kept(tmp_path: Path, covenant_csv: str) -> None:
    game = load_game("covenant")
    path = tmp_path / "covenant.csv"
    path.write_text(covenant_csv)
    out = tmp_path / "out"
    import_csv(game, path, out)
    marker = json.loads((out / IMPORT_MARKER).read_text())
    assert marker["made_by"] == "wizprint import csv" and {f["file"] for f in marker["files"]} == {
        p.name for p in out.iterdir()} - {IMPORT_MARKER}
    (out / "notes.txt").write_text("playtest on Friday")
    rows = rows_of(covenant_csv)
    rows[1][rows[0].index("name")] = "Renamed Card"
    path.write_text(to_csv(rows))
    import_csv(game, path, out)
    assert (out / "notes.txt").read_text() == "playtest on Friday"
    assert any(c.name == "Renamed Card" for c in load_game(out).cards())
    assert left_behind(tmp_path) == ["out"]
    # a file of the earlier import that the user edited since is theirs now: refused, untouched
    edited = (out / "cards.toml").read_text() + "\n# my edit\n"
    (out / "cards.toml").write_text(edited)
    with pytest.raises(WizprintError, match="was changed after the earlier import"):
        import_csv(game, path, out)
    assert (out / "cards.toml").read_text() == edited


def test_a_failed_import_leaves_nothing_and_keeps_an_earlier_import(tmp_path: Path, covenant_csv: str) -> None:
    game = load_game("covenant")
    path = tmp_path / "covenant.csv"
    path.write_text(covenant_csv)
    out = tmp_path / "out"
    rows = rows_of(covenant_csv)
    rows[1][rows[0].index("type")] = "dragon"
    bad = tmp_path / "bad.csv"
    bad.write_text(to_csv(rows))
    with pytest.raises(DataErrors):
        import_csv(game, bad, out)
    with pytest.raises(DataErrors):
        import_csv(game, bad, tmp_path / "new" / "folders" / "out")
    assert left_behind(tmp_path) == []
    import_csv(game, path, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(DataErrors):
        import_csv(game, bad, out)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    assert left_behind(tmp_path) == ["out"]


def test_the_cli_import_writes_a_folder_that_validates(tmp_path: Path, covenant_csv: str) -> None:
    path = tmp_path / "covenant.csv"
    path.write_text(covenant_csv)
    res = import_cli(path, tmp_path / "out")
    assert res.returncode == 0, res.stderr
    res = run_here("validate", str(tmp_path / "out"))
    assert res.returncode == 0, res.stderr + res.stdout


# -- the TOML it writes --------------------------------------------------------------------------------------

def test_any_text_reads_back_from_the_toml_written() -> None:
    """Quotes, backslashes, control characters, lines that look like TOML headers or keys: all read back, and
    the line of every record and key is known (to name the CSV row of a problem found in the TOML)."""
    pieces = ['a', '"', '\\', '\n', '\r', '\t', '\x00', '\x7f', '[', ']', '=', ' ', 'é', '😀', '"""', "x = 1",
              "\n[[card]]\n", "'''"]
    rnd = random.Random(3)
    for _ in range(2000):
        s = "".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 10)))
        rows = [{"id": "A", "text": s, "odd key": [s, {"k": s}]}, {"id": "B", "flavor": s}]
        written = tomlwrite.write_records("card", rows, f"imported from {s}")
        data = tomllib.loads(written.text)["card"]
        assert data == [dict(r) for r in rows]
        lines = written.text.split("\n")
        for start, keys in zip(written.starts, written.keys):
            assert lines[start - 1] == "[[card]]"
            for k, no in keys.items():
                assert lines[no - 1].startswith(f"{tomlwrite.key(k)} = ")
                assert written.locate(no) == (written.starts.index(start), k)
    with pytest.raises(ValueError, match="nested more than"):
        deep: list[object] = [1]
        for _ in range(40):
            deep = [deep]
        tomlwrite.value(deep)
    with pytest.raises(ValueError, match="NaN"):
        tomlwrite.value(float("nan"))
