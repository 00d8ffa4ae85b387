"""Pages every home printer takes: on every page of every PDF a build makes, for every game on A4 and on Letter,
nothing is drawn within 5 mm of the paper's edge (most printers leave about 4.2 mm blank there), but the outer bleed
of a block of butted cards, which the cut takes away. Read from the PDFs themselves: every stroke, fill, image and
glyph the content streams paint, forms included (see pdfcheck.InkReader)."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from pdfcheck import MM, Ink, InkReader

from wizprint.resources import game_ids

BAND = 5.0  # mm


def _inside(ink: Ink, box: list[float], slack: float = 0.01) -> bool:
    return (ink.x0 >= box[0] - slack and ink.y0 >= box[1] - slack and ink.x1 <= box[2] + slack
            and ink.y1 <= box[3] + slack)


def near_the_edge(path: Path) -> tuple[list[str], int]:
    """What each page of a PDF draws within BAND of the paper's edge (described), and how many things it draws.
    A card's face may reach into the band with its bleed: drawn by a form, inside the page's BleedBox, on a page
    whose TrimBox keeps out of the band (so that what lies in the band is bleed)."""
    found: list[str] = []
    drawn = 0
    reader = InkReader()
    with pikepdf.open(path) as pdf:
        for pno, page in enumerate(pdf.pages, start=1):
            w, h = float(page.MediaBox[2]), float(page.MediaBox[3])
            bleed = [float(v) for v in page.BleedBox] if "/BleedBox" in page.obj else None
            trim = [float(v) for v in page.TrimBox] if "/TrimBox" in page.obj else None
            trim_clear = trim is not None and min(trim[0], trim[1], w - trim[2], h - trim[3]) / MM >= BAND
            inks = reader.page(page)
            assert inks, f"{path.name} page {pno} draws nothing"
            drawn += len(inks)
            for ink in inks:
                gap = min(ink.x0, ink.y0, w - ink.x1, h - ink.y1) / MM
                if gap >= BAND - 1e-6:
                    continue
                if ink.in_form and trim_clear and bleed is not None and _inside(ink, bleed):
                    continue
                where = f"({ink.x0 / MM:.1f}, {ink.y0 / MM:.1f})-({ink.x1 / MM:.1f}, {ink.y1 / MM:.1f}) mm"
                found.append(f"{path.name} page {pno}: {ink.kind} {ink.text[:40]!r} {gap:.2f} mm from the edge, "
                             f"at {where}")
    return found, drawn


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("game", game_ids())
def test_nothing_is_drawn_within_5_mm_of_the_paper_edge(build, game: str, paper: str  # type: ignore[no-untyped-def]
                                                        ) -> None:
    result = build(game, paper=paper)
    pdfs = [result.out_dir / o.file for o in result.outputs if o.file.endswith(".pdf")]
    assert pdfs
    problems: list[str] = []
    for path in pdfs:
        found, drawn = near_the_edge(path)
        assert drawn > 10, path.name
        problems += found
    assert problems == [], "\n".join(problems[:20])
