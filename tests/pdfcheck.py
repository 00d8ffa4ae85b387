"""Reading back what we printed: card placements, crop marks, fonts, boxes (with pikepdf), and text positions
(with pdfminer). Test helpers, independent of the code that writes the PDFs."""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

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


# -- everything a page prints, and where ------------------------------------------------------------------------
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in points


@dataclass(frozen=True)
class Ink:
    """Something a page paints: what (stroke, fill, text, image, shading), the page rectangle it covers (points,
    cut down to the clipping in force), whether a form placed on the page drew it (a card's or a token's face, not
    the page's own marks and labels), and for text, its characters."""

    kind: str
    x0: float
    y0: float
    x1: float
    y1: float
    in_form: bool = False
    text: str = ""


def _tbox(m: Matrix, b: Box) -> Box:
    pts = [apply(m, x, y) for x, y in ((b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3]))]
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


def _meet(a: Box, b: Box) -> Box | None:
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x0 <= x1 and y0 <= y1 else None


_EVERYWHERE: Box = (-1e9, -1e9, 1e9, 1e9)
_PAINT = {"S": "stroke", "s": "stroke", "f": "fill", "F": "fill", "f*": "fill", "B": "fill", "B*": "fill",
          "b": "fill", "b*": "fill", "n": ""}


class _Font:
    def __init__(self, font: pikepdf.Dictionary) -> None:
        self.first = int(font.get("/FirstChar", 0))
        self.widths = [float(w) for w in font.get("/Widths", [])]
        fd = font.get("/FontDescriptor")
        self.missing = float(fd.get("/MissingWidth", 500)) if fd is not None else 500.0
        self.ascent = float(fd.get("/Ascent", 800)) / 1000 if fd is not None else 0.8
        self.descent = float(fd.get("/Descent", -200)) / 1000 if fd is not None else -0.2
        self.two_byte = str(font.get("/Subtype")) == "/Type0"

    def width(self, code: int) -> float:
        k = code - self.first
        return (self.widths[k] if 0 <= k < len(self.widths) else self.missing) / 1000


