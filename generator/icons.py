"""Icons: small SVG files in ``layouts/icons`` (and ``layouts/<game>/icons``), parsed once per process into
filled/stroked paths in their view box (the values of :mod:`.iconshapes`), drawn by both back ends: a shipped icon
from the cache of :mod:`.iconcache`, other plain files (paths and basic shapes painted by attributes, most icons) by
the fast reader of :mod:`.svgfast`, any other by svgelements, with the same result.

An icon's name comes from data (layouts, ``:icon:`` in card text), so it must be a plain name (lower-case
letters, digits and '-') and the file it names must lie inside an icon folder. An icon file is read only if it is
small (at most 1 MiB), well-formed and finite; XML entities are neither expanded nor fetched (expat refuses an
undefined or external entity and limits amplification, so neither an external entity nor a billion laughs
gets through).
"""

from __future__ import annotations

import math
import os
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from wizprint.errors import WizprintError, one_line, quote
from wizprint.files import FileProblem, read_file
from wizprint.resources import folder_icons, inside, layouts_dir

from .iconcache import cached_icon
from .iconshapes import CURRENT as CURRENT
from .iconshapes import Icon as Icon
from .iconshapes import Seg as Seg
from .iconshapes import Shape as Shape
from .svgfast import read_plain

if TYPE_CHECKING:
    import svgelements as se

ICON_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
MAX_ICON_BYTES = 1024 * 1024
MAX_ICON_SEGMENTS = 20_000

_PLACEHOLDER = "#fe00fe"  # svgelements resolves currentColor to its `color` argument: we pass this and map it back


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
    import svgelements as se

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
    return Shape(tuple(segs), fill, stroke, sw, evenodd)


def icon_dirs(game: str | None) -> list[Path]:
    """Where a game's icons are looked for, in order: its game folder's own ``icons/`` (when a folder with one was
    loaded), the shipped game's, the shared ones."""
    dirs = []
    if game:
        own = folder_icons(game)
        if own is not None:
            dirs.append(own)
        dirs.append(layouts_dir() / game / "icons")
    dirs.append(layouts_dir() / "icons")
    return dirs


def icon_file(name: str, game: str | None = None) -> Path | None:
    """The file of an icon (None when no icon folder has it); WizprintError for a name that is not a plain icon
    name or a file that lies outside the icon folders."""
    if not isinstance(name, str) or not ICON_NAME.match(name):
        raise WizprintError(f"icon name {quote(name)} must be lower-case letters, digits and '-' (at most 64)")
    if game is not None and not re.match(r"^(?!\.)[A-Za-z0-9._-]{1,64}$", game):
        game = None
    for d in icon_dirs(game):
        p = d / f"{name}.svg"
        if p.is_file():
            # the name has no '/': only a link can lead outside the folder (a shipped folder: an editable install
            # links every file into the source tree, which `inside` accepts)
            if os.path.islink(p) and not inside(d, p):
                raise WizprintError(f"icon {quote(name)}: {p.name} is a link to a file outside its icon folder")
            return p
    return None


def load_icon(name: str, game: str | None = None) -> Icon:
    """The icon ``name`` as ``game`` draws it (see :func:`icon_dirs`)."""
    return _load_icon(name, game, folder_icons(game) if game else None)


@cache  # by the game folder's own icons too: a game folder loaded later may bring icons of its own
def _load_icon(name: str, game: str | None, _own: Path | None) -> Icon:
    p = icon_file(name, game)
    if p is None:
        raise WizprintError(f"unknown icon ':{name}:' (no {name}.svg in "
                            f"{', '.join(_shown(d) for d in icon_dirs(game))})")
    return read_icon_file(p, name)


def icon_problem(name: str, game: str | None = None) -> str | None:
    """Why ``name`` cannot be drawn (an unsafe name, no such icon, a file that cannot be read), None when it can.
    The icon is parsed, so ``validate`` reports what ``build`` would reject."""
    return _icon_problem(name, game, folder_icons(game) if game else None)


@cache
def _icon_problem(name: str, game: str | None, _own: Path | None) -> str | None:
    try:
        load_icon(name, game)
    except WizprintError as exc:
        return str(exc)
    return None


def _shown(path: Path) -> str:
    try:
        return "layouts/" + path.relative_to(layouts_dir()).as_posix()
    except ValueError:
        return str(path)


def read_icon_file(path: Path, name: str, *, cached: bool = True) -> Icon:
    """The icon in the file ``path`` (checked as the module's docstring says); a shipped icon's shapes come from the
    shipped cache of :mod:`.iconcache` when ``cached`` and its bytes are the shipped ones."""
    shown = _shown(path)
    try:
        try:
            data = read_file(path, MAX_ICON_BYTES, "an icon", shown)
        except FileProblem as exc:
            why = f"larger than {MAX_ICON_BYTES // 1024} KiB" if exc.kind == "size" else exc.detail
            raise WizprintError(f"{shown}: cannot read icon: {why}") from None
        if cached:
            known = cached_icon(data, name)
            if known is not None:
                return known
        plain = read_plain(data, name)  # most icons are plain SVG; the general reader takes the rest
        size, found = (plain.size, list(plain.shapes)) if plain is not None else _read_general(data)
        if not (math.isfinite(size) and 0 < size <= 100_000):
            raise WizprintError(f"{shown}: cannot read icon: its viewBox width must be a positive number")
        shapes = []
        count = 0
        for sh in found:
            count += len(sh.segs)
            if count > MAX_ICON_SEGMENTS:
                raise WizprintError(f"{shown}: cannot read icon: more than {MAX_ICON_SEGMENTS:,} path segments")
            if not all(math.isfinite(v) for seg in sh.segs for pt in seg.pts for v in pt) or not (
                    math.isfinite(sh.stroke_width) and 0 <= sh.stroke_width <= 100_000):
                raise WizprintError(f"{shown}: cannot read icon: a path has a coordinate that is not a finite number")
            shapes.append(sh)
    except WizprintError:
        raise
    except Exception as exc:  # svgelements raises many kinds of errors on bad files
        raise WizprintError(f"{shown}: cannot read icon: {one_line(str(exc) or type(exc).__name__, 120)}") from None
    return Icon(name, tuple(shapes), size)


def _read_general(data: bytes) -> tuple[float, list[Shape]]:
    """The viewBox width and the shapes of any SVG file svgelements reads."""
    import io

    import svgelements as se

    svg = se.SVG.parse(io.BytesIO(data), reify=True, color=_PLACEHOLDER)
    vb = svg.viewbox
    size = float(vb.width) if vb is not None else 100.0
    shapes = []
    for el in svg.elements():
        if isinstance(el, se.Shape) and not isinstance(el, se.SVG):
            sh = _shape(el)
            if sh is not None:
                shapes.append(sh)
    return size, shapes
