"""What an icon is once read: filled and stroked paths in its view box (0-100 for most, y down), made of M, L, C and
Z segments. Both icon readers (:mod:`.svgfast` and svgelements in :mod:`.icons`) and the shipped cache
(:mod:`.iconcache`) make these values, and both back ends draw them; this module depends on none of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

CURRENT = "currentColor"  # a paint that takes the colour the icon is drawn in


class Seg(NamedTuple):
    """A path segment: ``op`` is M, L, C or Z; ``pts`` its points in icon units (0-100, y down). (A named tuple:
    an icon has thousands, made faster so.)"""

    op: str
    pts: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class Shape:
    segs: tuple[Seg, ...]
    fill: str | None  # "#rrggbb", CURRENT or None
    stroke: str | None
    stroke_width: float
    evenodd: bool

    @cached_property
    def d(self) -> str:
        """The path in SVG syntax, for the SVG back end."""
        return path_d(self.segs)


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: load_icon makes each icon once
class Icon:
    name: str
    shapes: tuple[Shape, ...]
    size: float = 100.0


def path_d(segs: Sequence[Seg]) -> str:
    """Segments as SVG path data (for the SVG back end).

    >>> path_d([Seg("M", ((0.0, 0.0),)), Seg("L", ((10.0, 2.5),)), Seg("Z", ())])
    'M0.00,0.00L10.00,2.50Z'
    """
    parts = []
    for s in segs:
        parts.append(s.op + " ".join(f"{x:.2f},{y:.2f}" for x, y in s.pts))
    return "".join(parts)
