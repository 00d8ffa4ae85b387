"""A face's PDF operators written directly (the fast path of :mod:`.pdf`), as exactly the code entries reportlab's
canvas calls would add."""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.rl_accel import escapePDF, fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfdoc import xObjectName
from reportlab.pdfgen.pathobject import PDFPathObject

from wizprint.errors import BuildError, quote

from .icons import load_icon
from .scene import Ellipse, Group, IconPlace, Item, Poly, Rect, Scene, Text
from .textlayout import icon_box
from .units import MM

_colours: dict[str, Color] = {}


_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")


def colour(c: str) -> Color:
    """A reportlab colour for '#rrggbb' or a name of :data:`_NAMED`; anything else is a :class:`BuildError` (the
    layouts are checked when loaded, so this is a last guard, never a silent magenta)."""
    col = _colours.get(c)
    if col is None:
        hexa = c if _HEX.match(c) else _NAMED.get(c)
        if hexa is None:
            raise BuildError(f"{quote(c)} is not a colour (#rrggbb or one of {', '.join(_NAMED)})")
        col = _colours[c] = HexColor(hexa)
    return col


_NAMED = {"black": "#000000", "white": "#ffffff", "red": "#ff0000", "blue": "#0000ff", "green": "#008000",
          "grey": "#808080", "gray": "#808080", "yellow": "#ffff00", "brown": "#8b5a2b", "purple": "#800080"}


# -- a face's operators, written directly -------------------------------------------------------------------------
# reportlab's canvas spends most of a face's time in its drawing calls' bookkeeping. A face whose shapes have no dash
# and no opacity (so no graphics state of reportlab's own: see _plain) is written here instead, operator by operator,
# as exactly the code entries that PdfPainter.draw_scene's calls add to the canvas (the same numbers through the same
# fp_str, the same text subsets through the font's own splitString), so the PDF is the same to the byte; the tests
# compare the two ways (tests/test_print_shortcuts.py).

_FILL_EVEN_ODD_FILL = "f*"  # reportlab's PATH_OPS for a fill with its default (even-odd) fill mode
_PATH_OPS = {(0, 0): "n", (1, 0): "S", (0, 1): "f*", (1, 1): "B*"}  # (stroke, fill), even-odd, as reportlab's


def _plain(items: list[Item] | tuple[Item, ...]) -> bool:
    """Whether items draw without a dash or an opacity (which reportlab tracks in a graphics state of its own)."""
    for it in items:
        if isinstance(it, (Rect, Ellipse, Poly)):
            if it.paint.dash or it.paint.opacity < 1:
                return False
        elif isinstance(it, Group) and not _plain(it.children):
            return False
    return True


@cache
def _fill_op(c: str) -> str:
    col = colour(c)
    return f"{fp_str((col.red, col.green, col.blue))} rg"


@cache
def _stroke_op(c: str) -> str:
    col = colour(c)
    return f"{fp_str((col.red, col.green, col.blue))} RG"


@cache
def _font(face: str) -> Any:
    return pdfmetrics.getFont(face)


@lru_cache(maxsize=4096)
def _round_rect(x: float, y: float, w: float, h: float, r: float) -> tuple[str, ...]:
    """The code entries of reportlab's roundRect path (a frame drawn on every card of a deck: worked out once)."""
    code: list[str] = []
    PDFPathObject(code=code).roundRect(x, y, w, h, r)
    return tuple(code)


@lru_cache(maxsize=4096)
def _ellipse(x: float, y: float, w: float, h: float) -> tuple[str, ...]:
    """The code entries of reportlab's ellipse path."""
    code: list[str] = []
    PDFPathObject(code=code).ellipse(x, y, w, h)
    return tuple(code)


