"""PDF back end (reportlab): draws scenes as form XObjects, each distinct face and icon once."""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from . import shortcuts
from .icons import CURRENT, Icon, load_icon
from .pdfops import Operators, colour, plain_items
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import icon_box
from .units import MM


def new_canvas(target: Any, pagesize: tuple[float, float], title: str, author: str = "wizprint") -> Canvas:
    """A canvas that writes reproducible bytes (fixed ids and dates; SOURCE_DATE_EPOCH honoured)."""
    from .fonts import family

    # start every page and form in an embedded font: reportlab's default (Helvetica) would be referenced unembedded
    c = Canvas(target, pagesize=pagesize, invariant=1, pageCompression=1, pdfVersion=(1, 6),
               initialFontName=family("text").face(), initialFontSize=9)
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator("wizprint")
    c.setProducer("wizprint (reportlab)")
    c.setSubject(title)
    return c


_PAINT_OPS = {(0, 0): "n", (1, 0): "S", (0, 1): "f", (1, 1): "B"}  # (stroke, fill): PDF's painting operator


@cache
def _uses_current(icon: Icon) -> bool:
    return any(s.fill == CURRENT or s.stroke == CURRENT for s in icon.shapes)


@cache
def _icon_operators(icon: Icon, col: str) -> str:
    """The content of an icon's form in ``col`` (for its currentColor parts): worked out once per process and
    placed in every PDF that uses the icon. The operators are those reportlab's path and colour calls write."""
    size = icon.size
    ops: list[str] = []
    for sh in icon.shapes:
        fill = col if sh.fill == CURRENT else sh.fill
        stroke = col if sh.stroke == CURRENT else sh.stroke
        if fill:
            c = colour(fill)
            ops.append(f"{fp_str(c.red, c.green, c.blue)} rg")
        if stroke:
            c = colour(stroke)
            ops.append(f"{fp_str(c.red, c.green, c.blue)} RG")
            ops.append(f"{fp_str(sh.stroke_width)} w")
            ops.append("1 j")
            ops.append("1 J")
        path = ["n"]
        for seg in sh.segs:
            if seg.op == "Z":
                path.append("h")
            else:
                coords = [v for x, y in seg.pts for v in (x, size - y)]
                path.append(f"{fp_str(coords)} {'c' if seg.op == 'C' else seg.op.lower()}")
        ops.append(" ".join(path))
        op = _PAINT_OPS[(1 if stroke else 0, 1 if fill else 0)]
        ops.append(op + "*" if sh.evenodd and fill else op)  # even-odd only where the icon asks for it
    return "\n".join(ops)


