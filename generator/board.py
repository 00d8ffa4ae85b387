"""A game board drawn from its space records and ``layouts/<game>/board.toml``: square rings of spaces (corners
and `per_side` area spaces per side) for the outer tiers, a path of spaces on an ellipse for the inner tier, and
a centre space. Each space becomes one group whose SVG id is the space's id; its text boxes are rendered from
their effects like card text, and a text that does not fit is an error naming the space."""

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
from .scene import Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import layout_text

MAX_SEALS = 12  # threat seals drawn on one space


def _rings_fit(board: Rec) -> str | None:
    for name in ("outer", "middle"):
        ring = board[name]
        if board.size - 2 * board.margin - 2 * ring.inset - 2 * ring.corner <= 0:
            return f"the {name} ring leaves no room for its spaces (size, margin, inset and corner)"
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
    "colours": Table({k: _COLOUR for k in ("corner", "outer", "middle", "inner", "inner_text", "centre",
                                            "corner_band", "movement", "choose", "arrow")}
                     | {"band": (TableOf(_COLOUR, most=100), {})}),
    "outer": _RING, "middle": _RING,
    "inner": Table({"rx": _MM, "ry": _MM, "space": _PAIR, "angles": ListOf(Number(-3600, 3600), most=100),
                    "centre": _PAIR}),
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
              max_lines: int | None = None) -> Text | None:
        if not markup.strip():
            return None
        try:
            lay = layout_text(markup, w, h, family_name=font, size=size or float(self.data["text_size"]),
                              min_size=float(self.data["min_text_size"]) if font == "text" else None, align=align,
                              valign=valign, max_lines=max_lines)
        except FitError as exc:
            who = space.id if space else ""
            file = space.source.file if space else self.shown
            self.issues.append(Issue(file, space.source.line if space else 0, who, f"board: {exc}"))
            return None
        return Text(x, y, w, h, lay, colour, self.game.id)

    def space(self, sp: Record, place: Place) -> Group:
        """One space, drawn upright in its own frame and turned to face the outer edge it belongs to."""
        W, H = place.local
        tier = sp.get("tier")
        inner = tier in ("inner", "centre")
        bg = self.col["inner"] if inner else (self.col["corner"] if place.corner else self.col.get(str(tier)))
        if bg is None:
            raise ValueError(f"tier {quote(tier)} has no colour in the board layout")
        ink = self.col["inner_text"] if inner else "#1d1812"
        items: list[Item] = [Rect(0, 0, W, H, Paint(fill=bg, stroke="#0c0c0c", stroke_width=0.5), radius=1.2)]
        band_h = 5.2
        if not inner:
            band = self.col["band"].get(sp.get("area"), self.col["corner_band"])
            items.append(Rect(0, H - band_h, W, band_h, Paint(fill=band)))
            label = str(sp.get("area") or "").upper()
            t = self._text(f"**{label}**" if label else "", 2.0, H - band_h + 0.6, W - 14, band_h - 1.2, "#ffffff",
                           size=6.2, valign="middle", space=sp)
            if t:
                items.append(t)
        tid = self._text(sp.id, W - 12.5, H - (band_h if not inner else 5.0) + 0.6, 11, 4.0,
                         "#ffffff" if not inner else self.col["inner_text"], size=5.2, align="right", valign="middle",
                         space=sp)
        if tid:
            items.append(tid)
        # the name, and the threat seals under it
        y = 1.8
        name = self._text(sp.name, 2.0, y, W - 4.0, 6.6, ink, size=float(self.data["name_size"]), font="display",
                          align="center", valign="middle", space=sp, max_lines=1)
        if name:
            items.append(name)
        y += 7.0
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
        bottom = H - (band_h if not inner else 5.5) - 1.0
        vocab = self.game.vocabulary
        mbox = sp.get("movement_box")
        if mbox:
            mtext = vocab.render(mbox, sp)
            items.append(Rect(1.4, y, W - 2.8, 12.4, Paint(fill=self.col["movement"]), radius=1.0))
            t = self._text(f"**Movement box:** {mtext}", 2.4, y + 0.5, W - 4.8, 11.4, "#1d1812", valign="middle",
                           space=sp)
            if t:
                items.append(t)
            y += 13.4
        boxes = [vocab.render(b, sp) for b in (sp.get("boxes") or ())]
        if sp.get("choose_one") and len(boxes) == 2:
            head = self._text("**Choose One or End Engagement Phase**", 1.6, y, W - 3.2, 4.2, ink, size=6.4,
                              align="center", valign="middle", space=sp)
            if head:
                items.append(head)
            y += 4.6
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
                items.append(t)
        group = Group(tuple(items), tx=place.x + (place.w - W) / 2, ty=place.y + (place.h - H) / 2, id=sp.id)
        if place.rotate:
            cx, cy = place.centre
            return Group((group,), rotate=place.rotate, cx=cx, cy=cy, id="")
        return group

    def arrow(self, a: tuple[float, float], b: tuple[float, float], shorten: float = 26.0) -> Poly:
        ax, ay = a
        bx, by = b
        d = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / d, (by - ay) / d
        sx, sy = ax + ux * shorten, ay + uy * shorten
        ex, ey = bx - ux * shorten, by - uy * shorten
        px, py = -uy, ux
        w, head = 2.6, 6.0
        hx, hy = ex - ux * head, ey - uy * head
        pts = ((sx + px * w / 2, sy + py * w / 2), (hx + px * w / 2, hy + py * w / 2),
               (hx + px * w * 1.6, hy + py * w * 1.6), (ex, ey), (hx - px * w * 1.6, hy - py * w * 1.6),
               (hx - px * w / 2, hy - py * w / 2), (sx - px * w / 2, sy - py * w / 2))
        return Poly(pts, Paint(fill=self.col["arrow"], stroke="#3b2a05", stroke_width=0.3))

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
                sc.add(self.space(sp, place))
            except (jinja2.TemplateError, ValueError, TypeError, LookupError, AttributeError, ArithmeticError,
                    WizprintError) as exc:
                if isinstance(exc, DataErrors):
                    raise
                msg = f"template error: {exc.message}" if isinstance(exc, jinja2.TemplateError) else str(exc)
                self.issues.append(Issue(sp.source.file, sp.source.line, sp.id, f"board: {msg}"))
        # the Inner tier's directional arrows, and the way in from the space whose movement box enters it
        for sid, place in places.items():
            nxt = spaces[sid].get("next")
            if nxt and nxt in places:
                sc.add(self.arrow(place.centre, places[nxt].centre, shorten=31.0))
        for sid, sp in spaces.items():
            for e in sp.get("movement_box") or ():
                if e.word == "enter_inner" and e.get("to") in places and sid in places:
                    sc.add(self.arrow(places[sid].centre, places[e.get("to")].centre, shorten=40.0))
        if centre is not None:
            p = places[centre.id]
            sc.add(Rect(p.x + 4, p.y + 10, p.w - 8, p.h - 14, Paint(stroke=self.col["arrow"], stroke_width=0.6,
                                                                      dash=(3.0, 2.0)), radius=2.0))
            sub = self._text(f"*{self.data.get('subtitle', '')}*\n\nplace the scenario sheet here", p.x + 8,
                             p.y + p.h - 40, p.w - 16, 30, self.col["inner_text"], size=9, font="serif",
                             align="center", valign="bottom")
            if sub:
                sc.add(sub)
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