class _Subset:
    """A TrueType font's subset codes in one document: the font's own ``splitString`` (which gives each new
    character its code), and for a text whose characters all have a code of the first subset already, the same
    result from a table of those codes."""

    def __init__(self, font: Any, doc: Any):
        self.font = font
        self.doc = doc
        self.table: dict[int, int] = {}  # character -> its code in subset 0
        self.known = 0  # how many assignments the table holds
        self.chars: set[str] = set()  # the characters of the table
        self.names: dict[int, str] = {}

    def split(self, text: str) -> list[tuple[int, bytes]]:
        if text and self.chars.issuperset(text):
            return [(0, text.translate(self.table).encode("latin-1"))]
        got: list[tuple[int, bytes]] = self.font.splitString(text, self.doc)
        assignments = self.font.state[self.doc].assignments
        if len(assignments) != self.known:
            self.known = len(assignments)
            table = self.table
            table.clear()
            table.update((code, n) for code, n in assignments.items() if n < 256 and code != 0xA0)
            if 32 in table:  # splitString shows a no-break space as a space
                table[0xA0] = table[32]
            self.chars = {chr(code) for code in table}
        return got

    def name(self, subset: int) -> str:
        got = self.names.get(subset)
        if got is None:
            got = self.names[subset] = self.font.getSubsetInternalName(subset, self.doc)
        return got


