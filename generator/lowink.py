"""Low-ink printing: a scene's large floods become light tints with an outline, keeping every piece of information.

``build --low-ink`` passes every face, sheet and board scene through :func:`low_ink` before drawing it. A *flood* is
the scene's background or a filled shape larger than :data:`FLOOD_AREA` mm² (a card's frame, a banner, a text panel,
a board space); it is redrawn as its own colour mixed with :data:`TINT` parts of white, outlined in its own colour, so
colour coding survives as a tint and an edge. Small fills (pips, cost discs, icons) keep their colour: they carry
little ink and often carry meaning. Text and icons drawn in a light colour (white lettering on a dark banner) would
vanish on a tint, so lettering that no longer stands out from what is now beneath it (less than 4.5:1) is turned
dark: the darkened colour of the flood under it, or near-black. Text on a small dark shape that keeps its colour stays
light.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from .pdfops import colour as pdf_colour
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text

FLOOD_AREA = 150.0  # mm²: a filled shape larger than this is a flood (a poker card is 5,544 mm²; a pip ~20)
TINT = 0.86  # share of white mixed into a flood
OUTLINE = 0.3  # mm, the outline drawn round a tinted flood
LIGHT = 0.6  # relative luminance above which a colour counts as light
INK = "#1a1a1a"  # dark text where nothing darker is known
CONTRAST = 4.5  # the least contrast of lettering with what is beneath it
KEY = ":low-ink"  # the end of a tinted scene's key (a design drawn in low ink is a design of its own)

_PRINTING = ContextVar("printing_low_ink", default=False)


@contextmanager
def printing_low_ink() -> Iterator[None]:
    """Within it, every PDF page drawn (:class:`~wizprint.generator.pdf.PdfPainter`) prints its scenes and items
    in low ink: a build's low-ink set is made by the same producers as its full one."""
    token = _PRINTING.set(True)
    try:
        yield
    finally:
        _PRINTING.reset(token)


def low_ink_printing() -> bool:
    """Whether the PDF pages drawn now are printed in low ink (see :func:`printing_low_ink`)."""
    return _PRINTING.get()


def rgb(c: str | None) -> tuple[float, float, float] | None:
    """A scene colour ('#rrggbb' or a named colour, read as the PDF back end reads it) as three channels 0..1;
    None for no paint."""
    if not c or c == "none":
        return None
    col = pdf_colour(c)
    return (col.red, col.green, col.blue)


def _hex(c: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(max(0.0, min(1.0, v)) * 255):02x}" for v in c)


def luminance(c: tuple[float, float, float]) -> float:
    """Relative luminance (sRGB, WCAG)."""
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The contrast ratio of two colours (WCAG: 1 to 21)."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def tint(colour: str) -> str:
    """The colour mixed with :data:`TINT` parts of white."""
    c = rgb(colour)
    return colour if c is None else _hex(tuple(v + (1 - v) * TINT for v in c))  # type: ignore[arg-type]


def darken(colour: str | None) -> str:
    """A dark shade of the colour for lettering on its tint (near-black if the colour is unknown or pale)."""
    c = rgb(colour)
    if c is None or luminance(c) > 0.9:
        return INK
    k = 0.35 / max(max(c), 0.35)
    d = tuple(v * k for v in c)
    return _hex(d) if luminance(d) < 0.12 else INK  # type: ignore[arg-type]


def is_light(colour: str | None) -> bool:
    c = rgb(colour)
    return c is not None and luminance(c) > LIGHT


@dataclass
class _Under:
    """A filled shape already drawn, in scene coordinates: its bounding box and the colour it ends up."""

    box: tuple[float, float, float, float]  # x0, y0, x1, y1
    colour: str  # as printed after the transform
    flood: str  # the original colour of a tinted flood ('' if kept)


Affine = tuple[float, float, float, float, float, float]  # x' = a x + b y + e, y' = c x + d y + f
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _apply(m: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + b * y + e, c * x + d * y + f


def _compose(m: Affine, n: Affine) -> Affine:
    """m after n."""
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, a * e2 + b * f2 + e,
            c * e2 + d * f2 + f)


def _group_matrix(g: Group) -> Affine:
    """A group's children to its parent's frame, as the PDF back end draws it (y down, clockwise degrees)."""
    t = math.radians(g.rotate)
    cs, sn = math.cos(t), math.sin(t)
    k = g.scale
    # p' = (tx, ty) + c + R * k * (p - c)
    a, b, c, d = cs * k, -sn * k, sn * k, cs * k
    e = g.tx + g.cx - (a * g.cx + b * g.cy)
    f = g.ty + g.cy - (c * g.cx + d * g.cy)
    return (a, b, c, d, e, f)


