"""Imposition: where cards go on a sheet of paper, front and back.

Page coordinates are millimetres from the page's lower-left corner (as in PDF). A :class:`Slot` is a card's
*trim* box on the page; its bleed surrounds it. Pages are always portrait; cards are turned a quarter when that
fits more of them.

Two imposition styles:

- *spaced*: every card has its own bleed all round, so neighbours sit ``2 * bleed`` apart (8 poker cards on A4
  with 3 mm bleed, 6 on Letter);
- *butted*: the cards of a sheet touch, sharing their cut lines, and the bleed runs only round the outside of the
  block (9 poker cards on A4 and on Letter). Each card is clipped to its own cell: the trim on a side shared with
  another card, trim plus bleed on an outer side. It suits sheets whose cards all have the same colour at the
  edge, where a cut a little off the line shows the neighbour's edge, which is the card's own colour.

Duplex: printed on both sides and flipped on the long edge, a point (x, y) of the front lies behind
(W - x, y) of the back; flipped on the short edge, behind (x, H - y). Backs are placed at those mirror
positions, shifted by the printer correction ``offset``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PRINT_EDGE = 5.0  # mm along every paper edge where nothing is drawn but a butted block's outer bleed: most home
# printers leave about 4.2 mm blank there, so a mark or a label in it would be lost
DRAW_EDGE = PRINT_EDGE + 0.25  # mm: where marks and labels stop, their lines' width inside PRINT_EDGE
MARK_GAP = 1.0  # mm between the bleed edge and a crop mark
MARK_LEN = 4.0  # mm
MARK_MIN = 2.0  # mm, the shortest crop mark drawn; a cut line with no room for one gets a tick in its bleed instead
TICK_INSET = 0.3  # mm from the cut line at the block's side to a tick's inner end (the tick stays on the waste)
TICK_MIN = 1.5  # mm, the shortest tick drawn
MIN_MARGIN = 8.0  # mm from the paper edge to the outermost bleed, leaving room for the marks
FOLD_MARGIN = 6.0  # mm from the paper edge to the outermost bleed in gutterfold (marks only on three sides)
# A butted block may come closer to the paper's edge than a spaced one: its trim as near as its bleed, MARK_GAP,
# BUTT_MARK_MIN and EDGE_CLEAR (3 rows of poker cards on Letter leave 7.7 mm top and bottom), its outer bleed then
# reaching into PRINT_EDGE. Its marks never do: a cut line with no room for one gets ticks in the outer bleed.
BUTT_MARK_MIN = 3.0  # mm
EDGE_CLEAR = 0.5  # mm


@dataclass(frozen=True)
class Slot:
    x: float  # trim box lower-left on the page
    y: float
    w: float  # trim size as placed on the page
    h: float
    rotate: int = 0  # degrees clockwise the card is turned on the page (0, 90, 180, 270)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)


@dataclass(frozen=True)
class Grid:
    """A regular grid of cards on one side of a sheet (or one half, for gutterfold)."""

    cols: int
    rows: int
    slots: tuple[Slot, ...]
    rotated: bool
    bleed: float
    butted: bool = False  # the cards touch (shared cut lines), bleed only round the block

    @property
    def count(self) -> int:
        return len(self.slots)


def fit(area_w: float, area_h: float, card_w: float, card_h: float, bleed: float) -> tuple[int, int, bool]:
    """How many cards fit in an area, trying both turns: (cols, rows, rotated)."""
    best = (0, 0, False)
    for rotated in (False, True):
        cw, ch = (card_h, card_w) if rotated else (card_w, card_h)
        cols = math.floor((area_w + 1e-9) / (cw + 2 * bleed))
        rows = math.floor((area_h + 1e-9) / (ch + 2 * bleed))
        if cols * rows > best[0] * best[1]:
            best = (cols, rows, rotated)
    return best


def grid_in(x0: float, y0: float, area_w: float, area_h: float, card_w: float, card_h: float, bleed: float,
            *, centre: bool = True, rotated: bool | None = None) -> Grid:
    """The largest grid that fits an area (lower-left x0, y0), centred in it."""
    if rotated is None:
        cols, rows, rot = fit(area_w, area_h, card_w, card_h, bleed)
    else:
        rot = rotated
        cw, ch = (card_h, card_w) if rot else (card_w, card_h)
        cols = math.floor((area_w + 1e-9) / (cw + 2 * bleed))
        rows = math.floor((area_h + 1e-9) / (ch + 2 * bleed))
    cw, ch = (card_h, card_w) if rot else (card_w, card_h)
    pitch_x, pitch_y = cw + 2 * bleed, ch + 2 * bleed
    gw, gh = cols * pitch_x, rows * pitch_y
    left = x0 + ((area_w - gw) / 2 if centre else 0.0)
    bottom = y0 + ((area_h - gh) / 2 if centre else 0.0)
    slots = []
    for r in range(rows):  # top row first, left to right: reading order
        for col in range(cols):
            x = left + col * pitch_x + bleed
            y = bottom + (rows - 1 - r) * pitch_y + bleed
            slots.append(Slot(x, y, cw, ch, 90 if rot else 0))
    return Grid(cols, rows, tuple(slots), rot, bleed)


def page_grid(paper: tuple[float, float], card: tuple[float, float], bleed: float, margin: float = MIN_MARGIN
              ) -> Grid:
    pw, ph = paper
    return grid_in(margin, margin, pw - 2 * margin, ph - 2 * margin, card[0], card[1], bleed)


def butted_room(bleed: float) -> float:
    """What a butted block needs between its trim and the paper's edge on every side: the outer bleed, the gap
    and the shortest crop mark, and the clearance to the edge."""
    return bleed + MARK_GAP + BUTT_MARK_MIN + EDGE_CLEAR


def butted_grid(paper: tuple[float, float], card: tuple[float, float], bleed: float) -> Grid:
    """The largest block of touching cards (upright or turned a quarter) that fits the paper with its outer bleed
    and crop marks, centred on the page; slots in reading order (top row first, left to right)."""
    pw, ph = paper
    room = butted_room(bleed)
    cols, rows, rot = fit(pw - 2 * room, ph - 2 * room, card[0], card[1], 0.0)
    cw, ch = (card[1], card[0]) if rot else card
    left, bottom = (pw - cols * cw) / 2, (ph - rows * ch) / 2
    slots = tuple(Slot(left + col * cw, bottom + (rows - 1 - r) * ch, cw, ch, 90 if rot else 0)
                  for r in range(rows) for col in range(cols))
    return Grid(cols, rows, slots, rot, bleed, butted=True)


def _touches(a: Slot, b: Slot, side: str) -> bool:
    """Whether ``b`` lies against side ``side`` (left, right, bottom, top) of ``a``, sharing part of that edge."""
    eps = 1e-6
    if side in ("left", "right"):
        edge = a.x if side == "left" else a.x + a.w
        other = b.x + b.w if side == "left" else b.x
        return abs(edge - other) < eps and min(a.y + a.h, b.y + b.h) - max(a.y, b.y) > eps
    edge = a.y if side == "bottom" else a.y + a.h
    other = b.y + b.h if side == "bottom" else b.y
    return abs(edge - other) < eps and min(a.x + a.w, b.x + b.w) - max(a.x, b.x) > eps


SEAM = 0.1  # mm a butted card paints past a shared cut line, so that no hairline of paper shows between two cards


def cell_clip(s: Slot, slots: tuple[Slot, ...] | list[Slot], bleed: float, seam: float = SEAM
              ) -> tuple[float, float, float, float]:
    """The part of the page (x0, y0, x1, y1) a butted card may paint: its trim plus ``seam`` on every side it
    shares with another card of ``slots`` (the card placed later covers the seam), its trim plus ``bleed`` on
    every outer side."""
    def out(side: str) -> float:
        return seam if any(o is not s and _touches(s, o, side) for o in slots) else bleed
    return (s.x - out("left"), s.y - out("bottom"), s.x + s.w + out("right"), s.y + s.h + out("top"))


def mirror_slot(s: Slot, paper: tuple[float, float], duplex: str, offset: tuple[float, float] = (0.0, 0.0)
                ) -> Slot:
    """Where the back of the card in front slot ``s`` goes on the back page (duplex ``long`` or ``short``)."""
    pw, ph = paper
    if duplex == "long":
        x, y = pw - s.x - s.w, s.y
        rot = (s.rotate + (180 if s.rotate % 180 else 0)) % 360
    elif duplex == "short":
        x, y = s.x, ph - s.y - s.h
        rot = (s.rotate + (0 if s.rotate % 180 else 180)) % 360
    else:
        raise ValueError(f"duplex must be long or short, not {duplex!r}")
    return Slot(x + offset[0], y + offset[1], s.w, s.h, rot)


def flip_point(p: tuple[float, float], paper: tuple[float, float], duplex: str) -> tuple[float, float]:
    """The point of the back page that lies behind point ``p`` of the front page."""
    pw, ph = paper
    if duplex == "long":
        return (pw - p[0], p[1])
    return (p[0], ph - p[1])


@dataclass(frozen=True)
class FoldLayout:
    """Gutterfold: fronts on one half, backs mirrored on the other, across a fold line."""

    fronts: Grid
    backs: tuple[Slot, ...]
    fold: tuple[tuple[float, float], tuple[float, float]]  # the fold line's two ends


def gutterfold(paper: tuple[float, float], card: tuple[float, float], bleed: float, margin: float = FOLD_MARGIN
               ) -> FoldLayout:
    """Choose the fold (across the middle, horizontal or vertical) that fits the most cards. The bleeds of a
    front and its back meet at the fold line (a card's trim is ``bleed`` from the fold, at least 1 mm)."""
    pw, ph = paper
    gap = max(bleed, 1.0)
    best: FoldLayout | None = None
    for horizontal in (True, False):
        if horizontal:  # fold line across the page: fronts in the top half
            fold_y = ph / 2
            area_h = fold_y - gap - margin
            g = grid_in(margin, fold_y + gap, pw - 2 * margin, area_h, card[0], card[1], bleed)
            # push the grid against the fold so fronts and backs meet the fold at the same distance
            g = _shift_grid(g, 0.0, (fold_y + gap) - min(s.y for s in g.slots) if g.slots else 0.0)
            backs = tuple(Slot(s.x, 2 * fold_y - s.y - s.h, s.w, s.h, (s.rotate + (0 if s.rotate % 180 else 180)) % 360)
                          for s in g.slots)
            line = ((0.0, fold_y), (pw, fold_y))
        else:  # fold line down the page: fronts in the left half
            fold_x = pw / 2
            area_w = fold_x - gap - margin
            g = grid_in(margin, margin, area_w, ph - 2 * margin, card[0], card[1], bleed)
            g = _shift_grid(g, (fold_x - gap) - max(s.x + s.w for s in g.slots) if g.slots else 0.0, 0.0)
            backs = tuple(Slot(2 * fold_x - s.x - s.w, s.y, s.w, s.h, (s.rotate + (180 if s.rotate % 180 else 0)) % 360)
                          for s in g.slots)
            line = ((fold_x, 0.0), (fold_x, ph))
        cand = FoldLayout(g, backs, line)
        if best is None or cand.fronts.count > best.fronts.count:
            best = cand
    assert best is not None
    return best


def _shift_grid(g: Grid, dx: float, dy: float) -> Grid:
    return Grid(g.cols, g.rows, tuple(Slot(s.x + dx, s.y + dy, s.w, s.h, s.rotate) for s in g.slots), g.rotated,
                g.bleed)


Line = tuple[float, float, float, float]  # x1, y1, x2, y2 in mm


def _cut_ends(slots: tuple[Slot, ...] | list[Slot], bleed: float
              ) -> list[tuple[bool, float, float, float, float, float]]:
    """Every cut line's two ends beyond the cards it bounds: (vertical, position, outer bleed edge at the low end,
    trim at the low end, trim at the high end, outer bleed edge at the high end)."""
    xs = sorted({round(v, 4) for s in slots for v in (s.x, s.x + s.w)})
    ys = sorted({round(v, 4) for s in slots for v in (s.y, s.y + s.h)})
    out = []
    for x in xs:
        col = [s for s in slots if s.x - 1e-3 <= x <= s.x + s.w + 1e-3]
        lo, hi = min(s.y for s in col), max(s.y + s.h for s in col)
        out.append((True, x, lo - bleed, lo, hi, hi + bleed))
    for y in ys:
        row = [s for s in slots if s.y - 1e-3 <= y <= s.y + s.h + 1e-3]
        lo, hi = min(s.x for s in row), max(s.x + s.w for s in row)
        out.append((False, y, lo - bleed, lo, hi, hi + bleed))
    return out


def crop_marks(slots: tuple[Slot, ...] | list[Slot], bleed: float, paper: tuple[float, float] | None = None
               ) -> list[Line]:
    """Crop mark lines (x1, y1, x2, y2) outside the cut area: each cut line is extended beyond the outer bleed of
    the cards it bounds, never over a card or its bleed. With ``paper``, a mark ends DRAW_EDGE from the paper's
    edge, where printers print; an end with room for less than MARK_MIN has no mark (see :func:`bleed_ticks`)."""
    if not slots:
        return []
    pw, ph = paper if paper is not None else (math.inf, math.inf)
    out = []
    for vertical, at, low, _, _, high in _cut_ends(slots, bleed):
        far = ph if vertical else pw
        for start, room, sign in ((low - MARK_GAP, low - MARK_GAP - DRAW_EDGE, -1.0),
                                  (high + MARK_GAP, far - DRAW_EDGE - high - MARK_GAP, 1.0)):
            if paper is not None and room < MARK_MIN - 1e-9:
                continue
            end = start + sign * min(MARK_LEN, room)
            out.append((at, start, at, end) if vertical else (start, at, end, at))
    return out


def bleed_ticks(slots: tuple[Slot, ...] | list[Slot], bleed: float, paper: tuple[float, float]) -> list[Line]:
    """Short marks for the cut lines that have no crop mark at an end (the paper's edge is too near: the column
    cuts of 3 rows of poker cards on Letter, the row cuts of 3 columns on A4): each runs from TICK_INSET outside
    the cards' outer cut line across their bleed, towards the paper's edge and at most to DRAW_EDGE from it. It is
    printed on the waste that the outer cut takes away."""
    if not slots:
        return []
    pw, ph = paper
    have = {(round(m[0], 4), round(m[1], 4)) for m in crop_marks(slots, bleed, paper)}
    out = []
    for vertical, at, low, lo, hi, high in _cut_ends(slots, bleed):
        far = ph if vertical else pw
        for start, mark_start, end, sign in ((lo - TICK_INSET, low - MARK_GAP, DRAW_EDGE, -1),
                                             (hi + TICK_INSET, high + MARK_GAP, far - DRAW_EDGE, 1)):
            key = (round(at, 4), round(mark_start, 4)) if vertical else (round(mark_start, 4), round(at, 4))
            if key in have or sign * (end - start) < TICK_MIN - 1e-9:
                continue
            out.append((at, start, at, end) if vertical else (start, at, end, at))
    return out


# -- where a page's label goes ----------------------------------------------------------------------------------
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in mm
LABEL_CLEAR = 1.0  # mm between a page's label and a mark, a tick or a card's bleed
SIDES = ("bottom", "top", "left", "right")


def free_runs(paper: tuple[float, float], boxes: list[Box], band: float) -> dict[str, list[tuple[float, float]]]:
    """For each side of the page, the stretches of the strip ``band`` mm wide that lies along that edge just inside
    DRAW_EDGE which no box (grown by LABEL_CLEAR) crosses: (from, to) along the edge, in mm from the page's left
    (bottom, top) or foot (left, right), in order."""
    pw, ph = paper
    e, c = DRAW_EDGE, LABEL_CLEAR
    strips = {"bottom": (e, e, pw - e, e + band), "top": (e, ph - e - band, pw - e, ph - e),
              "left": (e, e, e + band, ph - e), "right": (pw - e - band, e, pw - e, ph - e)}
    out: dict[str, list[tuple[float, float]]] = {}
    for side, (x0, y0, x1, y1) in strips.items():
        along = side in ("bottom", "top")
        lo, hi = (x0, x1) if along else (y0, y1)
        blocked = sorted((b[0] - c, b[2] + c) if along else (b[1] - c, b[3] + c) for b in boxes
                         if b[0] - c < x1 and b[2] + c > x0 and b[1] - c < y1 and b[3] + c > y0)
        runs, at = [], lo
        for b0, b1 in blocked:
            if b0 > at:
                runs.append((at, min(b0, hi)))
            at = max(at, b1)
        if at < hi:
            runs.append((at, hi))
        out[side] = [r for r in runs if r[1] > r[0]]
    return out
