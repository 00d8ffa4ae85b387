"""Paper economy: butted sheets (cards sharing their cut lines, bleed only round the block: 9 poker cards on A4
and on Letter), ``--layout auto|butted|spaced``, decks sharing a last sheet, packed tokens and dial wheels, the
page count a build reports, an exact progress count, and ``-o`` naming the parent of the game folders."""

from __future__ import annotations

import io
import itertools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from pdfcheck import MM, Placement, page_content
from PIL import Image
from producer_helpers import add_producer
from progress_helpers import Recorder

from wizprint.cards.loader import load_game
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.deckpdf import PrintOptions, Run, deck_pdf, edge_colour, plan_sheets
from wizprint.generator.drawing import draw
from wizprint.generator.impose import (
    MARK_GAP,
    PAPERS,
    SEAM,
    bleed_ticks,
    butted_grid,
    cell_clip,
    crop_marks,
    mirror_slot,
    page_grid,
)
from wizprint.generator.layout import load_layout
from wizprint.generator.scene import Paint, Rect, Scene
from wizprint.progress import Plain

PT_PAPER = {"a4": (PAPERS["a4"][0] * MM, PAPERS["a4"][1] * MM), "letter": (PAPERS["letter"][0] * MM,
                                                                           PAPERS["letter"][1] * MM)}
RELIC_POKER = ("mission", "relic", "threat-red", "threat-blue", "threat-yellow", "wargear")
RELIC_MINI = ("power", "corruption")


def cards_on(page: pikepdf.Page) -> list[Placement]:
    """The card faces placed on a page (forms bigger than 30 mm each way, bleed included)."""
    return [p for p in page_content(page)[0] if (p.x1 - p.x0) > 30 * MM and (p.y1 - p.y0) > 30 * MM]


def fronts_per_sheet(path: Path) -> list[int]:
    with pikepdf.open(path) as pdf:
        return [len(cards_on(p)) for p in list(pdf.pages)[::2]]


# -- the imposition -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_butted_on_a4_and_letter(paper: str) -> None:
    g = butted_grid(PAPERS[paper], (63, 88), 3.0)
    assert (g.cols, g.rows, g.rotated, g.butted) == (3, 3, False, True)
    pw, ph = PAPERS[paper]
    xs = sorted({s.x for s in g.slots})
    ys = sorted({s.y for s in g.slots})
    assert [b - a for a, b in itertools.pairwise(xs)] == pytest.approx([63, 63])  # the cards touch
    assert [b - a for a, b in itertools.pairwise(ys)] == pytest.approx([88, 88])
    left, bottom = min(xs) - 3, min(ys) - 3
    assert left == pytest.approx(pw - (max(xs) + 63 + 3)) and bottom == pytest.approx(ph - (max(ys) + 88 + 3))
    # each of the 4 vertical and 4 horizontal cut lines is marked at both ends where a home printer prints (at least
    # 5 mm from the paper's edge): by a crop mark beyond the bleed where the margin has room for one, else by a tick
    # across the block's outer bleed (the column cuts on Letter, 7.7 mm from the edge; the row cuts on A4, 10.5 mm)
    marks, ticks = crop_marks(g.slots, 3.0, PAPERS[paper]), bleed_ticks(g.slots, 3.0, PAPERS[paper])
    vertical = (paper == "letter")  # the cut lines that have ticks
    assert len(marks) == len(ticks) == 8 and all((t[0] == t[2]) == vertical for t in ticks)
    last = max(xs) + 63 if vertical else max(ys) + 88
    cut_at = {round(v, 6) for v in (xs if vertical else ys)} | {round(last, 6)}
    assert {round(t[0] if vertical else t[1], 6) for t in ticks} == cut_at
    for x1, y1, x2, y2 in marks + ticks:
        for x, y in ((x1, y1), (x2, y2)):
            assert 5.0 <= x <= pw - 5.0 and 5.0 <= y <= ph - 5.0
        assert abs(x2 - x1) + abs(y2 - y1) >= 1.5  # long enough to cut along
    for x1, y1, x2, y2 in marks:  # beyond the bleed and the gap
        lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
        assert (hi_y <= bottom - MARK_GAP + 1e-9 or lo_y >= ph - bottom + MARK_GAP - 1e-9 or
                hi_x <= left - MARK_GAP + 1e-9 or lo_x >= pw - left + MARK_GAP - 1e-9)
    for x1, y1, x2, y2 in ticks:  # never on a card: outside the block's cut lines
        lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
        assert (hi_y <= bottom + 3 - 0.2 or lo_y >= ph - bottom - 3 + 0.2 or
                hi_x <= left + 3 - 0.2 or lo_x >= pw - left - 3 + 0.2)
    # spaced, as before: 8 on A4, 6 on Letter
    assert page_grid(PAPERS[paper], (63, 88), 3.0).count == (8 if paper == "a4" else 6)


