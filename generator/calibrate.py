"""A duplex calibration sheet: printed on both sides, it shows the shift of the backs to enter as
``--back-offset X,Y``.

Front: crosshairs at the centre and near the corners. Back: at the matching places, rulers whose marks are
numbered in millimetres. Hold the printed sheet to a light, back side towards you: where each front line shows
through, read the number on the ruler. Enter the horizontal reading as X and the vertical as Y.
"""

from __future__ import annotations

import io
from typing import Any

from reportlab.lib.colors import HexColor

from .fonts import family
from .impose import PAPERS, flip_point
from .pdf import new_canvas
from .units import MM

RULER = 6.0  # mm each side of zero
TICK = 0.5  # mm between ticks


def _cross(c: object, x: float, y: float, arm: float = 14.0) -> None:
    c.line((x - arm) * MM, y * MM, (x + arm) * MM, y * MM)  # type: ignore[attr-defined]
    c.line(x * MM, (y - arm) * MM, x * MM, (y + arm) * MM)  # type: ignore[attr-defined]


def calibration_pdf(paper_name: str, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> bytes:
    pw, ph = PAPERS[paper_name]
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * MM, ph * MM), f"wizprint duplex calibration ({paper_name}, {duplex}-edge)")
    draw_calibration(c, paper_name, duplex, offset)
    c.save()
    return buf.getvalue()


def draw_calibration(c: Any, paper_name: str, duplex: str, offset: tuple[float, float] = (0.0, 0.0)) -> None:
    """The calibration sheet's two pages (front, then back), drawn on the canvas ``c`` of ``paper_name`` pages
    (also the last sheet of the print guide)."""
    pw, ph = PAPERS[paper_name]
    text = family("text")
    bold = text.face(bold=True)
    regular = text.face()
    points = [(pw / 2, ph / 2), (40, 40), (pw - 40, 40), (40, ph - 40), (pw - 40, ph - 40)]
    # front
    c.setFont(bold, 16)
    c.drawCentredString(pw / 2 * MM, (ph / 2 + 60) * MM, "Duplex calibration - FRONT")
    c.setFont(regular, 9)
    lines = [
        f"Print both pages of this file on one sheet, {duplex}-edge duplex, at 100 % (no 'fit to page').",
        "Hold the sheet to a light with the back towards you. Each black line of this side shows through",
        "next to a red ruler. Read the ruler where the line crosses it: the horizontal ruler gives X,",
        "the vertical ruler gives Y. Then build with --back-offset X,Y (millimetres). 0,0 means aligned.",
    ]
    for i, ln in enumerate(lines):
        c.drawCentredString(pw / 2 * MM, (ph / 2 + 45 - 5 * i) * MM, ln)
    c.setLineWidth(0.4)
    for x, y in points:
        _cross(c, x, y)
    c.showPage()
    # back
    red = HexColor("#c0152f")
    c.setFont(bold, 16)
    c.drawCentredString(pw / 2 * MM, 20 * MM, "Duplex calibration - BACK")
    if offset != (0.0, 0.0):
        c.setFont(regular, 9)
        c.drawCentredString(pw / 2 * MM, 14 * MM, f"printed with --back-offset {offset[0]:g},{offset[1]:g}: "
                                                  "the readings should now be 0")
    c.setStrokeColor(red)
    c.setFillColor(red)
    for p in points:
        bx, by = flip_point(p, (pw, ph), duplex)
        bx, by = bx + offset[0], by + offset[1]
        # horizontal ruler, crossed by the front's vertical line: reading = X
        # a line that shows through at +d from zero means the backs landed d too far left: shift them by +d
        n = int(RULER / TICK)
        c.setLineWidth(0.2)
        c.line((bx - RULER) * MM, (by - 6) * MM, (bx + RULER) * MM, (by - 6) * MM)
        c.line((bx - 6) * MM, (by - RULER) * MM, (bx - 6) * MM, (by + RULER) * MM)
        c.setFont(regular, 6)
        for k in range(-n, n + 1):
            v = k * TICK
            long_tick = k % 2 == 0
            tl = 2.2 if long_tick else 1.2
            # X ruler: below the centre, ticks at bx + v
            c.line((bx + v) * MM, (by - 6) * MM, (bx + v) * MM, (by - 6 - tl) * MM)
            if k % 6 == 0:  # a number every 3 mm
                c.drawCentredString((bx + v) * MM, (by - 11) * MM, f"{v:g}")
            # Y ruler: left of the centre, ticks at by + v
            c.line((bx - 6) * MM, (by + v) * MM, (bx - 6 - tl) * MM, (by + v) * MM)
            if k % 6 == 0:
                c.drawRightString((bx - 9) * MM, (by + v - 0.7) * MM, f"{v:g}")
        c.drawString((bx + RULER + 1) * MM, (by - 7) * MM, "X")
        c.drawString((bx - 7) * MM, (by + RULER + 1) * MM, "Y")
    c.showPage()
