"""Print checks on the built PDFs of Wizard Cards, Covenant, Relic, Wizards & Relics and Wizards Cup: structure,
fonts, page sizes, card counts, duplex alignment front to back, crop marks outside the cut, text inside the safe
zone, reproducible bytes."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pikepdf
import pytest
from pdfcheck import MM, Placement, fonts_embedded, page_content

from wizprint.generator.impose import PAPERS

GAMES = {"wizard-cards": {"spells": 54, "reference": 2}, "covenant": {"main": 91},
         "relic": {"corruption": 30, "mission": 24, "power": 36, "relic": 18, "threat-red": 68, "threat-blue": 68,
                   "threat-yellow": 68, "wargear": 24},
         "wizards-and-relics": {"duel": 120, "shrines": 24, "friends": 4},
         "wizards-cup": {"wizards": 36, "aids": 2}}
# sheets printed front and back like cards (Relic's character and scenario sheets)
SHEETS = {"relic": {"character": 10, "scenario": 5}}
PAPER_PT = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}


def card_pdfs(result) -> list[tuple[Path, dict]]:  # type: ignore[no-untyped-def]
    return [(result.out_dir / o.file, o.extra) for o in result.outputs if o.kind == "cards"]


def faced_pdfs(result) -> list[tuple[Path, dict]]:  # type: ignore[no-untyped-def]
    """Cards, and sheets printed like cards (front and back, with bleed and marks)."""
    return card_pdfs(result) + [(result.out_dir / o.file, o.extra) for o in result.outputs
                                if o.kind == "sheets" and "records" in o.extra]


def cards_on(placements: list[Placement], bleed_mm: float) -> list[Placement]:
    """Card placements are the forms whose box is a card with bleed (big), not icons or marks."""
    return [p for p in placements if (p.x1 - p.x0) > 30 * MM and (p.y1 - p.y0) > 30 * MM]


@pytest.mark.parametrize("game", list(GAMES))
def test_qpdf_check_fonts_embedded_and_page_size(build, game: str) -> None:  # type: ignore[no-untyped-def]
    for paper in ("a4", "letter"):
        result = build(game, paper=paper)
        pdfs = [result.out_dir / o.file for o in result.outputs if o.file.endswith(".pdf")]
        assert pdfs
        for path in pdfs:
            with pikepdf.open(path) as pdf:
                problems = pdf.check_pdf_syntax()  # the checks of `qpdf --check`
                assert problems == [], (path.name, problems)
                assert fonts_embedded(pdf) == [], path.name
                for page in pdf.pages:
                    x0, y0, x1, y1 = (float(v) for v in page.MediaBox)
                    assert (x0, y0) == (0.0, 0.0)
                    assert x1 == pytest.approx(PAPER_PT[paper][0], abs=0.01)
                    assert y1 == pytest.approx(PAPER_PT[paper][1], abs=0.01)


@pytest.mark.parametrize("game", list(GAMES))
def test_card_counts_match_the_rulebooks(build, game: str) -> None:  # type: ignore[no-untyped-def]
    result = build(game)
    seen = {}
    for path, extra in card_pdfs(result):
        with pikepdf.open(path) as pdf:
            fronts = 0
            for i, page in enumerate(pdf.pages):
                if i % 2 == 0:  # fronts then backs
                    fronts += len(cards_on(page_content(page)[0], 3.0))
            # a deck may share its last sheet with other decks (Wizard Cards' reference cards): the file lists them
            decks = extra.get("decks", {extra["deck"]: fronts})
            assert sum(decks.values()) == fronts and extra["cards"] == decks[extra["deck"]]
            seen.update(decks)
    assert seen == GAMES[game]


def flip_point(p: tuple[float, float], paper: tuple[float, float], duplex: str) -> tuple[float, float]:
    """Where a point of the front page lies on the back page once the sheet is turned over its long edge
    (about the vertical axis of a portrait page) or its short edge (about the horizontal axis)."""
    w, h = paper
    return (w - p[0], p[1]) if duplex == "long" else (p[0], h - p[1])


def _assert_aligned(path: Path, paper: str, duplex: str, offset: tuple[float, float]) -> int:
    """Every front's centre, flipped as the paper flips, lands on a back's centre (+ offset) within 0.2 mm."""
    pw, ph = PAPERS[paper]
    checked = 0
    with pikepdf.open(path) as pdf:
        pages = list(pdf.pages)
        assert len(pages) % 2 == 0
        for i in range(0, len(pages), 2):
            fronts = cards_on(page_content(pages[i])[0], 3.0)
            backs = cards_on(page_content(pages[i + 1])[0], 3.0)
            assert len(fronts) == len(backs) > 0
            back_centres = [(b.centre[0] / MM, b.centre[1] / MM) for b in backs]
            for f in fronts:
                fx, fy = flip_point((f.centre[0] / MM, f.centre[1] / MM), (pw, ph), duplex)
                want = (fx + offset[0], fy + offset[1])
                dist = min(((bx - want[0]) ** 2 + (by - want[1]) ** 2) ** 0.5 for bx, by in back_centres)
                assert dist <= 0.2, (path.name, i, dist)
                # the back is the same size and turn as the front's footprint
                match = min(backs, key=lambda b: (b.centre[0] / MM - want[0]) ** 2 + (b.centre[1] / MM - want[1]) ** 2)
                assert abs((match.x1 - match.x0) - (f.x1 - f.x0)) < 0.2 * MM
                assert abs((match.y1 - match.y0) - (f.y1 - f.y0)) < 0.2 * MM
                checked += 1
    return checked


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_duplex_backs_align_with_fronts(build, paper: str, duplex: str) -> None:  # type: ignore[no-untyped-def]
    for game in GAMES:
        result = build(game, paper=paper, duplex=duplex)
        n = sum(_assert_aligned(p, paper, duplex, (0.0, 0.0)) for p, _ in faced_pdfs(result))
        assert n == sum(GAMES[game].values()) + sum(SHEETS.get(game, {}).values())


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_back_offset_moves_backs_by_exactly_the_offset(build, duplex: str) -> None:  # type: ignore[no-untyped-def]
    result = build("covenant", duplex=duplex, back_offset=(1.5, -0.75))
    n = sum(_assert_aligned(p, "a4", duplex, (1.5, -0.75)) for p, _ in card_pdfs(result))
    assert n == 91
    # and without applying the offset in the check, they are off by more than the tolerance
    with pytest.raises(AssertionError):
        _assert_aligned(card_pdfs(result)[0][0], "a4", duplex, (0.0, 0.0))


def test_duplex_off_has_fronts_only(build) -> None:  # type: ignore[no-untyped-def]
    result = build("covenant", duplex="off")
    (path, extra), = card_pdfs(result)
    with pikepdf.open(path) as pdf:
        total = sum(len(cards_on(page_content(p)[0], 3.0)) for p in pdf.pages)
    assert total == 91 and extra["duplex"] == "off"


def test_gutterfold_backs_mirror_fronts_across_the_fold(build) -> None:  # type: ignore[no-untyped-def]
    result = build("covenant", layout="gutterfold")
    (path, _), = card_pdfs(result)
    with pikepdf.open(path) as pdf:
        total = 0
        for page in pdf.pages:
            placements, segments = page_content(page)
            cards = cards_on(placements, 3.0)
            # the fold: the longest straight segment across the page
            fold = max(segments, key=lambda s: abs(s.x1 - s.x0) + abs(s.y1 - s.y0))
            vertical = abs(fold.x1 - fold.x0) < 1
            axis = fold.x0 if vertical else fold.y0
            fronts = [c for c in cards if (c.centre[0] < axis if vertical else c.centre[1] > axis)]
            backs = [c for c in cards if c not in fronts]
            assert len(fronts) == len(backs)
            for f in fronts:
                mx = 2 * axis - f.centre[0] if vertical else f.centre[0]
                my = f.centre[1] if vertical else 2 * axis - f.centre[1]
                d = min(((b.centre[0] - mx) ** 2 + (b.centre[1] - my) ** 2) ** 0.5 for b in backs) / MM
                assert d <= 0.2
                # no card's cut area reaches the fold (its bleed may meet it)
                lo, hi = (f.x0, f.x1) if vertical else (f.y0, f.y1)
                lo, hi = lo + 3 * MM, hi - 3 * MM
                assert not lo - 0.01 <= axis <= hi + 0.01
            total += len(fronts)
    assert total == 91


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_lie_outside_the_cut_and_on_cut_lines(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    bleed = 3.0
    for game in GAMES:
        result = build(game, paper=paper)
        for path, _ in faced_pdfs(result):
            with pikepdf.open(path) as pdf:
                for page in pdf.pages:
                    placements, segments = page_content(page)
                    cards = cards_on(placements, bleed)
                    marks = [s for s in segments]
                    assert len(marks) >= 4 * len(cards) ** 0.5
                    # trim lines of this page's cards
                    xs = {round(v, 1) for c in cards for v in (c.x0 + bleed * MM, c.x1 - bleed * MM)}
                    ys = {round(v, 1) for c in cards for v in (c.y0 + bleed * MM, c.y1 - bleed * MM)}
                    for m in marks:
                        for c in cards:  # never on a card: outside its cut line (a tick may cross its bleed)
                            t = bleed * MM - 0.25 * MM
                            assert (max(m.x0, m.x1) <= c.x0 + t or min(m.x0, m.x1) >= c.x1 - t or
                                    max(m.y0, m.y1) <= c.y0 + t or min(m.y0, m.y1) >= c.y1 - t)
                        if m.x0 == m.x1:
                            assert round(m.x0, 1) in xs
                        else:
                            assert m.y0 == m.y1 and round(m.y0, 1) in ys


def test_no_marks_option_removes_marks(build) -> None:  # type: ignore[no-untyped-def]
    result = build("covenant", marks=False)
    (path, _), = card_pdfs(result)
    with pikepdf.open(path) as pdf:
        assert all(page_content(p)[1] == [] for p in pdf.pages)


def test_pdf_boxes_trim_and_bleed(build) -> None:  # type: ignore[no-untyped-def]
    result = build("covenant")
    (path, _), = card_pdfs(result)
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            cards = cards_on(page_content(page)[0], 3.0)
            trim = [float(v) for v in page.TrimBox]
            bleed = [float(v) for v in page.BleedBox]
            want = [min(c.x0 for c in cards), min(c.y0 for c in cards), max(c.x1 for c in cards),
                    max(c.y1 for c in cards)]  # the cards' bleed boxes, as drawn
            assert bleed == pytest.approx(want, abs=0.05)
            assert trim == pytest.approx([want[0] + 3 * MM, want[1] + 3 * MM, want[2] - 3 * MM, want[3] - 3 * MM],
                                         abs=0.05)


def test_building_twice_gives_identical_bytes(build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from wizprint.generator.build import BuildOptions, build_game

    a = build_game("wizard-cards", tmp_path / "a", BuildOptions())
    b = build_game("wizard-cards", tmp_path / "b", BuildOptions())
    files_a = sorted(p.relative_to(a.out_dir) for p in a.out_dir.rglob("*") if p.is_file())
    files_b = sorted(p.relative_to(b.out_dir) for p in b.out_dir.rglob("*") if p.is_file())
    assert files_a == files_b and len(files_a) > 50
    for rel in files_a:
        assert (a.out_dir / rel).read_bytes() == (b.out_dir / rel).read_bytes(), rel


def test_source_date_epoch_sets_the_pdf_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wizprint.generator.build import BuildOptions, build_game

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14 22:13:20 UTC
    r = build_game("covenant", tmp_path / "x", BuildOptions(svg=False, png=False))
    with pikepdf.open(r.out_dir / "cards-main.pdf") as pdf:
        assert str(pdf.docinfo["/CreationDate"]).startswith("D:20231114221320")


def test_manifest_lists_every_file_with_pages_and_sha256(build) -> None:  # type: ignore[no-untyped-def]
    result = build("wizard-cards", svg=True, png=True)
    manifest = json.loads((result.out_dir / "manifest.json").read_text())
    listed = {f["file"] for f in manifest["files"]}
    on_disk = {p.relative_to(result.out_dir).as_posix() for p in result.out_dir.rglob("*") if p.is_file()}
    assert listed == on_disk - {"manifest.json"}
    kinds = {f["kind"] for f in manifest["files"]}
    assert {"cards", "svg", "preview", "csv"} <= kinds
    for f in manifest["files"]:
        data = (result.out_dir / f["file"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == f["sha256"]
        if f["file"].endswith(".pdf"):
            with pikepdf.open(result.out_dir / f["file"]) as pdf:
                assert len(pdf.pages) == f["pages"]


@pytest.mark.parametrize("game", list(GAMES))
def test_no_text_outside_the_safe_zone(build, game: str) -> None:  # type: ignore[no-untyped-def]
    """Every glyph's ink box (pdfium's tight char box) on a card lies at least 3 mm inside its cut line; glyphs
    that are on no card (page labels) stay off every card and its bleed."""
    import pypdfium2 as pdfium

    safe, bleed = 3.0, 3.0
    result = build(game)
    checked = 0
    for path, _ in faced_pdfs(result):
        with pikepdf.open(path) as pdf:
            cards_per_page = [cards_on(page_content(p)[0], bleed) for p in pdf.pages]
        doc = pdfium.PdfDocument(path)
        try:
            for pno in range(len(doc)):
                tp = doc[pno].get_textpage()
                cards = cards_per_page[pno]
                for i in range(tp.count_chars()):
                    ch = tp.get_text_range(i, 1)
                    if not ch.strip():
                        continue
                    x0, y0, x1, y1 = tp.get_charbox(i, loose=False)
                    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
                    home = [c for c in cards if c.x0 <= cx <= c.x1 and c.y0 <= cy <= c.y1]
                    if not home:
                        for c in cards:
                            assert x1 <= c.x0 or x0 >= c.x1 or y1 <= c.y0 or y0 >= c.y1, (path.name, pno, ch)
                        continue
                    c = home[0]
                    inset = (bleed + safe) * MM - 0.05 * MM
                    assert x0 >= c.x0 + inset and x1 <= c.x1 - inset, (path.name, pno, ch, x0, x1, c)
                    assert y0 >= c.y0 + inset and y1 <= c.y1 - inset, (path.name, pno, ch, y0, y1, c)
                    checked += 1
        finally:
            doc.close()
    assert checked > 1000


@pytest.mark.parametrize("game", list(GAMES))
def test_every_pdf_asks_the_print_dialog_for_actual_size(build, game: str) -> None:  # type: ignore[no-untyped-def]
    """Every PDF of a build, on both papers, carries ``/ViewerPreferences << /PrintScaling /None >>``: a viewer's
    print dialog opens at 100 % rather than 'fit to page'."""
    from wizprint.generator.calibrate import calibration_pdf

    for paper in ("a4", "letter"):
        result = build(game, paper=paper)
        pdfs = [result.out_dir / o.file for o in result.outputs if o.file.endswith(".pdf")]
        assert pdfs
        for path in pdfs:
            with pikepdf.open(path) as pdf:
                assert str(pdf.Root.ViewerPreferences.PrintScaling) == "/None", path.name
    with pikepdf.open(io.BytesIO(calibration_pdf("letter", "short"))) as pdf:
        assert str(pdf.Root.ViewerPreferences.PrintScaling) == "/None"
