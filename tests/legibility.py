"""Reading the drawn scenes for legibility: every text with the colour it is printed on (test helpers, independent of
the code that draws the scenes, which they only read).

A scene is walked in drawing order, as a printer lays ink: each filled shape (its outline, in the scene's frame
through every group's turn, scale and shift) covers what is under it, blended by its opacity; a text is judged on
what lies under the middle of its box. Icons are pictures, not grounds: text is never judged against one."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from wizprint.generator.lowink import luminance, rgb
from wizprint.generator.scene import Ellipse, Group, IconPlace, Item, Poly, Rect, Scene, Text

Affine = tuple[float, float, float, float, float, float]  # x' = a x + b y + e, y' = c x + d y + f
IDENTITY: Affine = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
RGB = tuple[float, float, float]
WHITE: RGB = (1.0, 1.0, 1.0)


def contrast(a: RGB, b: RGB) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def _compose(m: Affine, n: Affine) -> Affine:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, a * e2 + b * f2 + e,
            c * e2 + d * f2 + f)


def _group(g: Group) -> Affine:
    """A group's frame in its parent's, as the back ends draw it: shifted, then turned (clockwise, y down) and
    scaled about its centre."""
    t = math.radians(g.rotate)
    a, b, c, d = math.cos(t) * g.scale, -math.sin(t) * g.scale, math.sin(t) * g.scale, math.cos(t) * g.scale
    return (a, b, c, d, g.tx + g.cx - (a * g.cx + b * g.cy), g.ty + g.cy - (c * g.cx + d * g.cy))


def _inverse(m: Affine, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    det = a * d - b * c
    x, y = x - e, y - f
    return ((d * x - b * y) / det, (-c * x + a * y) / det)


def _inside(shape: Rect | Ellipse | Poly, x: float, y: float) -> bool:
    if isinstance(shape, Rect):
        return shape.x <= x <= shape.x + shape.w and shape.y <= y <= shape.y + shape.h
    if isinstance(shape, Ellipse):
        return ((x - shape.cx) / shape.rx) ** 2 + ((y - shape.cy) / shape.ry) ** 2 <= 1.0
    pts = shape.points
    inside = False
    for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


@dataclass(frozen=True)
class Judged:
    """A text of a scene: its words, its smallest size as printed (pt), its colour and the colour under it."""

    words: str
    size: float
    colour: RGB
    ground: RGB

    @property
    def contrast(self) -> float:
        return contrast(self.colour, self.ground)


def texts(scene: Scene) -> Iterator[Judged]:
    """Every text of ``scene`` (inside groups too), with what it is printed on."""
    painted: list[tuple[Rect | Ellipse | Poly, Affine, RGB, float]] = []
    ground = rgb(scene.background) if scene.background else None

    def under(x: float, y: float) -> RGB:
        col = ground or WHITE
        for shape, m, fill, opacity in painted:
            lx, ly = _inverse(m, x, y)
            if _inside(shape, lx, ly):
                col = tuple(opacity * f + (1 - opacity) * c for f, c in zip(fill, col, strict=True))  # type: ignore[assignment]
        return col

    def walk(items: list[Item] | tuple[Item, ...], m: Affine, scale: float) -> Iterator[Judged]:
        for it in items:
            if isinstance(it, (Rect, Ellipse, Poly)):
                fill = rgb(it.paint.fill)
                if fill is not None and (not isinstance(it, Poly) or it.closed):
                    painted.append((it, m, fill, it.paint.opacity))
            elif isinstance(it, Text):
                runs = [r for r in it.layout.runs if r.text.strip()]
                if not runs:
                    continue
                a, b, c, d, e, f = m
                cx, cy = it.x + it.w / 2, it.y + it.h / 2
                x, y = a * cx + b * cy + e, c * cx + d * cy + f
                colour = rgb(it.color) or (0.0, 0.0, 0.0)
                yield Judged(" ".join(r.text for r in runs), min(r.size for r in runs) * scale, colour, under(x, y))
            elif isinstance(it, Group):
                yield from walk(it.children, _compose(m, _group(it)), scale * it.scale)
            elif isinstance(it, IconPlace):
                continue

    yield from walk(scene.items, IDENTITY, 1.0)