class PdfPainter:
    """Draws scenes on one canvas; forms are keyed by scene key so each design is defined once."""

    def __init__(self, canvas: Canvas):
        self.c = canvas
        self.forms: dict[str, str] = {}
        self.icon_forms: dict[tuple[str, str, str | None], str] = {}
        self.shortcuts = shortcuts.enabled()

    # -- forms ------------------------------------------------------------------------------------------------
    def form(self, scene: Scene) -> str:
        """The form name of a scene's face (bleed box), defining it on first use."""
        name = self.forms.get(scene.key)
        if name is not None:
            return name
        name = "F" + hashlib.sha1(scene.key.encode("utf-8")).hexdigest()[:12]
        # icon forms used by this scene must exist before the scene's form is opened
        self._define_icons(scene.items, scene)
        b = scene.bleed
        c = self.c
        box = (0, 0, (scene.w + 2 * b) * MM, (scene.h + 2 * b) * MM)
        if self.shortcuts and plain_items(scene.items):
            drawn = Operators(c, self._icon_form).scene(scene)
            c.beginForm(name, *box)
            drawn.write(c)
            c.endForm()
        else:
            c.beginForm(name, *box)
            self.draw_scene(scene)
            c.endForm()
        self.forms[scene.key] = name
        return name

    def _define_icons(self, items: list[Item] | tuple[Item, ...], scene: Scene) -> None:
        for it in items:
            if isinstance(it, IconPlace):
                self._icon_form(it.name, it.color, it.game)
            elif isinstance(it, Text):
                for r in it.layout.runs:
                    if r.icon:
                        self._icon_form(r.icon, it.color, it.game)
            elif isinstance(it, Group):
                self._define_icons(it.children, scene)

    def _icon_form(self, name: str, col: str, game: str | None) -> str:
        icon = load_icon(name, game)
        key = (name, col if _uses_current(icon) else "", game)
        fname = self.icon_forms.get(key)
        if fname is None:
            fname = "I" + hashlib.sha1(repr(key).encode()).hexdigest()[:12]
            c = self.c
            c.beginForm(fname, 0, 0, icon.size, icon.size)
            c.addLiteral(_icon_operators(icon, key[1] or col))
            c.endForm()
            self.icon_forms[key] = fname
        return fname

    # -- drawing ----------------------------------------------------------------------------------------------
    def draw_scene(self, scene: Scene) -> None:
        """Draw a scene with its bleed box's lower-left corner at the current origin."""
        b = scene.bleed
        c = self.c
        c.saveState()
        if scene.background:
            c.setFillColor(colour(scene.background))
            c.rect(0, 0, (scene.w + 2 * b) * MM, (scene.h + 2 * b) * MM, stroke=0, fill=1)
        # trim-box coordinates: x right, y down, in mm, origin at the trim's top-left
        self._ox, self._oy = b * MM, (scene.h + b) * MM
        c.translate(self._ox, self._oy)
        for it in scene.items:
            self._item(it)
        c.restoreState()

    def draw_items(self, items: list[Item], height_mm: float) -> None:
        """Draw items whose coordinates are y-down mm from the top of a box of ``height_mm`` at the origin."""
        c = self.c
        self._define_icons(items, Scene(0, height_mm))
        c.saveState()
        c.translate(0, height_mm * MM)
        for it in items:
            self._item(it)
        c.restoreState()

    def _paint(self, p: Paint) -> tuple[int, int]:
        c = self.c
        if p.fill:
            c.setFillColor(colour(p.fill))
        if p.stroke and p.stroke_width > 0:
            c.setStrokeColor(colour(p.stroke))
            c.setLineWidth(p.stroke_width * MM)
            if p.dash:
                c.setDash([d * MM for d in p.dash])
        if p.opacity < 1:
            c.setFillAlpha(p.opacity)
            c.setStrokeAlpha(p.opacity)
        return (1 if p.fill else 0), (1 if p.stroke and p.stroke_width > 0 else 0)

    def _item(self, it: Item) -> None:
        c = self.c
        if isinstance(it, (Rect, Ellipse, Poly)):
            # A shape sets the colours and line width it paints with, so it needs no saved state of its own;
            # a dash or an opacity would outlast it, so those are drawn inside a saved state.
            scoped = bool(it.paint.dash) or it.paint.opacity < 1
            if scoped:
                c.saveState()
            fill, stroke = self._paint(it.paint)
            if isinstance(it, Rect):
                if fill or stroke:
                    if it.radius > 0:
                        c.roundRect(it.x * MM, -(it.y + it.h) * MM, it.w * MM, it.h * MM, it.radius * MM,
                                    stroke=stroke, fill=fill)
                    else:
                        c.rect(it.x * MM, -(it.y + it.h) * MM, it.w * MM, it.h * MM, stroke=stroke, fill=fill)
            elif isinstance(it, Ellipse):
                c.ellipse((it.cx - it.rx) * MM, -(it.cy + it.ry) * MM, (it.cx + it.rx) * MM, -(it.cy - it.ry) * MM,
                          stroke=stroke, fill=fill)
            else:
                p = c.beginPath()
                for i, (x, y) in enumerate(it.points):
                    (p.moveTo if i == 0 else p.lineTo)(x * MM, -y * MM)
                if it.closed:
                    p.close()
                c.drawPath(p, fill=fill if it.closed else 0, stroke=stroke)
            if scoped:
                c.restoreState()
        elif isinstance(it, Text):
            c.setFillColor(colour(it.color))
            t: Any = None  # one text object for the runs between inline icons
            font: tuple[str, float] | None = None
            for r in it.layout.runs:
                if r.icon:
                    if t is not None:
                        c.drawText(t)
                        t = None
                    ix, iy, isz = icon_box(r)
                    self._place_icon(r.icon, it.x + ix, it.y + iy, isz, it.color, it.game)  # keeps the colour
                    continue
                if t is None:
                    t, font = c.beginText(), None
                if font != (r.face, r.size):
                    font = (r.face, r.size)
                    t.setFont(r.face, r.size)
                t.setTextOrigin((it.x + r.x) * MM, -(it.y + r.baseline) * MM)
                t.textLine(r.text)
            if t is not None:
                c.drawText(t)
        elif isinstance(it, IconPlace):
            self._place_icon(it.name, it.x, it.y, it.size, it.color, it.game)
        elif isinstance(it, Group):
            c.saveState()
            if it.tx or it.ty:
                c.translate(it.tx * MM, -it.ty * MM)
            if it.rotate or it.scale != 1:
                c.translate(it.cx * MM, -it.cy * MM)
                if it.rotate:
                    c.rotate(-it.rotate)
                if it.scale != 1:
                    c.scale(it.scale, it.scale)
                c.translate(-it.cx * MM, it.cy * MM)
            for ch in it.children:
                self._item(ch)
            c.restoreState()

    def _place_icon(self, name: str, x: float, y: float, size: float, col: str, game: str | None) -> None:
        fname = self._icon_form(name, col, game)
        icon = load_icon(name, game)
        c = self.c
        c.saveState()
        c.translate(x * MM, -(y + size) * MM)
        k = size * MM / icon.size
        c.scale(k, k)
        c.doForm(fname)
        c.restoreState()

    def place(self, scene: Scene, x_pt: float, y_pt: float, rotate: float = 0.0,
              clip: tuple[float, float, float, float] | None = None) -> None:
        """Place a scene's form with its bleed box's lower-left corner at (x, y), rotated about its centre
        (degrees clockwise); with ``clip`` (x, y, width, height in points), inside that box only."""
        name = self.form(scene)
        c = self.c
        wb, hb = (scene.w + 2 * scene.bleed) * MM, (scene.h + 2 * scene.bleed) * MM
        if clip is not None:
            c.saveState()
            p = c.beginPath()
            p.rect(*clip)
            c.clipPath(p, stroke=0, fill=0)
            self.place(scene, x_pt, y_pt, rotate)
            c.restoreState()
            return
        c.saveState()
        if rotate % 360:
            # (x, y) is the lower-left of the rotated footprint on the page
            fw, fh = (hb, wb) if rotate % 180 else (wb, hb)
            c.translate(x_pt + fw / 2, y_pt + fh / 2)
            c.rotate(-rotate)
            c.translate(-wb / 2, -hb / 2)
        else:
            c.translate(x_pt, y_pt)
        c.doForm(name)
        c.restoreState()
