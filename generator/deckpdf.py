"""Deck PDFs: fronts on one page, their backs on the next (for duplex), or both on one page (gutterfold).

A deck is cut into sheets; each sheet is *butted* (its cards touch, sharing cut lines, with bleed only round the
block: 9 poker cards on A4 and on Letter) or *spaced* (each card with its own bleed: 8 on A4, 6 on Letter).
``--layout auto`` (the default) butts a sheet when every card on it has the same edge colour, front and back (see
:func:`edge_colour`), and spaces it otherwise; ``butted`` and ``spaced`` force one style for every sheet.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth

from .fonts import family
from .impose import (
    DRAW_EDGE,
    MARK_GAP,
    MARK_LEN,
    PAPERS,
    SIDES,
    Box,
    Grid,
    Line,
    Slot,
    bleed_ticks,
    butted_grid,
    cell_clip,
    crop_marks,
    free_runs,
    gutterfold,
    mirror_slot,
    page_grid,
)
from .pdf import PdfPainter, new_canvas
from .scene import Ellipse, IconPlace, Item, Poly, Rect, Scene, Text
from .units import MM

MARK_COLOUR = HexColor("#000000")
LABEL_COLOUR = HexColor("#555555")


LAYOUTS = ("auto", "butted", "spaced", "gutterfold")
"""The values of ``--layout``; ``duplex``, its old name for the default, still means ``auto``."""


@dataclass(frozen=True)
class PrintOptions:
    paper: str = "a4"
    bleed: float = 3.0
    duplex: str = "long"  # long | short | off
    back_offset: tuple[float, float] = (0.0, 0.0)
    marks: bool = True
    layout: str = "auto"  # auto | butted | spaced | gutterfold ("duplex": auto)

    @property
    def paper_size(self) -> tuple[float, float]:
        return PAPERS[self.paper]

    @property
    def imposition(self) -> str:
        """auto, butted, spaced or gutterfold (the old name ``duplex`` is ``auto``)."""
        return "auto" if self.layout == "duplex" else self.layout


@dataclass(frozen=True)
class PlacedPage:
    """What a page holds, for tests and the manifest: its role and its card slots with card ids."""

    role: str  # fronts | backs | fold
    slots: tuple[tuple[Slot, str, str], ...]  # (slot, card id or 'back', side 'front'|'back')
    butted: bool = False  # the cards touch, sharing their cut lines


@dataclass
class DeckPdf:
    data: bytes
    pages: int
    per_page: int  # the most cards a sheet of this file holds (the butted count when a sheet is butted)
    placed: list[PlacedPage]
    sheets: int = 0
    butted_sheets: int = 0

    def fronts_placed(self) -> list[tuple[int, Slot, str]]:
        """Every card's front as (page index, slot, design id), in the order of the cards given to deck_pdf."""
        return [(pno, s, cid) for pno, p in enumerate(self.placed) for s, cid, side in p.slots if side == "front"]

    @property
    def layout(self) -> str:
        """butted, spaced, or butted+spaced when the file has sheets of both (the manifest's ``layout``)."""
        if self.butted_sheets == 0:
            return "spaced"
        return "butted" if self.butted_sheets == self.sheets else "butted+spaced"


# -- edge colours -------------------------------------------------------------------------------------------------
EDGE_BAND = 1.5  # mm inside the cut line that must show only the background for a card to have an edge colour


def _box(it: Item) -> tuple[float, float, float, float] | None:
    """An item's bounding box (x0, y0, x1, y1) in the scene's mm, stroke included; None for an empty group."""
    if isinstance(it, (Rect, Ellipse, Poly)):
        sw = it.paint.stroke_width / 2 if it.paint.stroke else 0.0
        if isinstance(it, Rect):
            x0, y0, x1, y1 = it.x, it.y, it.x + it.w, it.y + it.h
        elif isinstance(it, Ellipse):
            x0, y0, x1, y1 = it.cx - it.rx, it.cy - it.ry, it.cx + it.rx, it.cy + it.ry
        else:
            xs, ys = [p[0] for p in it.points], [p[1] for p in it.points]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        return (x0 - sw, y0 - sw, x1 + sw, y1 + sw)
    if isinstance(it, Text):
        return (it.x, it.y, it.x + it.w, it.y + it.h)
    if isinstance(it, IconPlace):
        return (it.x, it.y, it.x + it.size, it.y + it.size)
    boxes = [b for b in (_box(ch) for ch in it.children) if b is not None]
    if not boxes:
        return None
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    a = math.radians(it.rotate)
    cos, sin = math.cos(a), math.sin(a)
    pts = []
    for x, y in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):  # the group's transform, as the back ends apply it
        dx, dy = (x - it.cx) * it.scale, (y - it.cy) * it.scale
        pts.append((it.cx + dx * cos - dy * sin + it.tx, it.cy + dx * sin + dy * cos + it.ty))
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


