"""Reading back what we printed: card placements, crop marks, fonts, boxes (with pikepdf), and text positions
(with pdfminer). Test helpers, independent of the code that writes the PDFs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pikepdf

MM = 72.0 / 25.4

Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def mul(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF order: a point p goes to p*m*n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


@dataclass(frozen=True)
class Placement:
    """A form XObject drawn on a page: its name, and the page rectangle its BBox lands on (points)."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


@dataclass(frozen=True)
class Segment:
    x0: float
    y0: float
    x1: float
    y1: float


def page_content(page: pikepdf.Page) -> tuple[list[Placement], list[Segment]]:
    """Top-level form placements and stroked straight segments drawn directly on the page."""
    ctm = IDENTITY
    stack: list[Matrix] = []
    placements: list[Placement] = []
    segments: list[Segment] = []
    path: list[tuple[float, float]] = []
    pending: list[Segment] = []
    xobjects = page.Resources.get("/XObject", {})
    for operands, op in pikepdf.parse_content_stream(page):
        o = str(op)
        if o == "q":
            stack.append(ctm)
        elif o == "Q":
            ctm = stack.pop()
        elif o == "cm":
            ctm = mul(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif o == "m":
            path = [apply(ctm, float(operands[0]), float(operands[1]))]
        elif o == "l":
            p = apply(ctm, float(operands[0]), float(operands[1]))
            if path:
                pending.append(Segment(path[-1][0], path[-1][1], p[0], p[1]))
            path.append(p)
        elif o in ("S", "s"):
            segments.extend(pending)
            pending, path = [], []
        elif o in ("n", "f", "F", "f*", "B", "B*", "b", "b*"):
            pending, path = [], []
        elif o == "Do":
            name = str(operands[0])
            xo = xobjects[name]
            bx0, by0, bx1, by1 = (float(v) for v in xo.BBox)
            fm = tuple(float(v) for v in xo.get("/Matrix", [1, 0, 0, 1, 0, 0]))
            m = mul(fm, ctm)  # type: ignore[arg-type]
            pts = [apply(m, x, y) for x, y in ((bx0, by0), (bx1, by0), (bx0, by1), (bx1, by1))]
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            placements.append(Placement(name, min(xs), min(ys), max(xs), max(ys)))
    return placements, segments


def fonts_embedded(pdf: pikepdf.Pdf) -> list[str]:
    """Names of fonts used anywhere (pages and forms) that are NOT embedded."""
    missing: list[str] = []
    seen: set[tuple[int, int]] = set()

    def visit(res: pikepdf.Dictionary) -> None:
        for _, font in res.get("/Font", {}).items():
            fonts = [font]
            if "/DescendantFonts" in font:
                fonts += list(font.DescendantFonts)
            for f in fonts:
                fd = f.get("/FontDescriptor")
                if fd is None:
                    if str(f.get("/Subtype")) != "/Type0":
                        missing.append(str(f.get("/BaseFont")))
                    continue
                if not any(k in fd for k in ("/FontFile", "/FontFile2", "/FontFile3")):
                    missing.append(str(f.get("/BaseFont")))
        for _, xo in res.get("/XObject", {}).items():
            og = xo.objgen
            if og in seen:
                continue
            seen.add(og)
            if "/Resources" in xo:
                visit(xo.Resources)

    for page in pdf.pages:
        visit(page.Resources)
    return missing


def open_pdf(path: Path) -> pikepdf.Pdf:
    return pikepdf.open(path)
