"""SVG back end: draws scenes with the same geometry as the PDF back end, written by svgwrite.

Icons become ``<symbol>`` elements placed with ``<use>``; text uses the font family names of
``layouts/fonts/fonts.toml`` (install those fonts to see the exact faces). Numbers are written as fixed strings
(:func:`_n`, at most three decimals) and svgwrite writes attributes in alphabetical order, so the same scene gives
the same bytes. svgwrite's validation (each element and attribute checked against the SVG 1.1 profile) is off in
builds, where it would take three times as long, and on in the tests (``validate=True``).
"""

from __future__ import annotations

import io
from functools import cache
from typing import Any

import svgwrite

from .fonts import families
from .icons import CURRENT, load_icon
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import Run, icon_box
from .units import PT

Element = Any  # an svgwrite element (svgwrite has no type information)


def _n(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


class SvgPainter:
    """Draws scenes into one svgwrite drawing: each element is made by the drawing's factory (so it shares the
    drawing's validation setting), each icon once as a symbol in the drawing's ``<defs>``."""

    def __init__(self, dwg: Element) -> None:
        self.dwg = dwg
        self.symbols: dict[tuple[str, str | None], str] = {}
        self._faces = _faces()

    def symbol(self, name: str, game: str | None) -> str:
        key = (name, game)
        sid = self.symbols.get(key)
        if sid is None:
            icon = load_icon(name, game)
            sid = f"icon-{name}"
            sym = self.dwg.symbol(id=sid, viewBox=f"0 0 {_n(icon.size)} {_n(icon.size)}")
            for sh in icon.shapes:
                path = sym.add(self.dwg.path(d=sh.d, fill=sh.fill if sh.fill else "none"))
                if sh.stroke:
                    path["stroke"] = sh.stroke
                    path["stroke-width"] = _n(sh.stroke_width)
                    path["stroke-linejoin"] = "round"
                    path["stroke-linecap"] = "round"
                if sh.evenodd:
                    path["fill-rule"] = "evenodd"
            self.dwg.defs.add(sym)
            self.symbols[key] = sid
        return sid

    def _paint(self, el: Element, p: Paint) -> None:
        el["fill"] = p.fill if p.fill else "none"
        if p.stroke and p.stroke_width > 0:
            el["stroke"] = p.stroke
            el["stroke-width"] = _n(p.stroke_width)
            if p.dash:
                el["stroke-dasharray"] = ",".join(_n(d) for d in p.dash)
        if p.opacity < 1:
            el["opacity"] = _n(p.opacity)

    def draw_scene(self, parent: Element, scene: Scene, elem_id: str | None = None) -> Element:
        """Draw a scene into ``parent`` with the trim box's top-left at (0, 0) (bleed at negative coordinates)."""
        g = self.dwg.g(id=elem_id) if elem_id else self.dwg.g()
        b = scene.bleed
        if scene.background:
            g.add(self.dwg.rect(insert=(_n(-b), _n(-b)), size=(_n(scene.w + 2 * b), _n(scene.h + 2 * b)),
                                fill=scene.background))
        for it in scene.items:
            self.item(g, it)
        parent.add(g)
        return g

    def item(self, parent: Element, it: Item) -> None:
        dwg = self.dwg
        if isinstance(it, Rect):
            r = _n(it.radius) if it.radius else None
            el = dwg.rect(insert=(_n(it.x), _n(it.y)), size=(_n(it.w), _n(it.h)), rx=r, ry=r)
            self._paint(el, it.paint)
            parent.add(el)
        elif isinstance(it, Ellipse):
            el = dwg.ellipse(center=(_n(it.cx), _n(it.cy)), r=(_n(it.rx), _n(it.ry)))
            self._paint(el, it.paint)
            parent.add(el)
        elif isinstance(it, Poly):
            points = [(_n(x), _n(y)) for x, y in it.points]
            el = dwg.polygon(points) if it.closed else dwg.polyline(points)
            self._paint(el, it.paint)
            if not it.closed:
                el["fill"] = "none"
            parent.add(el)
        elif isinstance(it, Text):
            self._text(parent, it)
        elif isinstance(it, IconPlace):
            self._use(parent, it.name, it.x, it.y, it.size, it.color, it.game)
        elif isinstance(it, Group):
            g = dwg.g(id=it.id) if it.id else dwg.g()
            tf = []
            if it.tx or it.ty:
                tf.append(f"translate({_n(it.tx)},{_n(it.ty)})")
            if it.rotate:
                tf.append(f"rotate({_n(it.rotate)},{_n(it.cx)},{_n(it.cy)})")
            if it.scale != 1:
                tf.append(f"translate({_n(it.cx)},{_n(it.cy)}) scale({_n(it.scale)}) "
                          f"translate({_n(-it.cx)},{_n(-it.cy)})")
            if tf:
                g["transform"] = " ".join(tf)
            for ch in it.children:
                self.item(g, ch)
            parent.add(g)

    def _font(self, face: str) -> tuple[str, str, str]:
        """(font-family list, weight, style) of a font face."""
        css, weight, style = self._faces.get(face, ("sans-serif", "normal", "normal"))
        family = f"{css}, serif" if css == "Vollkorn" else f"{css}, sans-serif"
        return family, weight, style

    def _text(self, parent: Element, it: Text) -> None:
        """Each line of laid-out text as one ``<text>`` whose ``<tspan>`` runs carry bold and italic: the renderer
        spaces the words itself with its own font metrics. Inline icons are placed where the layout put them, and
        the run after an icon starts at the layout's position (its ``x``), so text never runs under an icon."""
        lines: list[list[Run]] = []
        for r in it.layout.runs:
            if lines and lines[-1][0].baseline == r.baseline:
                lines[-1].append(r)
            else:
                lines.append([r])
        for line in lines:
            for r in line:
                if r.icon:
                    ix, iy, isz = icon_box(r)
                    self._use(parent, r.icon, it.x + ix, it.y + iy, isz, it.color, it.game)
            self._line(parent, it, line)

    def _line(self, parent: Element, it: Text, line: list[Run]) -> None:
        words = [r for r in line if not r.icon]
        if not words:
            return
        align = it.layout.align if not any(r.icon for r in line) else "left"
        base_family, _, _ = self._font(words[0].face)
        base_size = words[0].size
        if align == "center":
            x, anchor = it.x + it.w / 2, "middle"
        elif align == "right":
            x, anchor = it.x + it.w, "end"
        else:
            x, anchor = it.x + words[0].x, ""
        t = self.dwg.text("", insert=(_n(x), _n(it.y + words[0].baseline)), fill=it.color)
        t["font-family"] = base_family
        t["font-size"] = _n(base_size * PT)
        if anchor:
            t["text-anchor"] = anchor
        t["xml:space"] = "preserve"
        spans: list[tuple[str, str, float, float | None]] = []  # text, face, size, absolute x (after an icon)
        prev: Run | None = None
        for r in line:
            if r.icon:
                prev = r
                continue
            pin: float | None = None
            text = r.text
            if prev is not None and prev.icon:
                pin = it.x + r.x
            elif prev is not None and r.x - (prev.x + prev.w) > 1e-3:
                text = " " + text
            if spans and pin is None and spans[-1][1] == r.face and spans[-1][2] == r.size:
                spans[-1] = (spans[-1][0] + text, r.face, r.size, spans[-1][3])
            else:
                spans.append((text, r.face, r.size, pin))
            prev = r
        for text, face, size, pin in spans:
            family, weight, style = self._font(face)
            span = self.dwg.tspan(text)
            if pin is not None:
                span["x"] = _n(pin)
            if family != base_family:
                span["font-family"] = family
            if size != base_size:
                span["font-size"] = _n(size * PT)
            if weight != "normal":
                span["font-weight"] = weight
            if style != "normal":
                span["font-style"] = style
            t.add(span)
        parent.add(t)

    def _use(self, parent: Element, name: str, x: float, y: float, size: float, col: str, game: str | None) -> None:
        sid = self.symbol(name, game)
        u = self.dwg.use(f"#{sid}", insert=(_n(x), _n(y)), size=(_n(size), _n(size)))
        icon = load_icon(name, game)
        if any(s.fill == CURRENT or s.stroke == CURRENT for s in icon.shapes):
            u["color"] = col
        parent.add(u)


@cache
def _faces() -> dict[str, tuple[str, str, str]]:
    """Each font face (file name without .ttf) as (CSS family, weight, style)."""
    faces = {}
    for fam in families().values():
        for style, file in fam.files.items():
            faces[file.rsplit(".", 1)[0]] = (fam.css, *fam.css_style("bold" in style, "italic" in style))
    return faces


def scene_svg(scene: Scene, title: str = "", *, validate: bool = False) -> str:
    """A standalone SVG of one face, bleed included, sized in millimetres. With ``validate``, svgwrite checks each
    element and attribute against the SVG 1.1 full profile as it is added (and raises on one it does not allow)."""
    b = scene.bleed
    w, h = scene.w + 2 * b, scene.h + 2 * b
    dwg = svgwrite.Drawing(size=(f"{_n(w)}mm", f"{_n(h)}mm"), viewBox=f"{_n(-b)} {_n(-b)} {_n(w)} {_n(h)}",
                           profile="full", debug=validate)
    if title:
        dwg.set_desc(title=title)
    SvgPainter(dwg).draw_scene(dwg, scene, elem_id="face")
    if b > 0:
        dwg.add(dwg.rect(insert=("0", "0"), size=(_n(scene.w), _n(scene.h)), fill="none", stroke="#00a0ff",
                         stroke_width="0.1", id="trim", stroke_dasharray="1,1", display="none"))
    out = io.StringIO()
    dwg.write(out)
    return out.getvalue() + "\n"