def edge_colour(scene: Scene) -> str | None:
    """The colour a card shows along its cut line: its background, when nothing is drawn within EDGE_BAND of the
    cut line (or beyond it, in the bleed); None otherwise, or without a background. A cut a little off the line on
    a butted sheet shows the neighbour's edge, so ``--layout auto`` butts only cards whose edge colours agree."""
    if not scene.background:
        return None
    # worked out once for a scene (a deck's sheets are planned more than once), unless it has changed since
    drawn = (scene.background, scene.w, scene.h, tuple(scene.items))
    if scene.edge is not None and scene.edge[0] == drawn:
        return scene.edge[1]
    found: str | None = scene.background.lower()
    for it in scene.items:
        b = _box(it)
        if b is not None and min(b[0], b[1], scene.w - b[2], scene.h - b[3]) < EDGE_BAND - 1e-9:
            found = None
            break
    scene.edge = (drawn, found)
    return found


# -- sheets -------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """Consecutive cards of a deck file: ``n`` cards and the label printed on their sheets; ``new_sheet`` starts
    them on a sheet of their own (a group of cards with another back), otherwise they may follow the cards before
    them on a sheet (another deck sharing the last sheet)."""

    label: str
    n: int
    new_sheet: bool = True


@dataclass(frozen=True)
class SheetPlan:
    start: int
    end: int
    butted: bool
    label: str


def plan_sheets(runs: Sequence[Run], per_butted: int, per_spaced: int, layout: str,
                edges: Sequence[Hashable | None] | None = None) -> list[SheetPlan]:
    """Cut the cards into sheets, in order; a sheet never crosses the start of a ``new_sheet`` run. ``layout``
    butted or spaced (gutterfold: spaced) fills every sheet in that style. ``auto`` lays every sheet of the file
    out in one grid, so that the sheets stack and cut together: butted when that takes no more sheets than spaced
    and every butted sheet can hold cards of equal known ``edges`` (one key per card: its edge colours; None:
    unknown), a sheet then ending where the edges change; spaced otherwise."""
    bounds: list[tuple[int, int]] = []
    labels: list[tuple[int, int, str]] = []
    pos = 0
    for r in runs:
        if r.new_sheet or not bounds:
            bounds.append((pos, pos + r.n))
        else:
            bounds[-1] = (bounds[-1][0], pos + r.n)
        labels.append((pos, pos + r.n, r.label))
        pos += r.n
    keys = list(edges) if edges is not None else [None] * pos

    def chunks(per: int, split_at_edges: bool) -> list[tuple[int, int]] | None:
        if per <= 0:
            return None
        out: list[tuple[int, int]] = []
        for a, b in bounds:
            i = a
            while i < b:
                k = min(per, b - i)
                if split_at_edges:
                    if keys[i] is None:
                        return None
                    k = next((j - i for j in range(i + 1, i + k) if keys[j] != keys[i]), k)
                out.append((i, i + k))
                i += k
        return out

    if layout == "butted":
        picked, butt = chunks(per_butted, False), True
    elif layout != "auto":
        picked, butt = chunks(per_spaced, False), False
    else:
        butted, spaced = chunks(per_butted, per_spaced > 0), chunks(per_spaced, False)
        butt = butted is not None and (spaced is None or len(butted) <= len(spaced))
        picked = butted if butt else spaced
    if picked is None:
        raise ValueError("no card fits the sheet")
    return [SheetPlan(i, j, butt, ", ".join(dict.fromkeys(lab for s0, s1, lab in labels if lab and s0 < j and s1 > i)))
            for i, j in picked]


def sheet_count(n: int, groups: Sequence[tuple[str, int]] | None, card: tuple[float, float], opts: PrintOptions,
                fronts: Sequence[Scene] | None = None, backs: Sequence[Scene] | None = None,
                guests: Sequence[tuple[str, int]] = ()) -> int:
    """How many sheets ``deck_pdf`` prints for these cards (with ``guests`` following them), without drawing."""
    runs = _make_runs(n - sum(k for _, k in guests), groups, guests)
    return len(_plan(runs, card, opts, fronts, backs))


RIDER_CLEAR = 1.0  # mm between the tokens riding on a last sheet and the cards' bleed and marks above them


@dataclass(frozen=True)
class Riders:
    """Round pieces (a game's tokens) printed on the empty rows of a file's last sheet: each one's front and back
    (None: nothing behind it), ``pack`` placing them in an area (its top and bottom, mm from the page's foot: the
    slots of as many as fit, PDF coordinates), and the words the sheet's label adds for them."""

    faces: Sequence[tuple[Scene, Scene | None]]
    pack: Callable[[float, float], list[Slot]]
    label: str


def free_rows(grid: Grid, used: int, bleed: float, marks: bool) -> tuple[float, float] | None:
    """The rows a sheet of ``used`` cards leaves empty at the foot of its grid, clear of the cards' bleed and crop
    marks: (top, bottom) in mm from the page's foot; None when the cards reach the grid's last row."""
    if used <= 0 or -(-used // grid.cols) >= grid.rows:
        return None
    top = min(s.y for s in grid.slots[:used]) - bleed - (MARK_GAP + MARK_LEN if marks else 0.0) - RIDER_CLEAR
    bottom = min(s.y for s in grid.slots)
    return (top, bottom) if top > bottom else None


def rider_room(n: int, groups: Sequence[tuple[str, int]] | None, card: tuple[float, float], opts: PrintOptions,
               fronts: Sequence[Scene] | None = None, backs: Sequence[Scene] | None = None,
               guests: Sequence[tuple[str, int]] = ()) -> tuple[float, float] | None:
    """The empty rows of the last sheet ``deck_pdf`` prints for these cards (see :func:`free_rows`), or None
    (gutterfold has none)."""
    if opts.imposition == "gutterfold":
        return None
    runs = _make_runs(n - sum(k for _, k in guests), groups, guests)
    last = _plan(runs, card, opts, fronts, backs)[-1]
    grid = (butted_grid if last.butted else page_grid)(opts.paper_size, card, opts.bleed)
    return free_rows(grid, last.end - last.start, opts.bleed, opts.marks)


def _make_runs(n: int, groups: Sequence[tuple[str, int]] | None, guests: Sequence[tuple[str, int]]) -> list[Run]:
    if groups is None:
        groups = [("", n)]
    if sum(k for _, k in groups) != n:
        raise ValueError("the groups must hold every card once")
    return [Run(label, k) for label, k in groups] + [Run(label, k, new_sheet=False) for label, k in guests]


def _plan(runs: Sequence[Run], card: tuple[float, float], opts: PrintOptions, fronts: Sequence[Scene] | None,
          backs: Sequence[Scene] | None) -> list[SheetPlan]:
    paper, bleed = opts.paper_size, opts.bleed
    layout = opts.imposition
    if layout == "gutterfold":
        per_s, per_b = gutterfold(paper, card, bleed).fronts.count, 0
    else:
        per_s, per_b = page_grid(paper, card, bleed).count, butted_grid(paper, card, bleed).count
    if (per_b if layout in ("butted", "auto") else per_s) == 0:
        from wizprint.errors import BuildError

        where = f"half a {opts.paper} page for gutterfold" if layout == "gutterfold" else f"{opts.paper} paper"
        raise BuildError(f"a {card[0]:g}x{card[1]:g} mm card with {bleed:g} mm bleed does not fit {where}")
    edges: list[Hashable | None] | None = None
    if layout == "auto" and fronts is not None:
        with_backs = backs is not None and opts.duplex != "off"
        edges = []
        for k, sc in enumerate(fronts):
            front = edge_colour(sc)  # worked out once for each scene (the copies of a card share theirs)
            back = edge_colour(backs[k]) if with_backs and backs is not None else ""
            edges.append(None if front is None or back is None else (front, back))
    return plan_sheets(runs, per_b, per_s, layout, edges)


def _boxes(c: Any, slots: list[Slot], bleed: float) -> None:
    x1 = min(s.x for s in slots)
    y1 = min(s.y for s in slots)
    x2 = max(s.x + s.w for s in slots)
    y2 = max(s.y + s.h for s in slots)
    c.setTrimBox([x1 * MM, y1 * MM, x2 * MM, y2 * MM])
    c.setBleedBox([(x1 - bleed) * MM, (y1 - bleed) * MM, (x2 + bleed) * MM, (y2 + bleed) * MM])


def _marks(c: Any, slots: list[Slot], bleed: float, paper: tuple[float, float]) -> list[Line]:
    """Draw the crop marks, and the ticks in the outer bleed for the cut lines without a mark at an end (a fine
    black line on a white one, seen on any colour); the lines drawn."""
    marks, ticks = crop_marks(slots, bleed, paper), bleed_ticks(slots, bleed, paper)
    c.saveState()
    c.setStrokeColor(MARK_COLOUR)
    c.setLineWidth(0.25)
    for x1, y1, x2, y2 in marks:
        c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    if ticks:
        c.setStrokeColor(HexColor("#ffffff"))
        c.setLineWidth(1.0)
        for x1, y1, x2, y2 in ticks:
            c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
        c.setStrokeColor(MARK_COLOUR)
        c.setLineWidth(0.3)
        for x1, y1, x2, y2 in ticks:
            c.line(x1 * MM, y1 * MM, x2 * MM, y2 * MM)
    c.restoreState()
    return marks + ticks


LABEL_SIZE = 6.5  # pt


def _label(c: Any, text: str, x: float, y: float, align: str = "left", rotate: float = 0.0,
           size: float = LABEL_SIZE, colour: Any = LABEL_COLOUR) -> None:
    face = family("text").face()
    c.saveState()
    c.setFillColor(colour)
    c.setFont(face, size)
    if rotate:
        c.translate(x * MM, y * MM)
        c.rotate(rotate)
        x = y = 0.0
    if align == "right":
        c.drawRightString(x * MM, y * MM, text)
    elif align == "center":
        c.drawCentredString(x * MM, y * MM, text)
    else:
        c.drawString(x * MM, y * MM, text)
    c.restoreState()


def _fill_runs(pieces: list[str], runs: list[tuple[str, float, float]], width: Any
               ) -> list[tuple[str, float, float, str]] | None:
    """The pieces in order, as many of them to a run as fit (joined by ' - '): [(side, from, to, text)], or None
    when they do not all fit."""
    out: list[tuple[str, float, float, str]] = []
    k = 0
    for side, a, b in runs:
        if k == len(pieces):
            break
        n = k
        while n < len(pieces) and width(" - ".join(pieces[k:n + 1])) <= b - a:
            n += 1
        if n > k:
            out.append((side, a, b, " - ".join(pieces[k:n])))
            k = n
    return out if k == len(pieces) else None


def page_label(c: Any, text: str, obstacles: list[Box], paper: tuple[float, float], back: bool = False,
               size: float = LABEL_SIZE, colour: Any = LABEL_COLOUR) -> None:
    """The page's label along an edge, just inside DRAW_EDGE where printers print, clear of the cards' bleed, the
    marks and the ticks (``obstacles``): at the foot when it has room (from the left on a page of fronts, from the
    right on a page of backs), else at the top, else up the left side or down the right side; a label longer than
    the free stretch is cut at its ' - ' (then between words) and goes on in the next stretch."""
    face = family("text").face()
    asc, desc = (v / MM for v in getAscentDescent(face, size))

    def width(t: str) -> float:
        return float(stringWidth(t, face, size)) / MM

    runs = free_runs(paper, obstacles, asc - desc)
    order = ("bottom", "top", "right", "left") if back else SIDES
    every = [(side, a, b) for side in order for a, b in (reversed(runs[side]) if back and side in ("bottom", "top")
                                                         else runs[side])]
    placed = None
    for pieces in ([text], text.split(" - "), text.split()):
        for side in order:  # on one side of the page if it can, else across them
            placed = placed or _fill_runs(pieces, [r for r in every if r[0] == side], width)
        placed = placed or _fill_runs(pieces, every, width)
        if placed:
            break
    pw, ph = paper
    for side, a, b, t in placed or []:
        if side == "bottom":
            _label(c, t, b if back else a, DRAW_EDGE - desc, "right" if back else "left", 0.0, size, colour)
        elif side == "top":
            _label(c, t, b if back else a, ph - DRAW_EDGE - asc, "right" if back else "left", 0.0, size, colour)
        elif side == "left":  # reading up the page, the glyphs' tops towards the edge
            _label(c, t, DRAW_EDGE + asc, a, "left", 90.0, size, colour)
        else:  # reading down the page
            _label(c, t, pw - DRAW_EDGE - asc, b, "left", -90.0, size, colour)


def _sheet_label(c: Any, text: str, slots: list[Slot], bleed: float, paper: tuple[float, float], drawn: list[Line],
                 back: bool) -> None:
    """The label of a sheet of cards, clear of the cards with their bleed and of the marks ``drawn``."""
    boxes: list[Box] = [(s.x - bleed, s.y - bleed, s.x + s.w + bleed, s.y + s.h + bleed) for s in slots]
    boxes += [(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)) for x1, y1, x2, y2 in drawn]
    page_label(c, text, boxes, paper, back)


def _fold_line(fold: tuple[tuple[float, float], tuple[float, float]], paper: tuple[float, float]) -> Line:
    """A gutterfold's fold line across the page, stopping DRAW_EDGE short of the paper's edges."""
    (x1, y1), (x2, y2) = fold
    e = DRAW_EDGE
    if x1 == x2:
        return (x1, max(min(y1, y2), e), x2, min(max(y1, y2), paper[1] - e))
    return (max(min(x1, x2), e), y1, min(max(x1, x2), paper[0] - e), y2)


def _ride(c: Any, painter: PdfPainter, riders: Riders, grid: Grid, used: int, opts: PrintOptions) -> list[Slot]:
    """Place the riders' fronts on the empty rows of a sheet of ``used`` cards; their slots."""
    room = free_rows(grid, used, opts.bleed, opts.marks)
    slots = riders.pack(*room) if room is not None else []
    if len(slots) != len(riders.faces):
        raise ValueError("the riders do not fit the last sheet")
    for (front, _), s in zip(riders.faces, slots):
        painter.place(front, (s.x - front.bleed) * MM, (s.y - front.bleed) * MM)
    return slots


def _group(label: str) -> str:
    return f" ({label})" if label else ""


@lru_cache(maxsize=64)
def _clips(slots: tuple[Slot, ...], bleed: float) -> tuple[tuple[float, float, float, float], ...]:
    """The cell_clip of each slot of a butted sheet (every full sheet of a deck has the same slots)."""
    return tuple(cell_clip(s, slots, bleed) for s in slots)


def _place_all(c: Any, painter: PdfPainter, scenes: Sequence[Scene], slots: list[Slot], bleed: float,
               butted: bool) -> None:
    """Place each scene (bleed box) at its slot; on a butted sheet each is clipped to its cell (see cell_clip)."""
    for k, (sc, s) in enumerate(zip(scenes, slots)):
        clip = None
        if butted:
            x0, y0, x1, y1 = _clips(tuple(slots), bleed)[k]
            clip = (x0 * MM, y0 * MM, (x1 - x0) * MM, (y1 - y0) * MM)
        painter.place(sc, (s.x - sc.bleed) * MM, (s.y - sc.bleed) * MM, s.rotate, clip)


def deck_pdf(title: str, fronts: list[tuple[str, Scene]], back: Scene | list[Scene], opts: PrintOptions,
             groups: Sequence[tuple[str, int]] | None = None, guests: Sequence[tuple[str, int]] = (),
             riders: Riders | None = None) -> DeckPdf:
    """A deck as PDF bytes. ``fronts`` has one entry per physical card (design id, scene); equal scenes share
    one form. ``back`` is the deck's one back, or a list with each card's own back (sheets with a story on the
    back, the Black and White sets of Wizards Cup, a deck sharing its last sheet). ``groups`` splits the deck's
    cards into runs of (label, number of cards) that each start on a new sheet, so that no sheet mixes two backs
    (its label is printed on the sheet). ``guests`` are the cards of other decks at the end of ``fronts``, as
    (label, number of cards): they follow the deck on its sheets (the caller checks with :func:`sheet_count` that
    they fit the last one). ``riders`` go on the empty rows of the last sheet (the caller checks with
    :func:`rider_room` that there are some, and that they fit: ValueError otherwise), their backs behind them."""
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
    runs = _make_runs(len(fronts) - sum(k for _, k in guests), groups, guests)
    plans = _plan(runs, card, opts, [sc for _, sc in fronts], backs)
    per = 0
    if opts.imposition == "gutterfold":
        fl = gutterfold(paper, card, bleed)
        per = fl.fronts.count
        npages = len(plans)
        for pno, plan in enumerate(plans):
            start, end, group = plan.start, plan.end, plan.label
            chunk = fronts[start:end]
            fslots = list(fl.fronts.slots[:len(chunk)])
            bslots = list(fl.backs[:len(chunk)])
            _place_all(c, painter, [sc for _, sc in chunk], fslots, bleed, False)
            _place_all(c, painter, backs[start:end], bslots, bleed, False)
            c.saveState()
            c.setStrokeColor(HexColor("#888888"))
            c.setLineWidth(0.5)
            c.setDash([4, 3])
            fold = _fold_line(fl.fold, paper)
            c.line(*(v * MM for v in fold))
            c.restoreState()
            drawn = _marks(c, fslots + bslots, bleed, paper) if opts.marks else []
            _boxes(c, fslots + bslots, bleed)
            _sheet_label(c, f"{title} - page {pno + 1} of {npages}{_group(group)} - fold on the dashed line, glue, "
                         "then cut", fslots + bslots, bleed, paper, [*drawn, fold], back=False)
            placed.append(PlacedPage("fold", tuple((s, cid, "front") for (cid, _), s in zip(chunk, fslots)) +
                                     tuple((s, "back", "back") for s in bslots)))
            c.showPage()
    else:
        grids: dict[bool, Grid] = {False: page_grid(paper, card, bleed), True: butted_grid(paper, card, bleed)}
        nsheets = len(plans)
        for sheet, plan in enumerate(plans):
            start, end, group = plan.start, plan.end, plan.label
            grid = grids[plan.butted]
            per = max(per, grid.count)
            chunk = fronts[start:end]
            fslots = list(grid.slots[:len(chunk)])
            _place_all(c, painter, [sc for _, sc in chunk], fslots, bleed, plan.butted)
            drawn = _marks(c, fslots, bleed, paper) if opts.marks else []
            rslots: list[Slot] = []
            if riders is not None and sheet == nsheets - 1:
                rslots = _ride(c, painter, riders, grid, len(chunk), opts)
                group = ", ".join(g for g in (group, riders.label) if g)
            _boxes(c, fslots, bleed)
            _sheet_label(c, f"{title} - sheet {sheet + 1} of {nsheets}{_group(group)} - fronts", fslots + rslots,
                         bleed, paper, drawn, back=False)
            placed.append(PlacedPage("fronts", tuple((s, cid, "front") for (cid, _), s in zip(chunk, fslots)),
                                     plan.butted))
            c.showPage()
            if opts.duplex == "off":
                continue
            bslots = [mirror_slot(s, paper, opts.duplex, opts.back_offset) for s in fslots]
            _place_all(c, painter, backs[start:end], bslots, bleed, plan.butted)
            drawn = _marks(c, bslots, bleed, paper) if opts.marks else []
            rbacks = [mirror_slot(s, paper, opts.duplex, opts.back_offset) for s in rslots]
            if riders is not None:
                for (_, rb), s in zip(riders.faces, rbacks):
                    if rb is not None:
                        painter.place(rb, (s.x - rb.bleed) * MM, (s.y - rb.bleed) * MM, s.rotate)
            _boxes(c, bslots, bleed)
            _sheet_label(c, f"{title} - sheet {sheet + 1} of {nsheets}{_group(group)} - backs ({opts.duplex}-edge "
                         "duplex)", bslots + rbacks, bleed, paper, drawn, back=True)
            placed.append(PlacedPage("backs", tuple((s, cid, "back") for (cid, _), s in zip(chunk, bslots)),
                                     plan.butted))
            c.showPage()
    c.save()
    return DeckPdf(buf.getvalue(), len(placed), per, placed, len(plans), sum(p.butted for p in plans))