def test_a_butted_card_is_clipped_to_its_cell() -> None:
    g = butted_grid(PAPERS["a4"], (63, 88), 3.0)
    middle = g.slots[4]
    assert cell_clip(middle, g.slots, 3.0) == pytest.approx((middle.x - SEAM, middle.y - SEAM, middle.x + 63 + SEAM,
                                                             middle.y + 88 + SEAM))
    corner = g.slots[0]  # top left: bleed on the left and at the top
    assert cell_clip(corner, g.slots, 3.0) == pytest.approx((corner.x - 3, corner.y - SEAM, corner.x + 63 + SEAM,
                                                             corner.y + 88 + 3))
    alone = g.slots[:2]  # a last sheet of two cards: bleed wherever no card touches
    assert cell_clip(alone[0], alone, 3.0) == pytest.approx((alone[0].x - 3, alone[0].y - 3, alone[0].x + 63 + SEAM,
                                                             alone[0].y + 88 + 3))


def test_edge_colour_is_the_background_when_nothing_reaches_the_edge() -> None:
    sc = Scene(63, 88, 3.0, "#8E1F1A", [Rect(2.2, 2.2, 58.6, 83.6, Paint(fill="#f4ecd8"))])
    assert edge_colour(sc) == "#8e1f1a"
    sc.add(Rect(0, 40, 63, 8, Paint(fill="#000000")))  # a band across the card, to its edges
    assert edge_colour(sc) is None
    assert edge_colour(Scene(63, 88, 3.0, None)) is None


def test_auto_butts_only_sheets_whose_edges_agree_and_uses_the_fewest_sheets() -> None:
    runs = [Run("", 20)]
    same = ["red"] * 20
    assert [(p.end - p.start, p.butted) for p in plan_sheets(runs, 9, 8, "auto", same)] == \
        [(9, True), (9, True), (2, True)]
    mixed = ["red"] * 13 + ["blue"] * 7
    plans = plan_sheets(runs, 9, 8, "auto", mixed)
    assert len(plans) == 3 and sum(p.end - p.start for p in plans) == 20
    for p in plans:  # a butted sheet never mixes two edge colours
        assert not p.butted or len(set(mixed[p.start:p.end])) == 1
    unknown: list[str | None] = [None] * 20
    assert all(not p.butted for p in plan_sheets(runs, 9, 8, "auto", unknown))
    assert [p.end - p.start for p in plan_sheets(runs, 9, 8, "butted", mixed)] == [9, 9, 2]
    assert [p.end - p.start for p in plan_sheets(runs, 9, 8, "spaced", same)] == [8, 8, 4]
    # a run that starts a sheet of its own, and one that may follow on the same sheet
    plans = plan_sheets([Run("a", 10), Run("b", 3), Run("with c", 2, new_sheet=False)], 9, 8, "auto", ["x"] * 15)
    assert [(p.start, p.end, p.label) for p in plans] == [(0, 9, "a"), (9, 10, "a"), (10, 15, "b, with c")]