class InkReader:
    """Reads what pages paint from their content streams, forms included (each form read once per reader)."""

    def __init__(self) -> None:
        self._forms: dict[tuple[int, int], list[Ink]] = {}
        self._fonts: dict[tuple[int, int], _Font] = {}

    def page(self, page: pikepdf.Page) -> list[Ink]:
        mb = [float(v) for v in page.MediaBox]
        return self._run(page.obj, page.Resources, (mb[0], mb[1], mb[2], mb[3]), top=True)

    def _font(self, font: pikepdf.Dictionary) -> _Font:
        key = font.objgen
        f = self._fonts.get(key) if key != (0, 0) else None
        if f is None:
            f = _Font(font)
            if key != (0, 0):
                self._fonts[key] = f
        return f

    def _form(self, xo: pikepdf.Stream) -> list[Ink]:
        key = xo.objgen
        got = self._forms.get(key)
        if got is None:
            b = [float(v) for v in xo.BBox]
            got = self._run(xo, xo.get("/Resources", pikepdf.Dictionary()), (b[0], b[1], b[2], b[3]), top=False)
            self._forms[key] = got
        return got

    def _run(self, stream: pikepdf.Object, res: pikepdf.Object, clip: Box, top: bool) -> list[Ink]:
        out: list[Ink] = []
        ctm, lw = IDENTITY, 1.0
        stack: list[tuple[Matrix, Box, float, Any]] = []
        path: list[tuple[float, float]] = []
        clipping = False
        tm = tlm = IDENTITY
        font: _Font | None = None
        size = tc = tw = rise = 0.0
        tz, tl, mode = 1.0, 0.0, 0
        fonts = res.get("/Font", {})
        xobjects = res.get("/XObject", {})

        def add(kind: str, box: Box, text: str = "") -> None:
            got = _meet(box, clip)
            if got is not None:
                out.append(Ink(kind, *got, not top, text))

        def show(data: bytes | list[Any]) -> None:
            nonlocal tm
            parts = data if isinstance(data, list) else [data]
            if font is None:
                return
            x = 0.0
            chars = []
            for part in parts:
                if isinstance(part, (int, float, Decimal)):
                    x -= float(part) / 1000 * size * tz
                    continue
                raw = bytes(part)
                codes = ([raw[i] << 8 | raw[i + 1] for i in range(0, len(raw) - 1, 2)] if font.two_byte
                         else list(raw))
                for code in codes:
                    x += (font.width(code) * size + tc + (tw if code == 32 and not font.two_byte else 0.0)) * tz
                    chars.append(chr(code) if not font.two_byte else "?")
            if mode not in (3, 7):
                m = mul(tm, ctm)
                add("text", _tbox(m, (0.0, font.descent * size + rise, x, font.ascent * size + rise)), "".join(chars))
            tm = mul((1.0, 0.0, 0.0, 1.0, x, 0.0), tm)

        for operands, op in pikepdf.parse_content_stream(stream):
            o = str(op)
            if o == "q":
                stack.append((ctm, clip, lw, (font, size, tc, tw, tz, tl, rise, mode)))
            elif o == "Q":
                ctm, clip, lw, ts = stack.pop()
                font, size, tc, tw, tz, tl, rise, mode = ts
            elif o == "cm":
                ctm = mul(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
            elif o == "w":
                lw = float(operands[0])
            elif o in ("m", "l"):
                path.append(apply(ctm, float(operands[0]), float(operands[1])))
            elif o in ("c", "v", "y"):
                vals = [float(v) for v in operands]
                path.extend(apply(ctm, vals[i], vals[i + 1]) for i in range(0, len(vals), 2))
            elif o == "re":
                x, y, w, h = (float(v) for v in operands)
                path.extend(apply(ctm, px, py) for px, py in ((x, y), (x + w, y), (x, y + h), (x + w, y + h)))
            elif o in ("W", "W*"):
                clipping = True
            elif o in _PAINT:
                if path:
                    xs, ys = [p[0] for p in path], [p[1] for p in path]
                    box = (min(xs), min(ys), max(xs), max(ys))
                    if _PAINT[o]:
                        grow = 0.0
                        if o not in ("f", "F", "f*"):
                            a, b, c, d = ctm[:4]
                            grow = lw / 2 * max(math.hypot(a, b), math.hypot(c, d))
                        add(_PAINT[o], (box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow))
                    if clipping:
                        clip = _meet(clip, box) or (0.0, 0.0, -1.0, -1.0)
                path, clipping = [], False
            elif o == "BT":
                tm = tlm = IDENTITY
            elif o == "Tf":
                font, size = self._font(fonts[str(operands[0])]), float(operands[1])
            elif o == "Tc":
                tc = float(operands[0])
            elif o == "Tw":
                tw = float(operands[0])
            elif o == "Tz":
                tz = float(operands[0]) / 100
            elif o == "TL":
                tl = float(operands[0])
            elif o == "Ts":
                rise = float(operands[0])
            elif o == "Tr":
                mode = int(operands[0])
            elif o in ("Td", "TD"):
                tx, ty = float(operands[0]), float(operands[1])
                if o == "TD":
                    tl = -ty
                tm = tlm = mul((1.0, 0.0, 0.0, 1.0, tx, ty), tlm)
            elif o == "Tm":
                tm = tlm = tuple(float(v) for v in operands)  # type: ignore[assignment]
            elif o == "T*":
                tm = tlm = mul((1.0, 0.0, 0.0, 1.0, 0.0, -tl), tlm)
            elif o in ("Tj", "'", '"'):
                if o != "Tj":
                    tm = tlm = mul((1.0, 0.0, 0.0, 1.0, 0.0, -tl), tlm)
                show(bytes(operands[-1]))
            elif o == "TJ":
                show(list(operands[0]))
            elif o == "sh":
                add("shading", clip)
            elif o == "INLINE IMAGE":
                add("image", _tbox(ctm, (0.0, 0.0, 1.0, 1.0)))
            elif o == "Do":
                xo = xobjects[str(operands[0])]
                if str(xo.get("/Subtype")) == "/Image":
                    add("image", _tbox(ctm, (0.0, 0.0, 1.0, 1.0)))
                    continue
                fm = tuple(float(v) for v in xo.get("/Matrix", [1, 0, 0, 1, 0, 0]))
                m = mul(fm, ctm)  # type: ignore[arg-type]
                for ink in self._form(xo):
                    got = _meet(_tbox(m, (ink.x0, ink.y0, ink.x1, ink.y1)), clip)
                    if got is not None:
                        out.append(Ink(ink.kind, *got, True, ink.text))
        return out


# -- text: each glyph with its printed size, in lines ----------------------------------------------------------
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
