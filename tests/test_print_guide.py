"""The print guide every build writes (``print-guide.pdf``), read back from the PDF: every file of the build named
(the SVG files by folder and number), each deck, record kind and component of the game with its count, its file
and its pages, one side or both; a 50 mm scale square with the note to print at 100 %; the duplex calibration
sheet as its last sheet, front on an odd page; and names too long for a cell still laid out."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pikepdf
import pytest
from pdfcheck import MM, text_lines

from wizprint.cards.loader import load_game
from wizprint.generator.calibrate import calibration_pdf
from wizprint.generator.guide import lay

GAMES = ["relic", "wizards-and-relics", "wizards-cup", "wizard-cards", "covenant"]


def _manifest(out: Path) -> list[dict[str, Any]]:
    files: list[dict[str, Any]] = json.loads((out / "manifest.json").read_text())["files"]
    return files


def _guide_text(out: Path) -> tuple[list[list[str]], str]:
    lines = text_lines(out / "print-guide.pdf")
    return lines, "\n".join(ln for page in lines for ln in page)


@pytest.mark.parametrize("game", GAMES)
def test_the_print_guide_lists_every_file_of_the_build(build, game: str) -> None:  # type: ignore[no-untyped-def]
    """Every file the manifest lists is named in the guide: the PDFs, previews and CSV by name, the low-ink set
    under ``low-ink/`` by its files' names, the SVG files by folder with their number; and the manifest itself."""
    out = build(game, svg=True, png=True, ink="both").out_dir
    _, text = _guide_text(out)
    svg: dict[str, int] = {}
    entries = _manifest(out)
    assert "print-guide.pdf" in {e["file"] for e in entries}
    for e in entries:
        name = e["file"]
        if e["kind"] == "svg":
            folder = name.rsplit("/", 1)[0] + "/"
            svg[folder] = svg.get(folder, 0) + 1
        elif name.startswith("low-ink/"):
            assert "low-ink/" in text and text.count(name.removeprefix("low-ink/")) >= 2, name  # and its full twin
        else:
            assert name in text, name
    assert svg and all(f"{folder} | {n} SVG files" in text for folder, n in svg.items()), svg
    assert "manifest.json" in text


@pytest.mark.parametrize("game", GAMES)
def test_the_checklist_gives_each_component_its_count_file_and_pages(build, game: str) -> None:  # type: ignore[no-untyped-def]
    """A row of the checklist for each deck (in its own file, or on the last sheet of the file that holds it),
    each kind of record sheet and each component of game.toml: its count, its file and its pages as the manifest
    has them, and how to print it: both sides on the build's edge where the file has backs."""
    result = build(game, ink="both")
    lines, _ = _guide_text(result.out_dir)
    rows = [ln for page in lines for ln in page if ln.count(" | ") >= 4]
    files = {e["file"]: e for e in _manifest(result.out_dir)}
    g = load_game(game)

    def row(name: str) -> list[str]:
        found = [r.split(" | ") for r in rows if r.startswith(name[:30])]
        assert len(found) == 1, (name, found)
        return found[0]

    for d, deck in g.decl.decks.items():
        host = next(e for e in files.values() if e["kind"] == "cards" and (e.get("deck") == d or d in e.get("decks",
                                                                                                              {})))
        cells = row(deck.name)
        assert cells[1:3] == [str(g.physical_count(d)), host["file"]], cells
        n = host["pages"]
        want = f"1-{n}" if host.get("deck") == d else f"{n - 1}-{n} (last sheet)"
        assert cells[3] == want and cells[4] == "both sides, long edge", cells
    for kind in ("character", "scenario") if game == "relic" else ():
        cells = row(g.decl.kinds[kind].name + "s")
        assert cells[1:4] == [str(len(g.of_kind(kind))), f"sheets-{kind}.pdf",
                              f"1-{files[f'sheets-{kind}.pdf']['pages']}"], cells
    for comp in g.decl.components:
        cells = row(comp.name)
        assert cells[1] == str(comp.count), cells
        f = files[cells[2]]
        if comp.kind == "tokens":  # in tokens.pdf, or at the foot of a deck's last sheet (the manifest says which)
            assert f["tokens"][comp.id] == comp.count
            if f["kind"] == "cards":
                assert cells[3] == f"{f['pages'] - 1}-{f['pages']} (last sheet)", cells
            two_sided = game != "relic"  # Relic's tokens have no backs
            assert cells[4].startswith("both sides") == two_sided, cells
        elif comp.kind == "sheet":
            assert cells[2] == f"sheet-{comp.id}.pdf" and cells[3] == f"1-{f['pages']}" and f["kind"] == "sheets"
        else:  # a board: its pages after the assembly page
            assert f["kind"] == "board" and cells[3].startswith("1-" if f["file"] == "boards-characters.pdf" else
                                                                f"2-{f['pages']}"), cells


def test_the_guide_opens_with_a_50_mm_square_and_the_note_to_print_at_100_percent(build) -> None:  # type: ignore[no-untyped-def]
    for paper in ("a4", "letter"):
        out = build("covenant", paper=paper, ink="both").out_dir
        with pikepdf.open(out / "print-guide.pdf") as pdf:
            squares = [ops for ops, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) == "re"
                       and abs(abs(float(ops[2])) - 50 * MM) < 0.01 and abs(abs(float(ops[3])) - 50 * MM) < 0.01]
        assert len(squares) == 1
        first = "\n".join(text_lines(out / "print-guide.pdf")[0])
        assert "Print every file at 100 % (actual size" in first and "50 mm" in first


def _page_texts(data: bytes) -> list[str]:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(io.BytesIO(data))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize("duplex,offset", [("long", (0.0, 0.0)), ("short", (1.5, -1.0))])
def test_the_guide_ends_with_the_calibration_sheet_on_a_sheet_of_its_own(build, duplex: str,  # type: ignore[no-untyped-def]
                                                                         offset: tuple[float, float]) -> None:
    """The last two pages are the calibration sheet of the build's duplex and back offset (its front on an odd
    page, so that a duplex print puts them on the two sides of one sheet)."""
    out = build("wizards-cup", duplex=duplex, back_offset=offset).out_dir
    pages = _page_texts((out / "print-guide.pdf").read_bytes())
    assert len(pages) % 2 == 0
    assert pages[-2:] == _page_texts(calibration_pdf("a4", duplex, offset))
    assert f"{duplex}-edge duplex" in pages[-2]


def test_a_name_wider_than_its_cell_is_cut_into_pieces_that_fit() -> None:
    """A file name of a game folder of one's own can be wider than the guide's column: it is cut into lines that
    fit (an escaped character kept whole), rather than failing the build."""
    long = "cards-" + "x" * 60 + ".pdf"
    laid = lay(f"{long} and a \\*", 30.0, 8.5)
    assert laid.lines >= 3
    assert all(r.x + r.w <= 30.0 + 0.01 for r in laid.runs)
    assert "".join(r.text for r in laid.runs).replace(" ", "") == long + "anda*"
