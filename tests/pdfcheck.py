"""Reading back what we printed: card placements, crop marks, fonts, boxes (with pikepdf), and text positions
(with pdfminer). Test helpers, independent of the code that writes the PDFs."""

from __future__ import annotations

import math
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


@dataclass(frozen=True)
class Glyph:
    """A character drawn on a page (pdfminer): its text, its size as printed (points, after every scaling), its
    box (points, y up), its fill colour (as pdfminer reads it: grey, RGB or CMYK components), and the matrix it is
    drawn with (text matrix and page transformation: its origin, direction and scale)."""

    text: str
    size: float
    x0: float
    y0: float
    x1: float
    y1: float
    colour: tuple[float, ...]
    matrix: Matrix = IDENTITY

    @property
    def scale(self) -> float:
        """How much the page's transformation scales the glyph (below 1: a picture drawn reduced)."""
        a, b, c, d, _, _ = self.matrix
        return math.sqrt(abs(a * d - b * c))

    def line_key(self) -> tuple[float, float, float]:
        """The glyph's writing direction and its baseline's distance from the page's origin, across it: glyphs
        on one line share it."""
        a, b, _, _, e, f = self.matrix
        n = math.hypot(a, b) or 1.0
        ux, uy = a / n, b / n
        return (round(ux, 3), round(uy, 3), ux * f - uy * e)


def glyphs(path: Path) -> list[list[Glyph]]:
    """Every character of every page of ``path``, in the order drawn. Its size is the font size times the scale
    of the text's matrix (a card turned a quarter, a board drawn small on an assembly page)."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LTChar, LTContainer
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage

    sizes: list[tuple[float, Matrix]] = []

    class Sizes(PDFPageAggregator):
        def render_char(self, matrix, font, fontsize, scaling, rise, cid, ncs, graphicstate):  # type: ignore[no-untyped-def]
            a, b, c, d, _, _ = matrix
            sizes.append((fontsize * math.sqrt(abs(a * d - b * c)), tuple(float(v) for v in matrix)))
            return super().render_char(matrix, font, fontsize, scaling, rise, cid, ncs, graphicstate)

    def visit(obj: object, found: list[LTChar]) -> None:
        if isinstance(obj, LTChar):
            found.append(obj)
        elif isinstance(obj, LTContainer):
            for child in obj:
                visit(child, found)

    manager = PDFResourceManager()
    device = Sizes(manager, laparams=None)
    interpreter = PDFPageInterpreter(manager, device)
    pages: list[list[Glyph]] = []
    with open(path, "rb") as f:
        for page in PDFPage.get_pages(f):
            sizes.clear()
            interpreter.process_page(page)
            chars: list[LTChar] = []
            visit(device.get_result(), chars)
            assert len(chars) == len(sizes)
            out = []
            for ch, (size, m) in zip(chars, sizes, strict=True):
                col = ch.graphicstate.ncolor
                colour = tuple(float(v) for v in col) if isinstance(col, (list, tuple)) else (
                    (float(col),) if col is not None else ())
                out.append(Glyph(ch.get_text(), size, ch.x0, ch.y0, ch.x1, ch.y1, colour, m))
            pages.append(out)
    return pages


def text_lines(path: Path) -> list[list[str]]:
    """The text of each page of ``path`` line by line: the characters whose boxes share a foot (to 0.6 pt), left to
    right, so that the first lines of the cells of a table's row make one line, the cells apart by ' | '."""
    out = []
    for page in glyphs(path):
        rows: dict[float, list[Glyph]] = {}
        for g in page:
            key = next((k for k in rows if abs(k - g.y0) <= 0.6), g.y0)
            rows.setdefault(key, []).append(g)
        lines = []
        for _, row in sorted(rows.items(), key=lambda kv: -kv[0]):
            row.sort(key=lambda g: g.x0)
            text = ""
            for prev, g in zip([None, *row], row):
                if prev is not None and g.x0 - prev.x1 > 2.5 * MM:
                    text += " | "
                elif prev is not None and g.x0 - prev.x1 > 0.15 * g.size and not text.endswith(" ") \
                        and g.text != " ":
                    text += " "
                text += g.text
            lines.append(" ".join(text.split()))
        out.append(lines)
    return out


def printed_lines(page: list[Glyph]) -> list[list[Glyph]]:
    """The glyphs of a page in lines: runs of glyphs drawn one after the other on one baseline (a text's line,
    whatever its direction)."""
    lines: list[list[Glyph]] = []
    for g in page:
        if lines:
            k0, k1 = lines[-1][-1].line_key(), g.line_key()
            if k0[:2] == k1[:2] and abs(k0[2] - k1[2]) < 0.5:
                lines[-1].append(g)
                continue
        lines.append([g])
    return lines