# -- Relic on A4 and Letter -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_relic_prints_nine_poker_cards_a_page(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    result = build("relic", paper=paper)
    files = {o.file: o for o in result.outputs}
    for deck in RELIC_POKER:
        out = files[f"cards-{deck}.pdf"]
        per_sheet = fronts_per_sheet(result.out_dir / out.file)
        assert per_sheet[:-1] == [9] * (len(per_sheet) - 1) and 0 < per_sheet[-1] <= 9, (deck, per_sheet)
        assert out.extra["per_page"] == 9 and out.extra["layout"] == "butted"
        assert out.pages == 2 * -(-out.extra["cards"] // 9)
    for deck in RELIC_MINI:  # 44 x 68 mm: 16 on A4, 12 on Letter
        per_sheet = fronts_per_sheet(result.out_dir / f"cards-{deck}.pdf")
        assert max(per_sheet) == (16 if paper == "a4" else 12), per_sheet
    cards = sum(o.pages for o in result.outputs if o.kind == "cards")
    assert cards == (74 if paper == "a4" else 76)  # 86 on A4 and 108 on Letter before the butted layout


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_butted_backs_align_with_their_fronts_within_a_hundredth_of_a_point(build, paper: str, duplex: str
                                                                           ) -> None:  # type: ignore[no-untyped-def]
    result = build("relic", paper=paper, duplex=duplex, back_offset=(0.4, -0.3))
    pw, ph = PT_PAPER[paper]
    dx, dy = 0.4 * MM, -0.3 * MM
    checked = 0
    for o in result.outputs:
        if o.kind != "cards":
            continue
        with pikepdf.open(result.out_dir / o.file) as pdf:
            pages = list(pdf.pages)
            for i in range(0, len(pages), 2):
                fronts, backs = cards_on(pages[i]), cards_on(pages[i + 1])
                assert len(fronts) == len(backs) > 0
                for f in fronts:
                    cx, cy = f.centre
                    want = (pw - cx + dx, cy + dy) if duplex == "long" else (cx + dx, ph - cy + dy)
                    b = min(backs, key=lambda b: (b.centre[0] - want[0]) ** 2 + (b.centre[1] - want[1]) ** 2)
                    assert abs(b.centre[0] - want[0]) <= 0.01 and abs(b.centre[1] - want[1]) <= 0.01
                    assert abs((b.x1 - b.x0) - (f.x1 - f.x0)) <= 0.01 and abs((b.y1 - b.y0) - (f.y1 - f.y0)) <= 0.01
                    checked += 1
    assert checked == 336


def test_butted_slots_mirror_for_duplex() -> None:
    paper = PAPERS["letter"]
    g = butted_grid(paper, (63, 88), 3.0)
    for duplex in ("long", "short"):
        backs = [mirror_slot(s, paper, duplex, (0.5, -1.0)) for s in g.slots]
        for s, b in zip(g.slots, backs):
            if duplex == "long":
                assert b.x + b.w / 2 == pytest.approx(paper[0] - (s.x + s.w / 2) + 0.5)
                assert b.y == pytest.approx(s.y - 1.0)
            else:
                assert b.y + b.h / 2 == pytest.approx(paper[1] - (s.y + s.h / 2) - 1.0)
                assert b.x == pytest.approx(s.x + 0.5)
        # the backs touch as the fronts do: each back's clip mirrors its front's
        for s, b in zip(g.slots, backs):
            f0, f1, f2, f3 = cell_clip(s, g.slots, 3.0)
            b0, b1, b2, b3 = cell_clip(b, backs, 3.0)
            if duplex == "long":
                assert (s.x - f0, f2 - s.x - s.w) == pytest.approx((b2 - b.x - b.w, b.x - b0))
                assert (s.y - f1, f3 - s.y - s.h) == pytest.approx((b.y - b1, b3 - b.y - b.h))
            else:
                assert (s.y - f1, f3 - s.y - s.h) == pytest.approx((b3 - b.y - b.h, b.y - b1))
                assert (s.x - f0, f2 - s.x - s.w) == pytest.approx((b.x - b0, b2 - b.x - b.w))


PDFTOPPM = shutil.which("pdftoppm")


@pytest.mark.skipif(PDFTOPPM is None, reason="needs pdftoppm (Debian package poppler-utils)")
def test_no_paper_shows_between_butted_cards(build) -> None:  # type: ignore[no-untyped-def]
    """On a butted page every shared cut line runs through the cards' edge colour: no hairline of paper where two
    clipped cards meet (poppler anti-aliases the clip edges, which shows such a hairline; pdfium does not)."""
    result = build("relic", paper="letter")
    path = result.out_dir / "cards-threat-red.pdf"
    dpi = 60
    scale = dpi / 72
    with pikepdf.open(path) as pdf:
        for pno in (0, 1):  # fronts and backs
            png = subprocess.run([str(PDFTOPPM), "-r", str(dpi), "-png", "-f", str(pno + 1), "-l", str(pno + 1),
                                  str(path)], capture_output=True, check=True).stdout
            img = Image.open(io.BytesIO(png)).convert("RGB")
            page = pdf.pages[pno]
            ph = float(page.MediaBox[3])
            cards = cards_on(page)
            bottom, top = min(c.y0 for c in cards) + 3 * MM, max(c.y1 for c in cards) - 3 * MM
            left = min(c.x0 for c in cards) + 3 * MM

            def pixel(x: float, y: float, img: Image.Image = img, ph: float = ph) -> tuple[int, int, int]:
                return img.getpixel((int(x * scale), int((ph - y) * scale)))  # type: ignore[return-value]

            edge = pixel(left - 1.5 * MM, (bottom + top) / 2)  # the block's outer bleed
            assert sum(edge) < 400  # Relic's red, not paper
            xs = sorted({round(c.x0 + 3 * MM, 3) for c in cards})[1:]  # the shared vertical cut lines
            assert len(xs) == 2
            for x in xs:
                for k in range(1, 40):
                    y = bottom + k * (top - bottom) / 40
                    for dx in (-1 / scale, 0.0, 1 / scale):
                        px = pixel(x + dx, y)
                        assert max(abs(a - b) for a, b in zip(px, edge)) <= 8, (pno, x, y, px, edge)


def test_spaced_keeps_the_old_imposition(build) -> None:  # type: ignore[no-untyped-def]
    result = build("relic", layout="spaced")
    files = {o.file: o for o in result.outputs}
    assert fronts_per_sheet(result.out_dir / "cards-threat-red.pdf")[0] == 8
    assert files["cards-threat-red.pdf"].extra["layout"] == "spaced"
    assert sum(o.pages for o in result.outputs if o.kind == "cards") == 86


def test_a_deck_of_mixed_edges_is_laid_out_in_one_grid_as_its_layout_says(build) -> None:  # type: ignore[no-untyped-def]
    """Covenant's cards are framed in their type's colour. Its layout butts every sheet (``sheets = "butted"``:
    11 sheets of 9); ``--layout spaced`` spaces them whatever the layout says. Without its layout's word, ``auto``
    lays the deck out in one grid all the same: on A4 spaced (12 sheets of 8), as butting would end a sheet at each
    change of colour (16 sheets); on Letter butted so (16 sheets, as many as spaced sheets of 6)."""
    auto = build("covenant")
    out = next(o for o in auto.outputs if o.file == "cards-main.pdf")
    assert out.extra["layout"] == "butted" and fronts_per_sheet(auto.out_dir / "cards-main.pdf") == [9] * 10 + [1]
    spaced = build("covenant", layout="spaced")
    assert fronts_per_sheet(spaced.out_dir / "cards-main.pdf") == [8] * 11 + [3]
    game = load_game("covenant")
    layout = load_layout(game)
    drawn = draw(game, layout, 3.0)
    seq = drawn.sequence("main")
    colours = [edge_colour(sc) for _, sc in seq.cards]
    for paper, layout_name, sheets in (("a4", "spaced", 12), ("letter", "butted", 16)):
        pdf = deck_pdf("t", seq.cards, seq.backs, PrintOptions(paper=paper))  # the deck's layout not asked
        assert (pdf.layout, pdf.sheets) == (layout_name, sheets), paper
        fronts = [p for p in pdf.placed if p.role == "fronts"]
        if layout_name == "butted":  # a butted sheet holds cards of one colour
            ids = iter(range(len(seq.cards)))
            for p in fronts:
                assert len({colours[next(ids)] for _ in p.slots}) == 1


# -- decks sharing the last sheet -----------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_friend_cards_share_the_last_sheet_of_wizards_and_relics(build, paper: str  # type: ignore[no-untyped-def]
                                                                      ) -> None:
    result = build("wizards-and-relics", paper=paper)
    files = {o.file: o for o in result.outputs}
    assert "cards-friends.pdf" not in files
    duel = files["cards-duel.pdf"]
    assert duel.extra["decks"] == {"duel": 120, "friends": 4} and duel.extra["cards"] == 120
    with pikepdf.open(result.out_dir / "cards-duel.pdf") as pdf:
        pages = list(pdf.pages)
        assert len(pages) == duel.pages == 28  # 14 sheets: without sharing, 14 + 1 for the Friend cards
        last_fronts, last_backs = cards_on(pages[-2]), cards_on(pages[-1])
        first_backs = {p.name for p in cards_on(pages[1])}
        # the last sheet holds 3 relics and the 4 Friend cards, each with its own back
        assert len(last_fronts) == len(last_backs) == 7
        assert len({p.name for p in last_backs}) == 2 and len({p.name for p in last_backs} & first_backs) == 1
    text = pdfium.PdfDocument(result.out_dir / "cards-duel.pdf")
    try:
        assert "with the Friend cards" in text[len(text) - 2].get_textpage().get_text_range()
    finally:
        text.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_file_of_cards_is_laid_out_in_one_grid(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    """The sheets of a file stack and cut together: every page of fronts places its cards in slots of one grid (the
    fullest page's), and so does every page of backs."""
    from wizprint.resources import game_ids

    checked = 0
    for game in game_ids():
        result = build(game, paper=paper)
        for o in result.outputs:
            if o.kind != "cards" and not (o.kind == "sheets" and "records" in o.extra):
                continue
            with pikepdf.open(result.out_dir / o.file) as pdf:
                grids = [{(round(c.x0), round(c.y0), round(c.x1), round(c.y1)) for c in cards_on(p)}
                         for p in pdf.pages]
            for side in (grids[::2], grids[1::2]):  # the pages of fronts, and of backs
                full = max(side, key=len)
                assert all(g <= full for g in side), (game, o.file, [len(g) for g in grids])
            checked += 1
    assert checked == 17


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_wizards_cup_prints_its_36_cards_on_8_pages(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    result = build("wizards-cup", paper=paper)
    out = next(o for o in result.outputs if o.file == "cards-wizards.pdf")
    assert out.pages == 8 and fronts_per_sheet(result.out_dir / out.file) == [9, 9, 9, 9]


def test_decks_that_do_not_fit_keep_their_own_file(build) -> None:  # type: ignore[no-untyped-def]
    result = build("relic")
    assert {o.file for o in result.outputs if o.kind == "cards"} == {f"cards-{d}.pdf" for d in
                                                                     RELIC_POKER + RELIC_MINI}
    assert not any("decks" in o.extra for o in result.outputs)


# -- tokens and dials ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_relic_tokens_fill_their_pages_evenly_and_the_wheels_go_under_their_boards(build, paper: str
                                                                                   ) -> None:  # type: ignore[no-untyped-def]
    result = build("relic", paper=paper)
    files = {o.file: o for o in result.outputs}
    assert files["tokens.pdf"].pages == 2 and files["boards-characters.pdf"].pages == 4  # were 2 and 6
    doc = pdfium.PdfDocument(result.out_dir / "tokens.pdf")
    try:
        used = []
        for pno in range(len(doc)):
            img = doc[pno].render(scale=30 / 72).to_pil().convert("L")
            rows = [y for y in range(img.height - round(12 * 30 / 25.4))  # above the label at the foot
                    if min(img.getpixel((x, y)) for x in range(0, img.width, 2)) < 200]  # type: ignore[operator]
            used.append((max(rows) - min(rows)) / img.height)
        assert min(used) > 0.4, used  # no page nearly empty (page 2 was 80 % blank)
    finally:
        doc.close()
    doc = pdfium.PdfDocument(result.out_dir / "boards-characters.pdf")
    try:
        for pno, colour in enumerate(("grey", "brown", "green", "purple")):
            text = doc[pno].get_textpage().get_text_range()
            for dial in ("Strength", "Willpower", "Cunning", "Life"):  # each board's own four wheels
                assert f"{dial} dial - {colour} board" in text, (pno, dial)
    finally:
        doc.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_token_slots_never_overlap(paper: str) -> None:
    from wizprint.generator.components import TOKEN_BLEED, TOKEN_FOOT, TOKEN_MARGIN, token_pages

    diameters = [20.0] * 40 + [16.0] * 55 + [18.0] * 55
    pw, ph = PAPERS[paper]
    pages = token_pages(PAPERS[paper], diameters, ph - TOKEN_MARGIN, TOKEN_FOOT)
    assert len(pages) == 2 and sum(len(p) for p in pages) == 150
    for slots in pages:
        for i, a in enumerate(slots):
            assert a.x >= TOKEN_MARGIN - 1e-6 - 5 and a.x + a.w <= pw - TOKEN_MARGIN + 5
            assert a.y >= TOKEN_FOOT - 1e-6 and a.y + a.h <= ph - TOKEN_MARGIN + 1e-6
            for b in slots[i + 1:]:
                d = ((a.x + a.w / 2 - b.x - b.w / 2) ** 2 + (a.y + a.h / 2 - b.y - b.h / 2) ** 2) ** 0.5
                assert d >= (a.w + b.w) / 2 + 2 * TOKEN_BLEED - 1e-6  # bleeds meet, never a cut circle


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_token_rows_are_even_and_no_token_is_alone_on_a_row(paper: str) -> None:
    """Relic's 150 tokens (40 of 20 mm, 55 of 16 mm, 55 of 18 mm) on their two pages: on each page the rows of a
    diameter hold as many tokens as each other, give or take one (the page once ended on a row of one)."""
    from wizprint.generator.components import TOKEN_FOOT, TOKEN_MARGIN, token_pages

    ph = PAPERS[paper][1]
    pages = token_pages(PAPERS[paper], [20.0] * 40 + [16.0] * 55 + [18.0] * 55, ph - TOKEN_MARGIN, TOKEN_FOOT)
    assert len(pages) == 2
    for slots in pages:
        rows: dict[tuple[float, float], int] = {}
        for sl in slots:
            key = (sl.w, round(sl.y, 3))
            rows[key] = rows.get(key, 0) + 1
        for d in {w for w, _ in rows}:
            counts = [n for (w, _), n in rows.items() if w == d]
            assert max(counts) - min(counts) <= 1 and min(counts) > 1, (d, counts)


# -- the build's report, progress and -o ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["wizard-cards", "relic"])
def test_the_progress_counts_every_file_exactly(game: str, tmp_path: Path) -> None:
    rec = Recorder()
    result = build_game(game, tmp_path / game, BuildOptions(), rec)
    on_disk = [p for p in (tmp_path / game).rglob("*") if p.is_file()]
    assert rec.total == len(rec.steps) == len(result.outputs) + 1 == len(on_disk)
    assert rec.peak == 0 and rec.steps[-1] == "manifest.json"


def test_a_new_kind_of_outputs_files_are_counted_from_the_start(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    add_producer(monkeypatch, "notes", ("notes-a.txt", "notes-b.txt"))
    stream = io.StringIO()
    plain = Plain(stream)
    build_game("wizard-cards", tmp_path / "w", BuildOptions(svg=False, png=False), plain)
    lines = stream.getvalue().splitlines()
    counts = [tuple(int(v) for v in ln[1:ln.index("]")].split("/")) for ln in lines]
    on_disk = len(list((tmp_path / "w").rglob("*.*")))
    assert [done for done, _ in counts] == list(range(1, on_disk + 1)) and {total for _, total in counts} == {on_disk}
    assert lines[-1].endswith("manifest.json") and any(ln.endswith("notes-b.txt") for ln in lines)


def _wizprint(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wizprint", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_o_names_the_parent_of_the_game_folders(tmp_path: Path) -> None:
    one = _wizprint("build", "covenant", "-o", str(tmp_path / "one"), "--no-svg", "--no-png")
    assert one.returncode == 0, one.stderr
    assert (tmp_path / "one" / "covenant" / "manifest.json").is_file()
    assert sorted(p.name for p in (tmp_path / "one").iterdir()) == ["covenant"]
    # the progress's last count, the files reported and the files written agree; the pages are the PDFs' pages
    lines = one.stderr.strip().splitlines()
    last = next(ln for ln in reversed(lines) if ln.startswith("["))
    done, total = (int(v) for v in last[1:last.index("]")].split("/"))
    manifest = json.loads((tmp_path / "one" / "covenant" / "manifest.json").read_text())
    files = len(manifest["files"]) + 1
    # the pages of the game's components in one ink: the full set, not the low-ink set beside it nor the guide
    pages = sum(f["pages"] for f in manifest["files"] if f["file"].endswith(".pdf") and "ink" not in f
                and f["kind"] != "guide")
    assert done == total == files
    assert lines[-1] == f"built covenant: {files} files, {pages} printable pages in {tmp_path / 'one' / 'covenant'}"
    # a game folder of one's own goes into DIR/<game id> too, and 'all' into DIR/<game> for every game
    every = _wizprint("build", "all", "-o", str(tmp_path / "all"), "--no-svg", "--no-png", "-q")
    assert every.returncode == 0, every.stderr
    from wizprint.resources import game_ids

    assert sorted(p.name for p in (tmp_path / "all").iterdir()) == sorted(game_ids())
    assert (tmp_path / "all" / "covenant" / "cards-main.pdf").read_bytes() == \
        (tmp_path / "one" / "covenant" / "cards-main.pdf").read_bytes()


def test_help_says_what_o_and_layout_mean() -> None:
    res = _wizprint("build", "--help", cwd=None)
    text = " ".join(res.stdout.replace("│", " ").split())
    assert "Parent folder of the game folders" in text and "for one game and for 'all' alike" in text
    for word in ("auto", "butted", "spaced", "gutterfold"):
        assert word in text
