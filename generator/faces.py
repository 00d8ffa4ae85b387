"""Evaluate a layout face for one record: jinja2 values, conditions and repeats, text fitting -> a Scene."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import jinja2

from wizprint.cards.markup import fragments
from wizprint.cards.model import Game, Record
from wizprint.errors import DataErrors, FitError, Issue

from .icons import icon_exists
from .layout import Element, Face, GameLayout
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import layout_text

_env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)
_env.filters["signed"] = lambda n: f"+{n}" if n >= 0 else f"\u2212{-n}"
_tcache: dict[str, jinja2.Template] = {}
_ecache: dict[str, Any] = {}


def _is_template(v: Any) -> bool:
    return isinstance(v, str) and ("{{" in v or "{%" in v)


def render_value(v: Any, ctx: Mapping[str, Any]) -> Any:
    if _is_template(v):
        t = _tcache.get(v)
        if t is None:
            t = _tcache[v] = _env.from_string(v)
        return t.render(ctx)
    if isinstance(v, list):
        return [render_value(x, ctx) for x in v]
    return v


def eval_expr(expr: Any, ctx: Mapping[str, Any]) -> Any:
    if not isinstance(expr, str):
        return expr
    f = _ecache.get(expr)
    if f is None:
        f = _ecache[expr] = _env.compile_expression(expr)
    return f(**ctx)


def _num(v: Any) -> float:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return float(str(v).strip())


def _colour(v: Any) -> str | None:
    if v is None:
        return None
    s = str(v).strip()
    if not s or s == "none":
        return None
    return s


class Fields(dict[str, Any]):
    """A record's fields for templates: ``c.vp`` is None when the card's type declares ``vp`` but the card
    leaves it out; an undeclared name is an error."""

    def __init__(self, values: Mapping[str, Any], declared: set[str]):
        super().__init__(values)
        self._declared = declared

    def __getattr__(self, name: str) -> Any:
        if name in self:
            return self[name]
        if name in self._declared:
            return None
        raise AttributeError(name)


def card_context(game: Game, layout: GameLayout, record: Record | None, size: tuple[float, float],
                 deck: str) -> dict[str, Any]:
    """The variables a face template sees."""
    ctx: dict[str, Any] = {
        "game": game.decl, "style": layout.style, "W": size[0], "H": size[1],
        "deck": game.decl.decks.get(deck),
        "version": game.decl.version, "short": game.decl.short,
        # the printed text of any effects-valued field, e.g. {{ fx(c.reward) }}
        "fx": lambda effs: game.vocabulary.render(effs or (), record),
        "name_of": lambda rid: game.vocabulary.names.get(rid, rid),
    }
    if record is not None:
        ctx.update(card=record, c=Fields(record.fields, set(game.decl.fields)), text=game.text(record),
                   type=game.decl.types.get(record.type),
                   effects=record.effects, effect=record.effects[0] if record.effects else None)
    return ctx


class ElementError(Exception):
    """A problem in one layout element, with the element's line in the layout file."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


