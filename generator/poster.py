"""A large scene (a board) as a poster: tiled onto A4 or Letter pages at full size, with an overlap that carries
a glue margin, cut guides, page labels, and a first page with the assembly map.

Each tile shows the board window [x, x + step + overlap] x [y, y + step + overlap]: cut the tile along its cut
guide (the left and top edges of its window, except on the first column and row), lay it over the glue margin
of its neighbours (the overlap strips on their right and bottom), and glue. The picture runs :data:`BLEED` mm past
each cut guide, so a cut a little outside the guide leaves no white seam: what it keeps lies on the neighbour's
glue margin, which shows the same part of the board.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

from reportlab.lib.colors import HexColor

from .fonts import family
from .impose import PAPERS
from .pdf import PdfPainter, new_canvas
from .scene import Scene
from .units import MM

MARGIN = 9.0  # mm of paper around the printed window (printers cannot print to the edge)
OVERLAP = 12.0  # mm shared by neighbouring tiles: the glue margin
BLEED = 3.0  # mm of the picture past each cut guide (less than MARGIN: it stays on the paper)


@dataclass(frozen=True)
class Tile:
    row: int
    col: int
    x: float  # the board window, mm from the board's top-left
    y: float
    w: float
    h: float

    @property
    def label(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"


def tiles(board_w: float, board_h: float, paper: tuple[float, float], overlap: float = OVERLAP) -> list[Tile]:
    """Tiles covering the board, each at most the printable window of a portrait page."""
    win_w, win_h = paper[0] - 2 * MARGIN, paper[1] - 2 * MARGIN - 8.0  # 8 mm for the label line
    step_w, step_h = win_w - overlap, win_h - overlap
    cols = max(1, math.ceil((board_w - overlap) / step_w))
    rows = max(1, math.ceil((board_h - overlap) / step_h))
    out = []
    for r in range(rows):
        for c in range(cols):
            x, y = c * step_w, r * step_h
            out.append(Tile(r, c, x, y, min(win_w, board_w - x), min(win_h, board_h - y)))
    return out


def poster_pdf(scene: Scene, paper_name: str, title: str, overlap: float = OVERLAP) -> tuple[bytes, list[Tile]]:
    paper = PAPERS[paper_name]
    pw, ph = paper
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * MM, ph * MM), title)
    painter = PdfPainter(c)
    ts = tiles(scene.w, scene.h, paper, overlap)
    face = family("text")
    bold, regular = face.face(bold=True), face.face()
    rows = 1 + max(t.row for t in ts)
    cols = 1 + max(t.col for t in ts)
    # page 1: the assembly map
    c.setFont(bold, 16)
    c.drawCentredString(pw / 2 * MM, (ph - 20) * MM, f"{title}: poster assembly")
    c.setFont(regular, 9)
    lines = [f"{len(ts)} tiles in {rows} rows (A, B, ...) and {cols} columns (1, 2, ...), printed at 100 %.",
             "Cut each tile along its dashed cut guides (left and top edges; none on the first column or row).",
             f"Lay it over its left and upper neighbours' shaded glue margins ({overlap:g} mm) so the pictures meet,",
             "and glue. Start at A1 and work right, then down."]
    for i, ln in enumerate(lines):
        c.drawCentredString(pw / 2 * MM, (ph - 30 - 5 * i) * MM, ln)
    k = min((pw - 40) / scene.w, (ph - 90) / scene.h)
    mx, my = (pw - scene.w * k) / 2, 20.0
    c.saveState()
    c.translate(mx * MM, my * MM)
    c.scale(k, k)
    painter.place(scene, 0, 0)
    c.restoreState()
    c.setStrokeColor(HexColor("#ff2d55"))
    c.setFillColor(HexColor("#ff2d55"))
    c.setLineWidth(0.8)
    c.setFont(bold, 11)
    for t in ts:
        x0, y0 = mx + t.x * k, my + (scene.h - t.y - t.h) * k
        c.rect(x0 * MM, y0 * MM, t.w * k * MM, t.h * k * MM, stroke=1, fill=0)
        c.drawCentredString((x0 + t.w * k / 2) * MM, (y0 + t.h * k / 2 - 2) * MM, t.label)
    c.showPage()
    # the tiles
    grey = HexColor("#808080")
    for t in ts:
        # the window's top-left on the page
        left, top = MARGIN, ph - MARGIN
        # the picture: the window, and its bleed past the cut guides (left and top; none on the first column or row)
        bl, bt = (BLEED if t.col > 0 else 0.0), (BLEED if t.row > 0 else 0.0)
        c.saveState()
        p = c.beginPath()
        p.rect((left - bl) * MM, (top - t.h) * MM, (t.w + bl) * MM, (t.h + bt) * MM)
        c.clipPath(p, stroke=0, fill=0)
        # place the board so that (t.x, t.y) of the board is at (left, top)
        painter.place(scene, (left - t.x) * MM, (top - (scene.h - t.y)) * MM)
        c.restoreState()
        # glue margins: the strips of this window that the next tiles cover
        c.saveState()
        c.setFillColor(HexColor("#ffffff"))
        c.setFillAlpha(0.35)
        if t.col < cols - 1:
            c.rect((left + t.w - overlap) * MM, (top - t.h) * MM, overlap * MM, t.h * MM, stroke=0, fill=1)
        if t.row < rows - 1:
            c.rect(left * MM, (top - t.h) * MM, t.w * MM, overlap * MM, stroke=0, fill=1)
        c.restoreState()
        c.saveState()
        c.setStrokeColor(grey)
        c.setLineWidth(0.4)
        c.setDash([3, 2])
        if t.col > 0:  # cut guide on the left edge
            c.line(left * MM, (top - t.h - 3) * MM, left * MM, (top + 3) * MM)
        if t.row > 0:  # cut guide on the top edge
            c.line((left - 3) * MM, top * MM, (left + t.w + 3) * MM, top * MM)
        c.setDash([])
        c.setStrokeColor(HexColor("#000000"))
        c.setLineWidth(0.3)
        c.rect(left * MM, (top - t.h) * MM, t.w * MM, t.h * MM, stroke=1, fill=0)
        c.restoreState()
        c.setFont(bold, 10)
        c.setFillColor(HexColor("#000000"))
        c.drawString(MARGIN * MM, (MARGIN - 1) * MM, f"Tile {t.label}")
        c.setFont(regular, 7.5)
        c.drawRightString((pw - MARGIN) * MM, (MARGIN - 1) * MM,
                          f"{title} - row {t.row + 1} of {rows}, column {t.col + 1} of {cols} - glue margins shaded; "
                          "cut on the dashed lines")
        c.showPage()
    c.save()
    return buf.getvalue(), ts
