"""Resolved drawing primitives in millimetres (origin at the top-left of the trim box, y down).

A :class:`Scene` is what a face, a sheet or a board becomes once its layout is evaluated for one record; the PDF
and SVG back ends both draw scenes, so the two outputs agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .textlayout import TextLayout


@dataclass(frozen=True)
class Paint:
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0  # mm
    dash: tuple[float, ...] = ()
    opacity: float = 1.0


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    paint: Paint
    radius: float = 0.0


@dataclass(frozen=True)
class Ellipse:
    cx: float
    cy: float
    rx: float
    ry: float
    paint: Paint


@dataclass(frozen=True)
class Poly:
    points: tuple[tuple[float, float], ...]
    paint: Paint
    closed: bool = True


@dataclass(frozen=True)
class Text:
    """Laid-out text; the layout's run positions are relative to (x, y), the top-left of the box."""

    x: float
    y: float
    w: float
    h: float
    layout: TextLayout
    color: str = "#000000"
    game: str | None = None  # where to look up inline icons


@dataclass(frozen=True)
class IconPlace:
    name: str
    x: float
    y: float
    size: float
    color: str = "#000000"
    game: str | None = None


@dataclass(frozen=True)
class Group:
    """Children drawn rotated by ``rotate`` degrees (clockwise on the page) about (cx, cy)."""

    children: tuple[Item, ...]
    rotate: float = 0.0
    cx: float = 0.0
    cy: float = 0.0
    tx: float = 0.0
    ty: float = 0.0
    scale: float = 1.0
    id: str = ""  # an element id in SVG output (e.g. a board space's id)


Item = Rect | Ellipse | Poly | Text | IconPlace | Group


@dataclass
class Scene:
    """A face: trim size (w × h mm), bleed around it, a background filling trim and bleed, and items."""

    w: float
    h: float
    bleed: float = 0.0
    background: str | None = "#ffffff"
    items: list[Item] = field(default_factory=list)
    key: str = ""  # identifies the design: equal keys draw identical faces
    # the edge colour worked out for this scene (deckpdf.edge_colour), with what it was worked out from
    edge: tuple[Any, str | None] | None = field(default=None, compare=False, repr=False)

    def add(self, item: Item) -> None:
        self.items.append(item)


def text_items(items: list[Item] | tuple[Item, ...]) -> list[Text]:
    """Every text item, including those inside groups."""
    out: list[Text] = []
    for it in items:
        if isinstance(it, Text):
            out.append(it)
        elif isinstance(it, Group):
            out.extend(text_items(it.children))
    return out