class FaceBuilder:
    """Builds scenes from a game's layout faces."""

    def __init__(self, game: Game, layout: GameLayout, bleed: float):
        self.game = game
        self.layout = layout
        self.bleed = bleed

    def scene(self, face: Face, record: Record | None, deck: str) -> Scene:
        """The scene of ``face`` for ``record`` (None for a back), at the size of ``deck`` (a deck or a record
        kind with sheets)."""
        size = self.layout.size_of(deck)
        ctx = card_context(self.game, self.layout, record, size, deck)
        who = record.id if record is not None else f"back of {deck}"
        try:
            bg = _colour(render_value(face.background, ctx))
            scene = Scene(size[0], size[1], self.bleed, bg)
            for el in face.elements:
                for item in self._element(el, ctx, face, size, who):
                    scene.add(item)
        except ElementError as exc:
            raise DataErrors([Issue(self.layout.file, exc.line, who, f"face '{face.id}': {exc}")]) from None
        except (jinja2.TemplateError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise DataErrors([Issue(self.layout.file, face.line, who,
                                    f"face '{face.id}': {type(exc).__name__}: {exc}")]) from None
        scene.key = f"{self.game.id}/{deck}/{face.id}/{record.id if record else '*back*'}"
        return scene

    def _element(self, el: Element, ctx: Mapping[str, Any], face: Face, size: tuple[float, float], who: str
                 ) -> list[Item]:
        try:
            p = el.props
            n = int(eval_expr(p.get("repeat", 1), ctx) or 0)
            step = [_num(render_value(v, ctx)) for v in p.get("step", [0, 0])]
            out: list[Item] = []
            for i in range(n):
                local = dict(ctx, i=i)
                # `when` is checked for each repetition, so it may use the repetition's index i
                if "when" in p and not eval_expr(p["when"], local):
                    continue
                item = self._one(el, local, face, size, who)
                if item is None:
                    continue
                if i and (step[0] or step[1]):
                    item = Group((item,), tx=step[0] * i, ty=step[1] * i)
                out.append(item)
            return out
        except FitError as exc:
            raise ElementError(str(exc), el.line) from None
        except (jinja2.TemplateError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ElementError(f"{type(exc).__name__}: {exc}", el.line) from None

    def _box(self, p: Mapping[str, Any], ctx: Mapping[str, Any]) -> tuple[float, float, float, float]:
        x, y, w, h = (_num(render_value(v, ctx)) for v in p["box"])
        return x, y, w, h

    def _paint(self, p: Mapping[str, Any], ctx: Mapping[str, Any]) -> Paint:
        dash = tuple(_num(v) for v in p.get("dash", ()))
        return Paint(fill=_colour(render_value(p.get("fill"), ctx)), stroke=_colour(render_value(p.get("stroke"), ctx)),
                     stroke_width=_num(render_value(p.get("stroke_width", 0.3), ctx)), dash=dash,
                     opacity=_num(render_value(p.get("opacity", 1.0), ctx)))

    def _one(self, el: Element, ctx: Mapping[str, Any], face: Face, size: tuple[float, float], who: str
             ) -> Item | None:
        p = el.props
        kind = el.kind
        item: Item
        if kind == "rect":
            x, y, w, h = self._box(p, ctx)
            if p.get("bleed"):
                b = self.bleed
                W, H = size
                if x <= 0:
                    w, x = w + x + b, -b
                if y <= 0:
                    h, y = h + y + b, -b
                if x + w >= W:
                    w = W + b - x
                if y + h >= H:
                    h = H + b - y
            item = Rect(x, y, w, h, self._paint(p, ctx), _num(render_value(p.get("radius", 0), ctx)))
        elif kind == "ellipse":
            x, y, w, h = self._box(p, ctx)
            item = Ellipse(x + w / 2, y + h / 2, w / 2, h / 2, self._paint(p, ctx))
        elif kind in ("line", "polygon"):
            pts = [_num(render_value(v, ctx)) for v in p["points"]]
            pairs = tuple((pts[i], pts[i + 1]) for i in range(0, len(pts) - 1, 2))
            item = Poly(pairs, self._paint(p, ctx), closed=(kind == "polygon"))
        elif kind == "text":
            x, y, w, h = self._box(p, ctx)
            markup = str(render_value(p.get("text", ""), ctx))
            if not markup.strip():
                return None
            fam = str(render_value(p.get("font", "text"), ctx))
            sz = _num(render_value(p.get("size", 8), ctx))
            mins = p.get("min_size")
            lay = layout_text(markup, w, h, family_name=fam, size=sz,
                              min_size=_num(render_value(mins, ctx)) if mins is not None else None,
                              leading=_num(p.get("leading", 1.2)), para_gap=_num(p.get("para_gap", 0.35)),
                              align=str(render_value(p.get("align", "left"), ctx)),
                              valign=str(render_value(p.get("valign", "top"), ctx)),
                              max_lines=int(p["max_lines"]) if "max_lines" in p else None)
            for f in fragments(markup):
                if f is not None and f.icon and not icon_exists(f.icon, self.game.id):
                    raise KeyError(f"unknown icon ':{f.icon}:' in text")
            self._check_safe(x, y, w, h, float(p.get("rotate", 0) or 0), face, size, el)
            item = Text(x, y, w, h, lay, _colour(render_value(p.get("color", "#1a1a1a"), ctx)) or "#000000",
                        self.game.id)
        elif kind == "icon":
            x, y, w, h = self._box(p, ctx)
            name = str(render_value(p.get("name", ""), ctx)).strip()
            if not name:
                return None
            if not icon_exists(name, self.game.id):
                raise KeyError(f"unknown icon '{name}'")
            s = min(w, h)
            item = IconPlace(name, x + (w - s) / 2, y + (h - s) / 2, s,
                             _colour(render_value(p.get("color", "#1a1a1a"), ctx)) or "#000000", self.game.id)
        else:  # pragma: no cover - load_layout rejects unknown kinds
            raise ValueError(kind)
        rot = float(_num(render_value(p.get("rotate", 0), ctx)))
        if rot:
            if "box" in p:
                x, y, w, h = self._box(p, ctx)
                cx, cy = x + w / 2, y + h / 2
            else:
                cx, cy = size[0] / 2, size[1] / 2
            item = Group((item,), rotate=rot, cx=cx, cy=cy)
        return item

    @staticmethod
    def _check_safe(x: float, y: float, w: float, h: float, rot: float, face: Face, size: tuple[float, float],
                    el: Element) -> None:
        if rot % 180:
            cx, cy = x + w / 2, y + h / 2
            a = math.radians(rot)
            hw = abs(w / 2 * math.cos(a)) + abs(h / 2 * math.sin(a))
            hh = abs(w / 2 * math.sin(a)) + abs(h / 2 * math.cos(a))
            x, y, w, h = cx - hw, cy - hh, 2 * hw, 2 * hh
        s = face.safe
        eps = 1e-6
        if x < s - eps or y < s - eps or x + w > size[0] - s + eps or y + h > size[1] - s + eps:
            err = FitError(f"text box [{x:.1f}, {y:.1f}, {w:.1f}, {h:.1f}] leaves the safe zone "
                           f"({s:g} mm inside the cut)")
            raise err
