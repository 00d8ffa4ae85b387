"""A game board drawn from its space records and ``layouts/<game>/board.toml``: square rings of spaces (corners
and `per_side` area spaces per side) for the outer tiers, a path of spaces on an ellipse for the inner tier, and
a centre space with the dashed slot where the scenario sheet lies. Each space becomes one group whose SVG id is the
space's id; its text boxes are rendered from their effects like card text, and a text that does not fit is an error
naming the space. Arrows run from the edge of one space to the edge of the next. Inline icons on dark spaces sit on
a light disc. The finished board is checked: no two labels (texts, icons), arrows or spaces overlap
(:func:`overlaps`), and an overlap is an error naming both."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2

from wizprint.cards.lines import TomlLines
from wizprint.cards.model import Game, Record
from wizprint.cards.schema import ListOf, Number, Rec, Str, Table, TableOf, Whole, check_data, schema_issues
from wizprint.errors import DataErrors, FitError, Issue, WizprintError, quote
from wizprint.resources import layouts_dir

from .icons import icon_problem
from .layout import colour_problem, read_layout_file, shown_path
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import icon_box, layout_text
from .units import PT

MAX_SEALS = 12  # threat seals drawn on one space
SLOT_TOP = 10.0  # mm from the top of the centre space to its scenario slot (the space's name sits above)
SLOT_SIDE = 2.0  # mm the centre space needs at least beside and below the slot
ARROW_GAP = 3.0  # mm between an arrow's ends and the spaces it joins
OVERLAP_TOLERANCE = 0.05  # mm: shapes that overlap by less than this touch, they do not overlap


def _rings_fit(board: Rec) -> str | None:
    for name in ("outer", "middle"):
        ring = board[name]
        if board.size - 2 * board.margin - 2 * ring.inset - 2 * ring.corner <= 0:
            return f"the {name} ring leaves no room for its spaces (size, margin, inset and corner)"
    return None


def _slot_fits(inner: Rec) -> str | None:
    if inner.slot is None:
        return None
    (sw, sh), (cw, ch) = inner.slot, inner.centre
    if sw > cw - 2 * SLOT_SIDE or sh > ch - SLOT_TOP - SLOT_SIDE:
        return (f"the scenario slot ({sw:g} x {sh:g} mm) does not fit the centre space ({cw:g} x {ch:g} mm) below "
                f"its name: the centre needs at least {sw + 2 * SLOT_SIDE:g} x {sh + SLOT_TOP + SLOT_SIDE:g} mm")
    return None


_COLOUR = Str(20, then=colour_problem)
_MM = Number(0, 5000)
_LENGTH = Number(0, 5000, above=True)
_SIZE = Number(3, 100)
_PAIR = ListOf(_LENGTH, most=2, least=2)
_LABEL = Str(200)
_RING = Table({"tier": _LABEL, "inset": _MM, "depth": _LENGTH, "corner": _LENGTH, "per_side": Whole(1, 50)})
BOARD_FILE = Table({"board": Table({
    "size": Number(100, 5000), "margin": Number(0, 500), "background": _COLOUR,
    "title": (_LABEL, ""), "subtitle": (_LABEL, ""),
    "text_size": _SIZE, "min_text_size": _SIZE, "name_size": _SIZE,
    "label_size": (_SIZE, 6.2), "id_size": (_SIZE, 5.2), "heading_size": (_SIZE, 6.4), "min_name_size": (_SIZE, None),
    "colours": Table({k: _COLOUR for k in ("corner", "outer", "middle", "inner", "inner_text", "centre",
                                            "corner_band", "movement", "choose", "arrow")}
                     | {"band": (TableOf(_COLOUR, most=100), {}), "icon_disc": (_COLOUR, "#f3e6f7")}),
    "outer": _RING, "middle": _RING,
    "inner": Table({"rx": _MM, "ry": _MM, "space": _PAIR, "angles": ListOf(Number(-3600, 3600), most=100),
                    "centre": _PAIR, "slot": (_PAIR, None)}, then=_slot_fits),
}, then=_rings_fit)})
"""The schema of a board layout (``layouts/<game>/board.toml``, or ``board-layout.toml`` in a game folder)."""


def board_layout_path(game: Game) -> Path:
    own = game.root / "board-layout.toml"
    return own if own.is_file() else layouts_dir() / game.id / "board.toml"


def load_board_layout(game: Game) -> Mapping[str, Any] | None:
    """The ``[board]`` table of the board layout, checked (DataErrors, one issue per problem at its line)."""
    p = board_layout_path(game)
    if not p.is_file():
        return None
    shown = shown_path(game, p)
    data, text = read_layout_file(game, p)
    _, problems = check_data(BOARD_FILE, data)
    if problems:
        raise DataErrors(schema_issues(problems, shown, TomlLines(text)))
    board: Mapping[str, Any] = data["board"]
    return board


@dataclass(frozen=True)
class Place:
    """Where a space is drawn: its box on the board, and the turn of its contents (degrees clockwise)."""

    x: float
    y: float
    w: float  # the box on the board
    h: float
    rotate: int
    corner: bool

    @property
    def local(self) -> tuple[float, float]:
        """Width and height of the space as read (along its side, then its depth)."""
        return (self.h, self.w) if self.rotate % 180 else (self.w, self.h)

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)


def ring_places(size: float, margin: float, ring: Mapping[str, Any]) -> list[Place]:
    """Clockwise from the top-left corner: the corner, the spaces of the top side, the top-right corner..."""
    x0 = y0 = margin + float(ring["inset"])
    x1 = y1 = size - margin - float(ring["inset"])
    c, d, k = float(ring["corner"]), float(ring["depth"]), int(ring["per_side"])
    w = (x1 - x0 - 2 * c) / k
    out: list[Place] = []
    for side in range(4):
        for j in range(k + 1):
            if side == 0:
                out.append(Place(x0, y0, c, c, 0, True) if j == 0 else
                           Place(x0 + c + (j - 1) * w, y0, w, d, 180, False))
            elif side == 1:
                out.append(Place(x1 - c, y0, c, c, 0, True) if j == 0 else
                           Place(x1 - d, y0 + c + (j - 1) * w, d, w, 270, False))
            elif side == 2:
                out.append(Place(x1 - c, y1 - c, c, c, 0, True) if j == 0 else Place(x1 - c - j * w, y1 - d, w, d, 0,
                                                                                    False))
            else:
                out.append(Place(x0, y1 - c, c, c, 0, True) if j == 0 else Place(x0, y1 - c - j * w, d, w, 90, False))
    return out


def inner_places(size: float, inner: Mapping[str, Any]) -> list[Place]:
    cx = cy = size / 2
    w, h = (float(v) for v in inner["space"])
    out = []
    for a in inner["angles"]:
        r = math.radians(float(a))
        px, py = cx + float(inner["rx"]) * math.cos(r), cy + float(inner["ry"]) * math.sin(r)
        out.append(Place(px - w / 2, py - h / 2, w, h, 0, False))
    return out


def _line(size: float) -> float:
    """The height in mm of one line of text of ``size`` points (its ascent and descent, with a little room)."""
    return size * PT * 1.3


class BoardBuilder:
    def __init__(self, game: Game, data: Mapping[str, Any]):
        self.game = game
        self.data = data
        self.size = float(data["size"])
        self.col = data["colours"]
        self.issues: list[Issue] = []
        self.shown = shown_path(game, board_layout_path(game))

    def _text(self, markup: str, x: float, y: float, w: float, h: float, colour: str, size: float | None = None,
              font: str = "text", align: str = "left", valign: str = "top", space: Record | None = None,
              max_lines: int | None = None, min_size: float | None = None) -> Text | None:
        if not markup.strip():
            return None
        if min_size is None and font == "text":
            min_size = float(self.data["min_text_size"])
        try:
            lay = layout_text(markup, w, h, family_name=font, size=size or float(self.data["text_size"]),
                              min_size=min_size, align=align, valign=valign, max_lines=max_lines)
        except FitError as exc:
            who = space.id if space else ""
            file = space.source.file if space else self.shown
            self.issues.append(Issue(file, space.source.line if space else 0, who, f"board: {exc}"))
            return None
        return Text(x, y, w, h, lay, colour, self.game.id)

    def _height(self, markup: str, w: float) -> float:
        """The height in mm of ``markup`` laid out ``w`` mm wide at the text size (0 if a word is too wide)."""
        try:
            return layout_text(markup, w, 5000.0, size=float(self.data["text_size"])).height
        except FitError:
            return 0.0

    def discs(self, t: Text | None) -> list[Item]:
        """A light disc behind each inline icon of a text on a dark space, so that dark icons keep their contrast."""
        if t is None:
            return []
        out: list[Item] = []
        for r in t.layout.runs:
            if r.icon:
                ix, iy, isz = icon_box(r)
                rad = isz * 0.56  # the disc fills the icon's room on the line, no more
                out.append(Ellipse(t.x + ix + isz / 2, t.y + iy + isz / 2, rad, rad,
                                   Paint(fill=self.col["icon_disc"], stroke="#0c0c0c", stroke_width=0.15)))
        return out

    def slot(self, sp: Record, W: float, H: float) -> list[Item]:
        """The centre space's dashed slot for the scenario sheet, below the space's name, and its label."""
        slot = self.data["inner"].get("slot")
        sw, sh = (float(v) for v in slot) if slot else (W - 2 * SLOT_SIDE - 4, H - SLOT_TOP - SLOT_SIDE - 2)
        sx, sy = (W - sw) / 2, SLOT_TOP
        items: list[Item] = [Rect(sx, sy, sw, sh, Paint(stroke=self.col["arrow"], stroke_width=0.6, dash=(3.0, 2.0)),
                                  radius=2.0)]
        sub = self._text(f"*{self.data.get('subtitle', '')}*\n\nplace the scenario sheet here", sx + 4,
                         sy + sh - 34, sw - 8, 30, self.col["inner_text"], size=9, font="serif", align="center",
                         valign="bottom", space=sp)
        if sub:
            items.append(sub)
        return items

    def space(self, sp: Record, place: Place, centre: bool = False) -> Group:
        """One space, drawn upright in its own frame and turned to face the outer edge it belongs to (the centre
        space with the scenario sheet's slot)."""
        W, H = place.local
        tier = sp.get("tier")
        inner = tier in ("inner", "centre")
        bg = self.col["inner"] if inner else (self.col["corner"] if place.corner else self.col.get(str(tier)))
        if bg is None:
            raise ValueError(f"tier {quote(tier)} has no colour in the board layout")
        ink = self.col["inner_text"] if inner else "#1d1812"
        items: list[Item] = [Rect(0, 0, W, H, Paint(fill=bg, stroke="#0c0c0c", stroke_width=0.5), radius=1.2)]
        label_size, id_size = float(self.data.get("label_size", 6.2)), float(self.data.get("id_size", 5.2))
        band_h = max(5.2, _line(label_size) + 1.2, _line(id_size) + 1.2)  # the area's band: its label and the id
        id_w = id_size * PT * 2.6 + 1.0  # room for an id of three or four characters
        if not inner:
            band = self.col["band"].get(sp.get("area"), self.col["corner_band"])
            items.append(Rect(0, H - band_h, W, band_h, Paint(fill=band)))
            label = str(sp.get("area") or "").upper()
            t = self._text(f"**{label}**" if label else "", 2.0, H - band_h + 0.6, W - id_w - 3.5, band_h - 1.2,
                           "#ffffff", size=label_size, valign="middle", space=sp)
            if t:
                items.append(t)
        id_h = band_h if not inner else max(5.0, _line(id_size) + 1.2)
        tid = self._text(sp.id, W - id_w - 1.5, H - id_h + 0.6, id_w, id_h - 1.2,
                         "#ffffff" if not inner else self.col["inner_text"], size=id_size, align="right",
                         valign="middle", space=sp)
        if tid:
            items.append(tid)
        # the name, and the threat seals under it
        y = 1.8
        name_h = max(6.6, _line(float(self.data["name_size"])))
        name = self._text(sp.name, 2.0, y, W - 4.0, name_h, ink, size=float(self.data["name_size"]), font="display",
                          align="center", valign="middle", space=sp, max_lines=1,
                          min_size=float(self.data.get("min_name_size", self.data["name_size"])))
        if name:
            items.append(name)
        y += name_h + 0.4
        icons = dict(sp.get("icons") or {})
        counts = {c: icons.get(c, 0) for c in ("red", "blue", "yellow")}
        if not all(isinstance(n, int) and 0 <= n <= MAX_SEALS for n in counts.values()):
            raise ValueError(f"icons: each colour's count must be a whole number from 0 to {MAX_SEALS}")
        seals = [c for c, n in counts.items() for _ in range(n)]
        for c in set(seals):
            problem = icon_problem(f"threat-{c}", self.game.id)
            if problem:
                raise ValueError(problem)
        if seals:
            s = 6.4
            x = (W - len(seals) * (s + 0.8)) / 2
            for c in seals:
                items.append(IconPlace(f"threat-{c}", x, y, s, game=self.game.id))
                x += s + 0.8
            y += s + 1.0
        bottom = H - (band_h if not inner else id_h + 0.5) - 1.0
        vocab = self.game.vocabulary
        mbox = sp.get("movement_box")
        if mbox:
            mtext = f"**Movement box:** {vocab.render(mbox, sp)}"
            mh = max(11.4, self._height(mtext, W - 4.8))  # the box grows to hold its text at the text size
            items.append(Rect(1.4, y, W - 2.8, mh + 1.0, Paint(fill=self.col["movement"]), radius=1.0))
            t = self._text(mtext, 2.4, y + 0.5, W - 4.8, mh, "#1d1812", valign="middle", space=sp)
            if t:
                items.append(t)
            y += mh + 2.0
        boxes = [vocab.render(b, sp) for b in (sp.get("boxes") or ())]
        if sp.get("choose_one") and len(boxes) == 2:
            head_size = float(self.data.get("heading_size", 6.4))
            head_h = max(4.2, _line(head_size))
            head = self._text("**Choose One or End Engagement Phase**", 1.6, y, W - 3.2, head_h, ink, size=head_size,
                              align="center", valign="middle", space=sp)
            if head:
                items.append(head)
            y += head_h + 0.4
            half = (W - 4.2) / 2
            for k, b in enumerate(boxes):
                bx = 1.4 + k * (half + 1.4)
                items.append(Rect(bx, y, half, bottom - y, Paint(fill=self.col["choose"], stroke="#8a7a5a",
                                                                 stroke_width=0.25), radius=0.8))
                t = self._text(b, bx + 0.8, y + 0.6, half - 1.6, bottom - y - 1.2, "#1d1812", valign="middle", space=sp)
                if t:
                    items.append(t)
        elif boxes:
            t = self._text("\n".join(boxes), 2.4, y, W - 4.8, bottom - y, ink, valign="middle", space=sp)
            if t:
                if inner:
                    items.extend(self.discs(t))
                items.append(t)
        if centre:
            items.extend(self.slot(sp, W, H))
        group = Group(tuple(items), tx=place.x + (place.w - W) / 2, ty=place.y + (place.h - H) / 2, id=sp.id)
        if place.rotate:
            cx, cy = place.centre
            return Group((group,), rotate=place.rotate, cx=cx, cy=cy, id="")
        return group

    def arrow(self, a: Place, b: Place, name: str) -> Group:
        """An arrow from the edge of space ``a`` to the edge of space ``b`` (ARROW_GAP clear of both), as a group
        whose id names it (``arrow-<from>-<to>``)."""
        (ax, ay), (bx, by) = a.centre, b.centre
        d = math.hypot(bx - ax, by - ay)
        if d <= 0:
            raise ValueError(f"{name}: the two spaces have the same centre")
        ux, uy = (bx - ax) / d, (by - ay) / d

        w, head = 2.6, 6.0

        def edge(p: Place, grow: float) -> float:  # from a box's centre along the arrow to its edge, box grown
            return min((p.w / 2 + grow) / abs(ux) if ux else math.inf, (p.h / 2 + grow) / abs(uy) if uy else math.inf)

        # the box grown by the arrow's half width (at its tail) and by the head's (at its tip): the whole arrow, not
        # just its middle line, keeps ARROW_GAP clear of both spaces and of their neighbours
        start, end = edge(a, w / 2) + ARROW_GAP, d - edge(b, w * 1.6) - ARROW_GAP
        if end - start < head + 2.0:
            raise ValueError(f"{name}: the spaces are too close for an arrow between them ({max(end - start, 0):.1f} "
                             f"mm, at least {head + 2.0:g})")
        sx, sy = ax + ux * start, ay + uy * start
        ex, ey = ax + ux * end, ay + uy * end
        px, py = -uy, ux
        hx, hy = ex - ux * head, ey - uy * head
        pts = ((sx + px * w / 2, sy + py * w / 2), (hx + px * w / 2, hy + py * w / 2),
               (hx + px * w * 1.6, hy + py * w * 1.6), (ex, ey), (hx - px * w * 1.6, hy - py * w * 1.6),
               (hx - px * w / 2, hy - py * w / 2), (sx - px * w / 2, sy - py * w / 2))
        return Group((Poly(pts, Paint(fill=self.col["arrow"], stroke="#3b2a05", stroke_width=0.3)),), id=name)

    def scene(self) -> Scene:
        size = self.size
        margin = float(self.data["margin"])
        sc = Scene(size, size, 0.0, str(self.data["background"]), key=f"{self.game.id}/board")
        spaces = {r.id: r for r in self.game.of_kind("space")}
        by_tier: dict[str, dict[int, Record]] = {}
        for r in spaces.values():
            pos = r.get("position")
            if isinstance(pos, bool) or not isinstance(pos, int):
                self.issues.append(Issue(r.source.file, r.source.line, r.id, "board: a space needs a whole number "
                                                                             "'position'"))
                continue
            by_tier.setdefault(str(r.get("tier")), {})[pos] = r
        places: dict[str, Place] = {}
        for key in ("outer", "middle"):
            ring = self.data[key]
            for pos, place in enumerate(ring_places(size, margin, ring)):
                sp = by_tier.get(ring["tier"], {}).get(pos)
                if sp is None:
                    self.issues.append(Issue(self.shown, 0, "", f"no {quote(ring['tier'])} space at position {pos}"))
                    continue
                places[sp.id] = place
        inner = self.data["inner"]
        for pos, place in enumerate(inner_places(size, inner)):
            sp = by_tier.get("inner", {}).get(pos)
            if sp is not None:
                places[sp.id] = place
        cw, ch = (float(v) for v in inner["centre"])
        centre = next(iter(by_tier.get("centre", {}).values()), None)
        if centre is not None:
            places[centre.id] = Place(size / 2 - cw / 2, size / 2 - ch / 2, cw, ch, 0, False)
        # the title in the space between the Middle tier and the Inner tier
        t = self._text(f"**{self.data.get('title', '')}**", size / 2 - 100, margin + float(self.data["middle"]["inset"])
                       + float(self.data["middle"]["corner"]) + 4, 200, 16, "#e8d48b", size=30, font="display",
                       align="center", valign="middle")
        if t:
            sc.add(t)
        for sid, place in places.items():
            sp = spaces[sid]
            try:
                sc.add(self.space(sp, place, centre=centre is not None and sid == centre.id))
            except (jinja2.TemplateError, ValueError, TypeError, LookupError, AttributeError, ArithmeticError,
                    WizprintError) as exc:
                if isinstance(exc, DataErrors):
                    raise
                msg = f"template error: {exc.message}" if isinstance(exc, jinja2.TemplateError) else str(exc)
                self.issues.append(Issue(sp.source.file, sp.source.line, sp.id, f"board: {msg}"))
        # the Inner tier's directional arrows, and the way in from the space whose movement box enters it
        arrows = [(sid, str(spaces[sid].get("next"))) for sid in places if spaces[sid].get("next") in places]
        arrows += [(sid, str(e.get("to"))) for sid, sp in spaces.items() for e in sp.get("movement_box") or ()
                   if e.word == "enter_inner" and e.get("to") in places and sid in places]
        for a, b in arrows:
            try:
                sc.add(self.arrow(places[a], places[b], f"arrow-{a}-{b}"))
            except ValueError as exc:
                self.issues.append(Issue(spaces[a].source.file, spaces[a].source.line, a, f"board: {exc}"))
        if not self.issues:
            self.issues.extend(Issue(self.shown, 0, "", f"board: {msg}") for msg in overlaps(sc))
        if self.issues:
            raise DataErrors(self.issues)
        return sc


def board_scene(game: Game) -> Scene | None:
    data = load_board_layout(game)
    if data is None or not game.of_kind("space"):
        return None
    return BoardBuilder(game, data).scene()


def check_board(game: Game) -> list[Issue]:
    """Every problem that stops a game's board from being built (for ``validate``)."""
    try:
        board_scene(game)
    except DataErrors as exc:
        return list(exc.issues)
    return []


# -- the overlap check ----------------------------------------------------------------------------------------
Shape = tuple[tuple[float, float], ...]  # a convex polygon on the board, in mm


@dataclass(frozen=True)
class Mark:
    """Something drawn on the board that must not overlap another mark: a label (a text's lines, an icon), an
    arrow or a space; ``shapes`` are convex polygons in board coordinates."""

    what: str
    shapes: tuple[Shape, ...]
    owner: str = ""  # the space it belongs to: a space's own labels lie on it


def _transform(pts: Shape, frames: tuple[Group, ...]) -> Shape:
    """Points of a group's children in board coordinates (frames: the enclosing groups, outermost first)."""
    out = []
    for x, y in pts:
        for g in reversed(frames):  # as the back ends draw a group: scaled, turned about (cx, cy), then moved
            if g.scale != 1:
                x, y = g.cx + (x - g.cx) * g.scale, g.cy + (y - g.cy) * g.scale
            if g.rotate:
                a = math.radians(g.rotate)
                dx, dy = x - g.cx, y - g.cy
                x, y = g.cx + dx * math.cos(a) - dy * math.sin(a), g.cy + dx * math.sin(a) + dy * math.cos(a)
            x, y = x + g.tx, y + g.ty
        out.append((x, y))
    return tuple(out)


def _box(x: float, y: float, w: float, h: float) -> Shape:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def _hull(pts: Shape) -> Shape:
    """The convex hull of points (monotone chain)."""
    ps = sorted(set(pts))
    if len(ps) < 3:
        return tuple(ps)

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in ps:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(ps):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return tuple(lower[:-1] + upper[:-1])


def _text_lines(t: Text) -> list[Shape]:
    """The ink of a text, line by line (cap height to descender), and of its inline icons, relative to its box."""
    lines: dict[float, list[float]] = {}
    out: list[Shape] = []
    for r in t.layout.runs:
        if r.icon:
            ix, iy, isz = icon_box(r)
            out.append(_box(t.x + ix, t.y + iy, isz, isz))
            continue
        size = r.size * PT
        top, bottom = r.baseline - 0.72 * size, r.baseline + 0.22 * size
        box = lines.setdefault(r.baseline, [math.inf, top, -math.inf, bottom])
        box[0], box[2] = min(box[0], r.x), max(box[2], r.x + r.w)
        box[1], box[3] = min(box[1], top), max(box[3], bottom)
    out += [_box(t.x + x0, t.y + y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in lines.values()]
    return out


def _plain_text(t: Text) -> str:
    words = " ".join(r.text if r.text else f":{r.icon}:" for r in t.layout.runs)
    return words if len(words) <= 40 else words[:39] + "\u2026"


def board_marks(scene: Scene) -> list[Mark]:
    """The marks of a board scene: every text and icon (labels), every arrow and every space."""
    out: list[Mark] = []

    def walk(items: tuple[Item, ...] | list[Item], frames: tuple[Group, ...], space: str) -> None:
        for it in items:
            if isinstance(it, Group):
                sid = space
                if it.id.startswith("arrow-"):
                    pts = tuple(p for ch in it.children if isinstance(ch, Poly) for p in ch.points)
                    out.append(Mark(f"the arrow {it.id[6:].replace('-', ' -> ', 1)}",
                                    (_hull(_transform(pts, (*frames, it))),)))
                    continue
                if it.id and not space:
                    sid = it.id
                    frame = next((ch for ch in it.children if isinstance(ch, Rect)), None)
                    if frame is not None:
                        out.append(Mark(f"the space {sid}", (_transform(_box(frame.x, frame.y, frame.w, frame.h),
                                                                        (*frames, it)),), owner=sid))
                walk(it.children, (*frames, it), sid)
            elif isinstance(it, Text):
                where = f" on {space}" if space else ""
                out.append(Mark(f"the text {quote(_plain_text(it))}{where}",
                                tuple(_transform(s, frames) for s in _text_lines(it)), owner=space))
            elif isinstance(it, IconPlace):
                where = f" on {space}" if space else ""
                out.append(Mark(f"the icon {quote(it.name)}{where}",
                                (_transform(_box(it.x, it.y, it.size, it.size), frames),), owner=space))

    walk(scene.items, (), "")
    return out


def _bounds(s: Shape) -> tuple[float, float, float, float]:
    xs, ys = [p[0] for p in s], [p[1] for p in s]
    return min(xs), min(ys), max(xs), max(ys)


def _overlap(a: Shape, b: Shape) -> bool:
    """True when two convex polygons overlap by more than OVERLAP_TOLERANCE (separating axis test)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            nx, ny = y2 - y1, x1 - x2
            ln = math.hypot(nx, ny)
            if ln == 0:
                continue
            nx, ny = nx / ln, ny / ln
            pa = [x * nx + y * ny for x, y in a]
            pb = [x * nx + y * ny for x, y in b]
            if min(max(pa), max(pb)) - max(min(pa), min(pb)) <= OVERLAP_TOLERANCE:
                return False
    return True


def overlaps(scene: Scene, limit: int = 20) -> list[str]:
    """Every pair of marks on a board scene that overlap, as messages naming both (at most ``limit``). A space's
    own labels lie on the space; any other overlap (two labels, a label and an arrow, an arrow and a space, two
    spaces...) is reported."""
    marks = board_marks(scene)
    shapes = [(i, s, _bounds(s)) for i, m in enumerate(marks) for s in m.shapes]
    shapes.sort(key=lambda e: e[2][0])
    found: dict[tuple[int, int], None] = {}
    active: list[tuple[int, Shape, tuple[float, float, float, float]]] = []
    for i, s, bb in shapes:
        active = [e for e in active if e[2][2] > bb[0] + OVERLAP_TOLERANCE]
        for j, t, cc in active:
            if i == j or (min(i, j), max(i, j)) in found:
                continue
            a, b = marks[i], marks[j]
            if a.owner and a.owner == b.owner and (a.what.startswith("the space ") or b.what.startswith("the space ")):
                continue
            if cc[1] >= bb[3] - OVERLAP_TOLERANCE or bb[1] >= cc[3] - OVERLAP_TOLERANCE:
                continue
            if _overlap(s, t):
                found[(min(i, j), max(i, j))] = None
        active.append((i, s, bb))
    msgs = [f"{marks[i].what} overlaps {marks[j].what}" for i, j in sorted(found)]
    if len(msgs) > limit:
        msgs = [*msgs[:limit], f"and {len(msgs) - limit} more overlaps"]
    return msgs
