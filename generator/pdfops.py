"""Colours for the PDF back end, and a face's PDF operators in one piece (the shortcut of :mod:`.pdf`): exactly the
code entries reportlab's canvas calls would add, handed to the canvas through its public ``addLiteral`` and
``doForm``."""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache
from typing import Any

from reportlab.lib.colors import Color, HexColor
from reportlab.lib.rl_accel import fp_str
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


# -- a face's operators in one piece ------------------------------------------------------------------------------
# reportlab's canvas spends most of a face's time in its drawing calls' bookkeeping (the graphics state it tracks for
# every call). A face whose shapes have no dash and no opacity (so no graphics state of reportlab's own: see
# plain_items) is written here instead as the code entries that PdfPainter.draw_scene's calls add to the canvas: the
# same numbers through the same fp_str, paths through reportlab's own PDFPathObject, texts through reportlab's own
# text objects. The canvas gets them through addLiteral and doForm, so the PDF is the same to the byte
# (tests/test_print_shortcuts.py builds every game with this shortcut and without it).

_FILL_EVEN_ODD_FILL = "f*"  # reportlab's PATH_OPS for a fill with its default (even-odd) fill mode
_PATH_OPS = {(0, 0): "n", (1, 0): "S", (0, 1): "f*", (1, 1): "B*"}  # (stroke, fill), even-odd, as reportlab's


def plain_items(items: list[Item] | tuple[Item, ...]) -> bool:
    """Whether items draw without a dash or an opacity (which reportlab tracks in a graphics state of its own)."""
    for it in items:
        if isinstance(it, (Rect, Ellipse, Poly)):
            if it.paint.dash or it.paint.opacity < 1:
                return False
        elif isinstance(it, Group) and not plain_items(it.children):
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


class Drawn:
    """A form's operators as the canvas would hold them: code entries, and where one of them draws another form
    (the canvas's doForm)."""

    __slots__ = ("code", "forms")

    def __init__(self) -> None:
        self.code: list[str] = []
        self.forms: list[tuple[int, str]] = []  # (index of the entry in code, form name)

    def write(self, canvas: Any) -> None:
        """Add the entries to the canvas's current page or form: the runs between forms as one literal each (the
        canvas joins its entries by new lines, so the bytes are the same), each form by doForm."""
        start = 0
        for i, name in self.forms:
            if i > start:
                canvas.addLiteral("\n".join(self.code[start:i]))
            canvas.doForm(name)
            start = i + 1
        if start < len(self.code):
            canvas.addLiteral("\n".join(self.code[start:]))


class Operators:
    """The code entries of one face, as reportlab's canvas would write them (see above)."""

    def __init__(self, canvas: Any, icon_form: Any):
        self.canvas = canvas
        self.icon_form = icon_form
        self.out = Drawn()

    def transform(self, a: float, b: float, c: float, d: float, e: float, f: float) -> None:
        """Canvas.transform: a matrix right after another is merged with it, as reportlab does."""
        code = self.out.code
        if code and code[-1][-3:] == " cm":
            parts = code[-1].split()
            if len(parts) != 7:  # pragma: no cover - an entry of ours is one matrix
                raise BuildError("cannot merge a transformation")
            a0, b0, c0, d0, e0, f0 = map(float, parts[-7:-1])
            m = fp_str(a0 * a + c0 * b, b0 * a + d0 * b, a0 * c + c0 * d, b0 * c + d0 * d, a0 * e + c0 * f + e0,
                       b0 * e + d0 * f + f0)
            code[-1] = f"{m} cm"
        else:
            code.append(f"{fp_str(a, b, c, d, e, f)} cm")

    def translate(self, dx: float, dy: float) -> None:
        self.transform(1, 0, 0, 1, dx, dy)

    def scene(self, scene: Scene) -> Drawn:
        b = scene.bleed
        code = self.out.code
        code.append("q")
        if scene.background:
            code.append(_fill_op(scene.background))
            code.append(f"n {fp_str(0, 0, (scene.w + 2 * b) * MM, (scene.h + 2 * b) * MM)} re {_FILL_EVEN_ODD_FILL}")
        self.translate(b * MM, (scene.h + b) * MM)
        for it in scene.items:
            self.item(it)
        code.append("Q")
        return self.out

    def item(self, it: Item) -> None:
        code = self.out.code
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
        """A text's runs: reportlab text objects (Canvas.beginText) between its inline icons."""
        self.out.code.append(_fill_op(it.color))
        t: Any = None
        font: tuple[str, float] | None = None
        for r in it.layout.runs:
            if r.icon:
                if t is not None:
                    self.out.code.append(str(t.getCode()))
                    t = None
                ix, iy, isz = icon_box(r)
                self.icon(r.icon, it.x + ix, it.y + iy, isz, it.color, it.game)
                continue
            if t is None:
                t, font = self.canvas.beginText(), None
            if font != (r.face, r.size):
                font = (r.face, r.size)
                t.setFont(r.face, r.size)
            t.setTextOrigin((it.x + r.x) * MM, -(it.y + r.baseline) * MM)
            t.textLine(r.text)
        if t is not None:
            self.out.code.append(str(t.getCode()))

    def icon(self, name: str, x: float, y: float, size: float, col: str, game: str | None) -> None:
        fname = self.icon_form(name, col, game)
        icon = load_icon(name, game)
        out = self.out
        out.code.append("q")
        self.translate(x * MM, -(y + size) * MM)
        k = size * MM / icon.size
        self.transform(k, 0, 0, k, 0, 0)
        out.forms.append((len(out.code), fname))
        out.code.append("")  # the form's entry, which doForm adds
        out.code.append("Q")
