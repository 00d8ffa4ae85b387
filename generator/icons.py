"""Icons: small SVG files in ``layouts/icons`` (and ``layouts/<game>/icons``), parsed once with svgelements
into filled/stroked paths in a 100 × 100 box, drawn by both back ends."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import svgelements as se

from wizprint.errors import WizprintError
from wizprint.resources import layouts_dir

CURRENT = "currentColor"
_PLACEHOLDER = "#fe00fe"  # svgelements resolves currentColor to its `color` argument: we pass this and map it back


@dataclass(frozen=True)
class Seg:
    """A path segment: ``op`` is M, L, C or Z; ``pts`` its points in icon units (0-100, y down)."""

    op: str
    pts: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Shape:
    segs: tuple[Seg, ...]
    fill: str | None  # "#rrggbb", CURRENT or None
    stroke: str | None
    stroke_width: float
    evenodd: bool
    d: str  # the path in SVG syntax, for the SVG back end


@dataclass(frozen=True)
class Icon:
    name: str
    shapes: tuple[Shape, ...]
    size: float = 100.0


def _colour(c: se.Color | None, raw: str | None) -> str | None:
    if raw is not None and raw.strip() == CURRENT:
        return CURRENT
    if c is None or c.value is None:
        return None
    if str(c.hexrgb).lower() == _PLACEHOLDER:
        return CURRENT
    try:
        if c.alpha == 0:
            return None
    except (AttributeError, TypeError):
        pass
    return str(c.hexrgb)


def _shape(el: se.Shape) -> Shape | None:
    raw_fill = el.values.get("fill")
    raw_stroke = el.values.get("stroke")
    fill = _colour(el.fill, raw_fill)
    stroke = _colour(el.stroke, raw_stroke)
    if raw_fill is None and el.fill is not None and el.fill.value is None:
        fill = "#000000"
    path = se.Path(el)
    path.reify()
    path.approximate_arcs_with_cubics()
    segs: list[Seg] = []
    for s in path.segments():
        if isinstance(s, se.Move):
            segs.append(Seg("M", ((s.end.x, s.end.y),)))
        elif isinstance(s, se.Line):
            segs.append(Seg("L", ((s.end.x, s.end.y),)))
        elif isinstance(s, se.CubicBezier):
            segs.append(Seg("C", ((s.control1.x, s.control1.y), (s.control2.x, s.control2.y), (s.end.x, s.end.y))))
        elif isinstance(s, se.QuadraticBezier):
            p0, c, p1 = s.start, s.control, s.end
            c1 = (p0.x + 2 / 3 * (c.x - p0.x), p0.y + 2 / 3 * (c.y - p0.y))
            c2 = (p1.x + 2 / 3 * (c.x - p1.x), p1.y + 2 / 3 * (c.y - p1.y))
            segs.append(Seg("C", (c1, c2, (p1.x, p1.y))))
        elif isinstance(s, se.Close):
            segs.append(Seg("Z", ()))
    if not segs:
        return None
    sw = float(el.stroke_width) if stroke else 0.0
    evenodd = str(el.values.get("fill-rule", "nonzero")) == "evenodd"
    return Shape(tuple(segs), fill, stroke, sw, evenodd, _d(segs))


def _d(segs: list[Seg]) -> str:
    parts = []
    for s in segs:
        parts.append(s.op + " ".join(f"{x:.2f},{y:.2f}" for x, y in s.pts))
    return "".join(parts)


def icon_dirs(game: str | None) -> list[Path]:
    dirs = []
    if game:
        dirs.append(layouts_dir() / game / "icons")
    dirs.append(layouts_dir() / "icons")
    return dirs


@cache
def load_icon(name: str, game: str | None = None) -> Icon:
    for d in icon_dirs(game):
        p = d / f"{name}.svg"
        if p.is_file():
            return _parse(p, name)
    raise WizprintError(f"unknown icon ':{name}:' (no {name}.svg in {', '.join(str(d) for d in icon_dirs(game))})")


def icon_exists(name: str, game: str | None = None) -> bool:
    return any((d / f"{name}.svg").is_file() for d in icon_dirs(game))


def _parse(path: Path, name: str) -> Icon:
    try:
        svg = se.SVG.parse(str(path), reify=True, color=_PLACEHOLDER)
    except Exception as exc:  # svgelements raises many kinds of errors on bad files
        raise WizprintError(f"{path}: cannot read icon: {exc}") from None
    vb = svg.viewbox
    size = float(vb.width) if vb is not None else 100.0
    shapes = []
    for el in svg.elements():
        if isinstance(el, se.Shape) and not isinstance(el, se.SVG):
            sh = _shape(el)
            if sh is not None:
                shapes.append(sh)
    return Icon(name, tuple(shapes), size)
