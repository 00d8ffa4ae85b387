"""SVG back end (svgwrite): draws scenes with the same geometry as the PDF back end.

Icons become ``<symbol>`` elements placed with ``<use>``; text uses the font family names of
``layouts/fonts/fonts.toml`` (install those fonts to see the exact faces).
"""

from __future__ import annotations

from typing import Any

import svgwrite
from svgwrite.container import Group as SvgGroup

from .fonts import families
from .icons import CURRENT, load_icon
from .scene import Ellipse, Group, IconPlace, Item, Poly, Rect, Scene, Text
from .textlayout import icon_box
from .units import PT


def _n(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


class SvgPainter:
    def __init__(self, dwg: svgwrite.Drawing):
        self.dwg = dwg
        self.symbols: dict[tuple[str, str | None], str] = {}
        self._faces = {}
        for fam in families().values():
            for style, file in fam.files.items():
                bold = "bold" in style
                italic = "italic" in style
                self._faces[file.rsplit(".", 1)[0]] = (fam.css, *fam.css_style(bold, italic))

    def symbol(self, name: str, game: str | None) -> str:
        key = (name, game)
        sid = self.symbols.get(key)
        if sid is None:
            icon = load_icon(name, game)
            sid = f"icon-{name}"
            sym = self.dwg.symbol(id=sid, viewBox=f"0 0 {_n(icon.size)} {_n(icon.size)}")
            for sh in icon.shapes:
                attrs: dict[str, Any] = {"d": sh.d}
                attrs["fill"] = sh.fill if sh.fill else "none"
                if sh.stroke:
                    attrs["stroke"] = sh.stroke
                    attrs["stroke_width"] = _n(sh.stroke_width)
                    attrs["stroke_linejoin"] = "round"
                    attrs["stroke_linecap"] = "round"
                if sh.evenodd:
                    attrs["fill_rule"] = "evenodd"
                sym.add(self.dwg.path(**attrs))
            self.dwg.defs.add(sym)
            self.symbols[key] = sid
        return sid

    def _paint(self, el: Any, p: Any) -> None:
        el["fill"] = p.fill if p.fill else "none"
        if p.stroke and p.stroke_width > 0:
            el["stroke"] = p.stroke
            el["stroke-width"] = _n(p.stroke_width)
            if p.dash:
                el["stroke-dasharray"] = ",".join(_n(d) for d in p.dash)
        if p.opacity < 1:
            el["opacity"] = _n(p.opacity)

    def draw_scene(self, parent: Any, scene: Scene, elem_id: str | None = None) -> SvgGroup:
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

    def item(self, parent: Any, it: Item) -> None:
        d = self.dwg
        if isinstance(it, Rect):
            el = d.rect(insert=(_n(it.x), _n(it.y)), size=(_n(it.w), _n(it.h)))
            if it.radius:
                el["rx"] = el["ry"] = _n(it.radius)
            self._paint(el, it.paint)
            parent.add(el)
        elif isinstance(it, Ellipse):
            el = d.ellipse(center=(_n(it.cx), _n(it.cy)), r=(_n(it.rx), _n(it.ry)))
            self._paint(el, it.paint)
            parent.add(el)
        elif isinstance(it, Poly):
            pts = [(_n(x), _n(y)) for x, y in it.points]
            el = d.polygon(pts) if it.closed else d.polyline(pts)
            self._paint(el, it.paint)
            if not it.closed:
                el["fill"] = "none"
            parent.add(el)
        elif isinstance(it, Text):
            for r in it.layout.runs:
                if r.icon:
                    ix, iy, isz = icon_box(r)
                    self._use(parent, r.icon, it.x + ix, it.y + iy, isz, it.color, it.game)
                    continue
                css, weight, style = self._faces.get(r.face, ("sans-serif", "normal", "normal"))
                t = d.text(r.text, insert=(_n(it.x + r.x), _n(it.y + r.baseline)), fill=it.color)
                t["font-family"] = f"{css}, serif" if css == "Vollkorn" else f"{css}, sans-serif"
                t["font-size"] = _n(r.size * PT)
                if weight != "normal":
                    t["font-weight"] = weight
                if style != "normal":
                    t["font-style"] = style
                t["xml:space"] = "preserve"
                parent.add(t)
        elif isinstance(it, IconPlace):
            self._use(parent, it.name, it.x, it.y, it.size, it.color, it.game)
        elif isinstance(it, Group):
            g = d.g(id=it.id) if it.id else d.g()
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

    def _use(self, parent: Any, name: str, x: float, y: float, size: float, col: str, game: str | None) -> None:
        sid = self.symbol(name, game)
        u = self.dwg.use(f"#{sid}", insert=(_n(x), _n(y)), size=(_n(size), _n(size)))
        icon = load_icon(name, game)
        if any(s.fill == CURRENT or s.stroke == CURRENT for s in icon.shapes):
            u["color"] = col
        parent.add(u)


def scene_svg(scene: Scene, title: str = "") -> str:
    """A standalone SVG of one face, bleed included, sized in millimetres."""
    b = scene.bleed
    w, h = scene.w + 2 * b, scene.h + 2 * b
    dwg = svgwrite.Drawing(size=(f"{_n(w)}mm", f"{_n(h)}mm"), viewBox=f"{_n(-b)} {_n(-b)} {_n(w)} {_n(h)}",
                           profile="full", debug=False)
    if title:
        dwg.set_desc(title=title)
    painter = SvgPainter(dwg)
    painter.draw_scene(dwg, scene, elem_id="face")
    if b > 0:
        trim = dwg.rect(insert=(0, 0), size=(_n(scene.w), _n(scene.h)), fill="none", stroke="#00a0ff",
                        stroke_width="0.1", id="trim")
        trim["stroke-dasharray"] = "1,1"
        trim["display"] = "none"
        dwg.add(trim)
    xml: str = dwg.tostring()
    return '<?xml version="1.0" encoding="utf-8"?>\n' + xml + "\n"
