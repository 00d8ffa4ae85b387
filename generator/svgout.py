"""SVG back end: draws scenes with the same geometry as the PDF back end.

Icons become ``<symbol>`` elements placed with ``<use>``; text uses the font family names of
``layouts/fonts/fonts.toml`` (install those fonts to see the exact faces). The document is built as a small tree
of :class:`El` and written as text directly (the markup svgwrite and ElementTree would write for it, attributes in
alphabetical order, at a fraction of their time).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from .fonts import families
from .icons import CURRENT, load_icon
from .scene import Ellipse, Group, IconPlace, Item, Poly, Rect, Scene, Text
from .textlayout import Run, icon_box
from .units import PT


def _n(v: float) -> str:
    s = f"{v:.3f}".rstrip("0").rstrip(".")
    return s if s not in ("-0", "") else "0"


_ATTR_ENTITIES = {'"': "&quot;", "\r": "&#13;", "\n": "&#10;", "\t": "&#09;"}  # as ElementTree escapes attributes


_TEXT_SPECIAL = re.compile("[&<>]")
_ATTR_SPECIAL = re.compile('[&<>"\r\n\t]')


def _escape_text(text: str) -> str:
    if not _TEXT_SPECIAL.search(text):
        return text  # nothing to escape: the text itself
    from xml.sax.saxutils import escape  # here, not at the top: it imports urllib.request (a tenth of a build's start)

    return escape(text)


def _escape_attr(text: str) -> str:
    if not _ATTR_SPECIAL.search(text):
        return text
    from xml.sax.saxutils import escape

    return escape(text, _ATTR_ENTITIES)


class El:
    """An SVG element: a tag, attributes (empty ones are left out), text and children."""

    __slots__ = ("attrs", "children", "tag", "text")

    def __init__(self, tag: str, text: str = "", **attrs: str) -> None:
        self.tag = tag
        self.text = text
        self.attrs: dict[str, str] = {k.replace("_", "-"): v for k, v in attrs.items()}
        self.children: list[El] = []

    def __setitem__(self, name: str, value: str) -> None:
        self.attrs[name] = value

    def add(self, child: El) -> El:
        self.children.append(child)
        return child

    def write(self, out: list[str]) -> None:
        out.append("<" + self.tag)
        for name in sorted(self.attrs):
            value = self.attrs[name]
            if value:
                out.append(f' {name}="{_escape_attr(value)}"')
        if self.text or self.children:
            out.append(">")
            if self.text:
                out.append(_escape_text(self.text))
            for ch in self.children:
                ch.write(out)
            out.append(f"</{self.tag}>")
        else:
            out.append(" />")


class Document:
    """An SVG document: the root element, its ``<defs>`` and an optional title."""

    def __init__(self, width: str, height: str, view_box: str, title: str = "") -> None:
        self.root = El("svg", baseProfile="full", height=height, version="1.1", viewBox=view_box, width=width,
                       xmlns="http://www.w3.org/2000/svg")
        self.root["xmlns:ev"] = "http://www.w3.org/2001/xml-events"
        self.root["xmlns:xlink"] = "http://www.w3.org/1999/xlink"
        if title:
            self.root.add(El("title", title))
        self.defs = self.root.add(El("defs"))

    def add(self, child: El) -> El:
        return self.root.add(child)

    def tostring(self) -> str:
        out: list[str] = []
        self.root.write(out)
        return "".join(out)


class SvgPainter:
    def __init__(self, doc: Document):
        self.doc = doc
        self.symbols: dict[tuple[str, str | None], str] = {}
        self._faces = _faces()

    def symbol(self, name: str, game: str | None) -> str:
        key = (name, game)
        sid = self.symbols.get(key)
        if sid is None:
            icon = load_icon(name, game)
            sid = f"icon-{name}"
            sym = El("symbol", id=sid, viewBox=f"0 0 {_n(icon.size)} {_n(icon.size)}")
            for sh in icon.shapes:
                path = sym.add(El("path", d=sh.d, fill=sh.fill if sh.fill else "none"))
                if sh.stroke:
                    path["stroke"] = sh.stroke
                    path["stroke-width"] = _n(sh.stroke_width)
                    path["stroke-linejoin"] = "round"
                    path["stroke-linecap"] = "round"
                if sh.evenodd:
                    path["fill-rule"] = "evenodd"
            self.doc.defs.add(sym)
            self.symbols[key] = sid
        return sid

    def _paint(self, el: El, p: Any) -> None:
        el["fill"] = p.fill if p.fill else "none"
        if p.stroke and p.stroke_width > 0:
            el["stroke"] = p.stroke
            el["stroke-width"] = _n(p.stroke_width)
            if p.dash:
                el["stroke-dasharray"] = ",".join(_n(d) for d in p.dash)
        if p.opacity < 1:
            el["opacity"] = _n(p.opacity)

    def draw_scene(self, parent: El | Document, scene: Scene, elem_id: str | None = None) -> El:
        """Draw a scene into ``parent`` with the trim box's top-left at (0, 0) (bleed at negative coordinates)."""
        g = El("g", id=elem_id) if elem_id else El("g")
        b = scene.bleed
        if scene.background:
            g.add(El("rect", x=_n(-b), y=_n(-b), width=_n(scene.w + 2 * b), height=_n(scene.h + 2 * b),
                     fill=scene.background))
        for it in scene.items:
            self.item(g, it)
        parent.add(g)
        return g

    def item(self, parent: El, it: Item) -> None:
        if isinstance(it, Rect):
            el = El("rect", x=_n(it.x), y=_n(it.y), width=_n(it.w), height=_n(it.h))
            if it.radius:
                el["rx"] = el["ry"] = _n(it.radius)
            self._paint(el, it.paint)
            parent.add(el)
        elif isinstance(it, Ellipse):
            el = El("ellipse", cx=_n(it.cx), cy=_n(it.cy), rx=_n(it.rx), ry=_n(it.ry))
            self._paint(el, it.paint)
            parent.add(el)
        elif isinstance(it, Poly):
            el = El("polygon" if it.closed else "polyline", points=" ".join(f"{_n(x)},{_n(y)}" for x, y in it.points))
            self._paint(el, it.paint)
            if not it.closed:
                el["fill"] = "none"
            parent.add(el)
        elif isinstance(it, Text):
            self._text(parent, it)
        elif isinstance(it, IconPlace):
            self._use(parent, it.name, it.x, it.y, it.size, it.color, it.game)
        elif isinstance(it, Group):
            g = El("g", id=it.id) if it.id else El("g")
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

    def _text(self, parent: El, it: Text) -> None:
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

    def _line(self, parent: El, it: Text, line: list[Run]) -> None:
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
        t = El("text", x=_n(x), y=_n(it.y + words[0].baseline), fill=it.color)
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
            span = El("tspan", text)
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

    def _use(self, parent: El, name: str, x: float, y: float, size: float, col: str, game: str | None) -> None:
        sid = self.symbol(name, game)
        u = El("use", x=_n(x), y=_n(y), width=_n(size), height=_n(size))
        u["xlink:href"] = f"#{sid}"
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


def scene_svg(scene: Scene, title: str = "") -> str:
    """A standalone SVG of one face, bleed included, sized in millimetres."""
    b = scene.bleed
    w, h = scene.w + 2 * b, scene.h + 2 * b
    doc = Document(f"{_n(w)}mm", f"{_n(h)}mm", f"{_n(-b)} {_n(-b)} {_n(w)} {_n(h)}", title)
    painter = SvgPainter(doc)
    painter.draw_scene(doc, scene, elem_id="face")
    if b > 0:
        doc.add(El("rect", x="0", y="0", width=_n(scene.w), height=_n(scene.h), fill="none", stroke="#00a0ff",
                   stroke_width="0.1", id="trim", stroke_dasharray="1,1", display="none"))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + doc.tostring() + "\n"
