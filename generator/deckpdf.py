"""Deck PDFs: fronts on one page, their backs on the next (for duplex), or both on one page (gutterfold)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib.colors import HexColor

from .fonts import family
from .impose import PAPERS, Slot, crop_marks, gutterfold, mirror_slot, page_grid
from .pdf import PdfPainter, new_canvas
from .scene import Scene
from .units import MM

MARK_COLOUR = HexColor("#000000")
LABEL_COLOUR = HexColor("#555555")


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"
    bleed: float = 3.0
    duplex: str = "long"  # long | short | off
    back_offset: tuple[float, float] = (0.0, 0.0)
    marks: bool = True
    layout: str = "duplex"  # duplex | gutterfold

    @property
    def paper_size(self) -> tuple[float, float]:
        return PAPERS[self.paper]


@dataclass(frozen=True)
class PlacedPage:
    """What a page holds, for tests and the manifest: its role and its card slots with card ids."""

    role: str  # fronts | backs | fold
    slots: tuple[tuple[Slot, str, str], ...]  # (slot, card id or 'back', side 'front'|'back')


@dataclass
class DeckPdf:
    data: bytes
    pages: int
    per_page: int
    placed: list[PlacedPage]


def _boxes(c: Any, slots: list[Slot], bleed: float) -> None:
    x1 = min(s.x for s in slots)
    y1 = min(s.y for s in slots)
    x2 = max(s.x + s.w for s in slots)
    y2 = max(s.y + s.h for s in slots)
    c.setTrimBox([x1 * MM, y1 * MM, x2 * MM, y2 * MM])
    c.setBleedBox([(x1 - bleed) * MM, (y1 - bleed) * MM, (x2 + bleed) * MM, (y2 + bleed) * MM])


def _marks(c: Any, slots: list[Slot], bleed: float) -> None:
    c.saveState()
    c.setStrokeColor(MARK_COLOUR)
    c.setLineWidth(0.25)
    for x1, y1, x2, y2 in crop_marks(slots, bleed):
        c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    c.restoreState()


def _label(c: Any, text: str, x: float, y: float, align: str = "left") -> None:
    face = family("text").face()
    c.saveState()
    c.setFillColor(LABEL_COLOUR)
    c.setFont(face, 6.5)
    if align == "right":
        c.drawRightString(x * MM, y * MM, text)
    elif align == "center":
        c.drawCentredString(x * MM, y * MM, text)
    else:
        c.drawString(x * MM, y * MM, text)
    c.restoreState()


def _group(label: str) -> str:
    return f" ({label})" if label else ""


def _runs(n: int, per: int, groups: Sequence[tuple[str, int]] | None) -> list[tuple[int, int, str]]:
    """The cards of each sheet as (start, end, label): ``per`` at a time, each group of ``groups`` starting on a
    sheet of its own."""
    if groups is None:
        groups = [("", n)]
    if sum(k for _, k in groups) != n:
        raise ValueError("the groups must hold every card once")
    out: list[tuple[int, int, str]] = []
    start = 0
    for label, k in groups:
        out.extend((i, min(i + per, start + k), label) for i in range(start, start + k, per))
        start += k
    return out


def deck_pdf(title: str, fronts: list[tuple[str, Scene]], back: Scene | list[Scene], opts: PrintOptions,
             groups: Sequence[tuple[str, int]] | None = None) -> DeckPdf:
    """A deck as PDF bytes. ``fronts`` has one entry per physical card (design id, scene); equal scenes share
    one form. ``back`` is the deck's one back, or a list with each card's own back (sheets with a story on the
    back, the Black and White sets of Wizards Cup). ``groups`` splits ``fronts`` into runs of (label, number of
    cards) that each start on a new sheet, so that no sheet mixes two backs (its label is printed on the sheet)."""
    backs = back if isinstance(back, list) else [back] * len(fronts)
    if len(backs) != len(fronts):
        raise ValueError("one back per front is needed")
    back = backs[0]
    paper = opts.paper_size
    buf = io.BytesIO()
    c = new_canvas(buf, (paper[0] * MM, paper[1] * MM), title)
    painter = PdfPainter(c)
    card = (back.w, back.h)
    bleed = opts.bleed
    placed: list[PlacedPage] = []
    if opts.layout == "gutterfold":
        fl = gutterfold(paper, card, bleed)
        per = fl.fronts.count
        if per == 0:
            from wizprint.errors import BuildError

            raise BuildError(f"a {card[0]:g}x{card[1]:g} mm card with {bleed:g} mm bleed does not fit half a "
                             f"{opts.paper} page for gutterfold")
        runs = _runs(len(fronts), per, groups)
        npages = len(runs)
        for pno, (start, end, group) in enumerate(runs):
            chunk = fronts[start:end]
            fslots = list(fl.fronts.slots[:len(chunk)])
            bslots = list(fl.backs[:len(chunk)])
            for (_cid, sc), s in zip(chunk, fslots):
                painter.place(sc, (s.x - bleed) * MM, (s.y - bleed) * MM, s.rotate)
            for bsc, s in zip(backs[start:end], bslots):
                painter.place(bsc, (s.x - bleed) * MM, (s.y - bleed) * MM, s.rotate)
            c.saveState()
            c.setStrokeColor(HexColor("#888888"))
            c.setLineWidth(0.5)
            c.setDash([4, 3])
            (fx1, fy1), (fx2, fy2) = fl.fold
            c.line(fx1 * MM, fy1 * MM, fx2 * MM, fy2 * MM)
            c.restoreState()
            if opts.marks:
                _marks(c, fslots + bslots, bleed)
            _boxes(c, fslots + bslots, bleed)
            _label(c, f"{title} - page {pno + 1} of {npages}{_group(group)} - fold on the dashed line, glue, then cut",
                   4, 3.0)
            placed.append(PlacedPage("fold", tuple((s, cid, "front") for (cid, _), s in zip(chunk, fslots)) +
                                     tuple((s, "back", "back") for s in bslots)))
            c.showPage()
    else:
        grid = page_grid(paper, card, bleed)
        per = grid.count
        if per == 0:
            from wizprint.errors import BuildError

            raise BuildError(f"a {card[0]:g}x{card[1]:g} mm card with {bleed:g} mm bleed does not fit on "
                             f"{opts.paper} paper")
        runs = _runs(len(fronts), per, groups)
        nsheets = len(runs)
        for sheet, (start, end, group) in enumerate(runs):
            chunk = fronts[start:end]
            fslots = list(grid.slots[:len(chunk)])
            for (_cid, sc), s in zip(chunk, fslots):
                painter.place(sc, (s.x - bleed) * MM, (s.y - bleed) * MM, s.rotate)
            if opts.marks:
                _marks(c, fslots, bleed)
            _boxes(c, fslots, bleed)
            _label(c, f"{title} - sheet {sheet + 1} of {nsheets}{_group(group)} - fronts", 4, 3.0)
            placed.append(PlacedPage("fronts", tuple((s, cid, "front") for (cid, _), s in zip(chunk, fslots))))
            c.showPage()
            if opts.duplex == "off":
                continue
            bslots = [mirror_slot(s, paper, opts.duplex, opts.back_offset) for s in fslots]
            for bsc, s in zip(backs[start:end], bslots):
                painter.place(bsc, (s.x - bleed) * MM, (s.y - bleed) * MM, s.rotate)
            if opts.marks:
                _marks(c, bslots, bleed)
            _boxes(c, bslots, bleed)
            _label(c, f"{title} - sheet {sheet + 1} of {nsheets}{_group(group)} - backs ({opts.duplex}-edge duplex)",
                   paper[0] - 4, 3.0, align="right")
            placed.append(PlacedPage("backs", tuple((s, cid, "back") for (cid, _), s in zip(chunk, bslots))))
            c.showPage()
    c.save()
    return DeckPdf(buf.getvalue(), len(placed), per, placed)