def _box(m: Affine, pts: list[tuple[float, float]]) -> tuple[float, float, float, float]:
    mapped = [_apply(m, x, y) for x, y in pts]
    xs, ys = [p[0] for p in mapped], [p[1] for p in mapped]
    return (min(xs), min(ys), max(xs), max(ys))


def _shape_points(it: Rect | Ellipse | Poly) -> tuple[list[tuple[float, float]], float]:
    """Bounding corners and area (mm²) of a shape in its own frame."""
    if isinstance(it, Rect):
        return [(it.x, it.y), (it.x + it.w, it.y + it.h), (it.x, it.y + it.h), (it.x + it.w, it.y)], it.w * it.h
    if isinstance(it, Ellipse):
        return ([(it.cx - it.rx, it.cy - it.ry), (it.cx + it.rx, it.cy + it.ry), (it.cx - it.rx, it.cy + it.ry),
                 (it.cx + it.rx, it.cy - it.ry)], math.pi * it.rx * it.ry)
    pts = list(it.points)
    area = 0.0
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        area += x0 * y1 - x1 * y0
    return pts, abs(area) / 2 if it.closed else 0.0


class _LowInk:
    def __init__(self, scene: Scene):
        bg = scene.background
        self.paper = tint(bg) if bg else "#ffffff"
        self.paper_flood = bg if bg and rgb(bg) is not None else ""
        self.under: list[_Under] = []

    def _beneath(self, x: float, y: float) -> tuple[str, str]:
        """The printed colour at (x, y) and the flood colour it came from ('' if none)."""
        for u in reversed(self.under):
            x0, y0, x1, y1 = u.box
            if x0 <= x <= x1 and y0 <= y <= y1:
                return u.colour, u.flood
        return self.paper, self.paper_flood

    def _ink(self, colour: str, x: float, y: float) -> str:
        """A text or icon colour made dark when it no longer stands out from what is printed beneath it (less
        than :data:`CONTRAST`: light lettering on a flood that is now a tint)."""
        own = rgb(colour)
        below, flood = self._beneath(x, y)
        below_colour = rgb(below)
        if own is None or below_colour is None or contrast(own, below_colour) >= CONTRAST:
            return colour
        dark = darken(flood)
        dark_rgb = rgb(dark)
        return dark if dark_rgb is not None and contrast(dark_rgb, below_colour) >= CONTRAST else INK

    def items(self, items: list[Item] | tuple[Item, ...], m: Affine) -> list[Item]:
        out: list[Item] = []
        for it in items:
            if isinstance(it, (Rect, Ellipse, Poly)):
                pts, area = _shape_points(it)
                p = it.paint
                if p.fill and rgb(p.fill) is not None and area * abs(m[0] * m[3] - m[1] * m[2]) > FLOOD_AREA:
                    paint = Paint(fill=tint(p.fill), stroke=p.stroke or p.fill,
                                  stroke_width=max(p.stroke_width, OUTLINE), dash=p.dash, opacity=p.opacity)
                    self.under.append(_Under(_box(m, pts), paint.fill or "", p.fill))
                    out.append(replace(it, paint=paint))
                else:
                    if p.fill and rgb(p.fill) is not None and (not isinstance(it, Poly) or it.closed):
                        self.under.append(_Under(_box(m, pts), p.fill, ""))
                    out.append(it)
            elif isinstance(it, Text):
                cx, cy = _apply(m, it.x + it.w / 2, it.y + it.h / 2)
                out.append(replace(it, color=self._ink(it.color, cx, cy)))
            elif isinstance(it, IconPlace):
                cx, cy = _apply(m, it.x + it.size / 2, it.y + it.size / 2)
                out.append(replace(it, color=self._ink(it.color, cx, cy)))
            else:
                out.append(replace(it, children=tuple(self.items(it.children, _compose(m, _group_matrix(it))))))
        return out


def low_ink(scene: Scene) -> Scene:
    """The scene with its floods tinted and outlined and its light lettering made dark where it now sits on a
    tint (a new scene; the original is left as it was). A scene already in low ink (its key ends in
    :data:`KEY`) is returned as it is."""
    if scene.key.endswith(KEY):
        return scene
    li = _LowInk(scene)
    items = li.items(scene.items, IDENTITY)
    return Scene(scene.w, scene.h, scene.bleed, li.paper if scene.background else None, items,
                 scene.key + KEY if scene.key else "")


def low_ink_items(items: list[Item], w: float, h: float) -> list[Item]:
    """Items drawn straight on a page of ``w`` x ``h`` mm (paper showing beneath them), in low ink."""
    return low_ink(Scene(w, h, 0.0, None, items)).items