class _Operators:
    """The code entries of one face, as reportlab's canvas would write them (see above)."""

    def __init__(self, doc: Any, icon_form: Any, subsets: dict[str, _Subset],
                 drawn: dict[int, tuple[Item, tuple[str, ...], tuple[str, ...]]] | None = None):
        self.doc = doc
        self.icon_form = icon_form
        self.subsets = subsets
        self.drawn = drawn if drawn is not None else {}
        self.code: list[str] = []
        self.forms: list[str] = []

    def transform(self, a: float, b: float, c: float, d: float, e: float, f: float) -> None:
        """Canvas.transform: a matrix right after another is merged with it, as reportlab does."""
        code = self.code
        if code and code[-1][-3:] == " cm":
            parts = code[-1].split()
            if len(parts) != 7:  # pragma: no cover - reportlab fails on this too
                raise BuildError("cannot merge a transformation")
            a0, b0, c0, d0, e0, f0 = map(float, parts[-7:-1])
            m = fp_str(a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d, a0 * e + c0 * f + e0,
                       b0 * e + d0 * f + f0)
            code[-1] = f"{m} cm"
        else:
            code.append(f"{fp_str(a, b, c, d, e, f)} cm")

    def translate(self, dx: float, dy: float) -> None:
        self.transform(1, 0, 0, 1, dx, dy)

    def scene(self, scene: Scene) -> None:
        b = scene.bleed
        code = self.code
        code.append("q")
        if scene.background:
            code.append(_fill_op(scene.background))
            code.append(f"n {fp_str(0, 0, (scene.w + 2 * b) * MM, (scene.h + 2 * b) * MM)} re {_FILL_EVEN_ODD_FILL}")
        self.translate(b * MM, (scene.h + b) * MM)
        for it in scene.items:
            self.item(it)
        code.append("Q")

    def item(self, it: Item) -> None:
        """An item's code entries, worked out once per document for each item (the faces of a deck share the items
        that are the same on every card: see FaceBuilder._drawn). They are the same each time: an item starts
        with no matrix that could merge with the entry before it, and a text's characters keep the subset codes
        they were given the first time."""
        got = self.drawn.get(id(it))
        if got is None or got[0] is not it:
            outer, outer_forms = self.code, self.forms
            self.code, self.forms = [], []
            try:
                self._item(it)
                got = self.drawn[id(it)] = (it, tuple(self.code), tuple(self.forms))
            finally:
                self.code, self.forms = outer, outer_forms
        self.code.extend(got[1])
        self.forms.extend(got[2])

    def _item(self, it: Item) -> None:
        code = self.code
        if isinstance(it, (Rect, Ellipse, Poly)):
            p = it.paint
            if p.fill:
                code.append(_fill_op(p.fill))
            stroke = 1 if p.stroke and p.stroke_width > 0 else 0
            if stroke:
                assert p.stroke is not None
                code.append(_stroke_op(p.stroke))
                code.append(f"{fp_str(p.stroke_width * MM)} w")
            fill = 1 if p.fill else 0
            if isinstance(it, Rect):
                if fill or stroke:
                    if it.radius > 0:
                        code.extend(_round_rect(it.x * MM, -(it.y + it.h) * MM, it.w * MM, it.h * MM, it.radius * MM))
                        code.append(_PATH_OPS[stroke, fill])
                    else:
                        box = fp_str(it.x * MM, -(it.y + it.h) * MM, it.w * MM, it.h * MM)
                        code.append(f"n {box} re {_PATH_OPS[stroke, fill]}")
            elif isinstance(it, Ellipse):
                x1, y1 = (it.cx - it.rx) * MM, -(it.cy + it.ry) * MM
                x2, y2 = (it.cx + it.rx) * MM, -(it.cy - it.ry) * MM
                code.extend(_ellipse(x1, y1, x2 - x1, y2 - y1))
                code.append(_PATH_OPS[stroke, fill])
            else:
                path = PDFPathObject()
                for i, (x, y) in enumerate(it.points):
                    (path.moveTo if i == 0 else path.lineTo)(x * MM, -y * MM)
                if it.closed:
                    path.close()
                code.append(str(path.getCode()))
                code.append(_PATH_OPS[stroke, fill if it.closed else 0])
        elif isinstance(it, Text):
            self.text(it)
        elif isinstance(it, IconPlace):
            self.icon(it.name, it.x, it.y, it.size, it.color, it.game)
        elif isinstance(it, Group):
            code.append("q")
            if it.tx or it.ty:
                self.translate(it.tx * MM, -it.ty * MM)
            if it.rotate or it.scale != 1:
                self.translate(it.cx * MM, -it.cy * MM)
                if it.rotate:
                    theta = -it.rotate
                    c, s = math.cos(theta * math.pi / 180), math.sin(theta * math.pi / 180)
                    self.transform(c, s, -s, c, 0, 0)
                if it.scale != 1:
                    self.transform(it.scale, 0, 0, it.scale, 0, 0)
                self.translate(-it.cx * MM, it.cy * MM)
            for ch in it.children:
                self.item(ch)
            code.append("Q")

    def text(self, it: Text) -> None:
        """A text's runs: reportlab text objects (BT ... ET) between its inline icons."""
        code = self.code
        doc = self.doc
        code.append(_fill_op(it.color))
        parts: list[str] | None = None
        font: tuple[str, float] | None = None
        subset = -1
        tmpl = ""
        for r in it.layout.runs:
            if r.icon:
                if parts is not None:
                    parts.append("ET")
                    code.append(" ".join(parts))
                    parts = None
                ix, iy, isz = icon_box(r)
                self.icon(r.icon, it.x + ix, it.y + iy, isz, it.color, it.game)
                continue
            if parts is None:  # Canvas.beginText(): its origin at 0 0
                parts, font = ["BT", "1 0 0 1 0 0 Tm"], None
                subset = -1
            if font != (r.face, r.size):  # setFont of a TrueType font: no operator until text is shown
                font = (r.face, r.size)
                subset = -1
                tmpl = f"{fp_str(r.size)} Tf {fp_str(r.size * 1.2)} TL"
            parts.append(f"1 0 0 1 {fp_str((it.x + r.x) * MM, -(it.y + r.baseline) * MM)} Tm")
            sub_codes = self.subsets.get(r.face)
            if sub_codes is None:
                sub_codes = self.subsets[r.face] = _Subset(_font(r.face), doc)
            shown: list[str] = []
            for sub, t in sub_codes.split(r.text):
                if sub != subset:
                    shown.append(f"{sub_codes.name(sub)} {tmpl}")
                    subset = sub
                shown.append(f"({escapePDF(t)}) Tj")
            parts.append(" ".join(shown) + " T*")
        if parts is not None:
            parts.append("ET")
            code.append(" ".join(parts))

    def icon(self, name: str, x: float, y: float, size: float, col: str, game: str | None) -> None:
        fname = self.icon_form(name, col, game)
        icon = load_icon(name, game)
        self.code.append("q")
        self.translate(x * MM, -(y + size) * MM)
        k = size * MM / icon.size
        self.transform(k, 0, 0, k, 0, 0)
        self.code.append(f"/{xObjectName(fname)} Do")
        self.forms.append(fname)
        self.code.append("Q")
