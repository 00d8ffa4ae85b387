"""Evaluate a layout face for one record: jinja2 values (in the sandbox of :mod:`.layout`), conditions and repeats,
text fitting -> a Scene. Every value a template computes is checked like a literal one (finite numbers in range,
colours, icon names), so a bad value is an error naming the element's line and the card."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, cast

import jinja2

from wizprint.cards.model import Game, Record
from wizprint.cards.schema import CONTROL
from wizprint.errors import DataErrors, FitError, Issue, WizprintError, quote

from . import shortcuts
from .icons import icon_problem
from .layout import CHOICES as _CHOICES
from .layout import (
    Element,
    Face,
    GameLayout,
    colour_value,
    deck_constant,
    deck_constants_fixed,
    is_template,
    number,
    reads,
    render_template,
    run_expression,
)
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import layout_text

_UNKNOWN = object()  # not worked out yet (None is a value: an element that draws nothing)


def _templated(v: Any) -> bool:
    """Whether a property value holds a template anywhere (a list of numbers may hold one)."""
    if isinstance(v, list):
        return any(_templated(x) for x in v)
    return is_template(v)


def _template_sources(v: Any, out: list[str]) -> None:
    """Every template in a property value (lists searched), in order."""
    if isinstance(v, list):
        for x in v:
            _template_sources(x, out)
    elif is_template(v):
        out.append(v)


_TEXT_SETTINGS = ("font", "size", "min_size", "align", "valign", "leading", "para_gap", "max_lines")
_PLAIN, _DECK, _READS, _OTHER = range(4)  # what a text value of a face is (see _kind)


@cache
def _kind(v: str) -> int:
    """What a face's text value is: plain text; a template that only reads what is the same for every record of a
    deck; one that only reads (see layout.reads); or any other template."""
    if not is_template(v):
        return _PLAIN
    if deck_constant(v):
        return _DECK
    return _READS if reads(v) is not None else _OTHER


MAX_FACE_ITEMS = 2_000  # items one face may draw (repeats counted)
MAX_GAME_ITEMS = 200_000  # items all the faces of a game may draw together


def render_value(v: Any, ctx: Mapping[str, Any]) -> Any:
    if is_template(v):
        return render_template(v, ctx)
    if isinstance(v, list):
        return [render_value(x, ctx) for x in v]
    return v


def eval_expr(expr: Any, ctx: Mapping[str, Any]) -> Any:
    if not isinstance(expr, str):
        return expr
    return run_expression(expr, ctx)


def _describe(exc: BaseException) -> str:
    """An error inside a face as plain words."""
    if isinstance(exc, jinja2.exceptions.SecurityError):
        return f"template refused: {exc.message or exc}"
    if isinstance(exc, jinja2.TemplateError):
        return f"template error: {exc.message or exc}"
    if isinstance(exc, KeyError):
        return f"no {quote(exc.args[0] if exc.args else '?')}"
    return str(exc) or type(exc).__name__


_ERRORS = (jinja2.TemplateError, ValueError, TypeError, LookupError, AttributeError, ArithmeticError, WizprintError)


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
                 deck: str, text: str | None = None) -> dict[str, Any]:
    """The variables a face template sees (``text``: the record's rules text, when already rendered)."""
    ctx: dict[str, Any] = {
        "game": game.decl, "style": layout.style, "W": size[0], "H": size[1],
        "deck": game.decl.decks.get(deck),
        "version": game.decl.version, "short": game.decl.short,
        # the printed text of any effects-valued field, e.g. {{ fx(c.reward) }}
        "fx": lambda effs: game.vocabulary.render(effs or (), record),
        "name_of": lambda rid: game.vocabulary.names.get(rid, rid),
    }
    if record is not None:
        ctx.update(card=record, c=Fields(record.fields, set(game.decl.fields)),
                   text=game.text(record) if text is None else text,
                   type=game.decl.types.get(record.type),
                   effects=record.effects, effect=record.effects[0] if record.effects else None)
    return ctx


class ElementError(Exception):
    """A problem in one layout element, with the element's line in the layout file."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


def _element_error(exc: Exception, el: Element) -> Exception:
    """What a problem met while drawing ``el`` is reported as: a text that does not fit says so, the data's own
    errors go on as they are, anything else is described; with the element's line."""
    if isinstance(exc, DataErrors):
        return exc
    return ElementError(str(exc) if isinstance(exc, FitError) else _describe(exc), el.line)


class FaceBuilder:
    """Builds scenes from a game's layout faces.

    With the printer's shortcuts on (see shortcuts.py), a builder keeps what it works out that is the same for
    every record giving it the same inputs, in three tables:

    - ``_fixed``: what an element's properties without templates come to (a number, its paint, its text settings,
      the list of its templates), by element and property: a layout's element is the same for every record;
    - ``_deck_values``: the values of templates that only read what is the same for every record of a deck (the
      style, the game...), by deck and size;
    - ``_items``: the item an element drew, by element, deck, size and the values of its templates: templates that
      give the values they gave for an earlier record draw the same item (a frame in the colour of the card's
      type, a rules text many cards share);

    and, for the scene being drawn, the value of each of its templates that only read (``_scene_values``: a
    template several elements share, or that an item's key and the item both need, is rendered once). With the
    shortcuts off, each value is worked out every time."""

    def __init__(self, game: Game, layout: GameLayout, bleed: float):
        self.game = game
        self.layout = layout
        self.bleed = bleed
        self.drawn = 0  # items drawn by this builder, all faces together (bounded: MAX_GAME_ITEMS)
        self.quick = shortcuts.enabled()
        self._fixed: dict[tuple[Element, str], Any] = {}
        self._deck_values: dict[tuple[str, tuple[float, float]], dict[Any, Any]] = {}
        self._items: dict[tuple[Element, tuple[str, tuple[float, float]], tuple[Any, ...]], Item | None] = {}
        # the scene being drawn: its deck and size, its table of _deck_values (None: none may be kept, see
        # layout.deck_constants_fixed), the values of its templates, and its variables with the repetition's index
        self._drawing: tuple[str, tuple[float, float]] = ("", (0.0, 0.0))
        self._deck_table: dict[Any, Any] | None = None
        self._scene_values: dict[Any, Any] = {}
        self._local: dict[str, Any] = {}

    def scene(self, face: Face, record: Record | None, deck: str, *, size: tuple[float, float] | None = None,
              part: Mapping[str, Any] | None = None, who: str = "") -> Scene:
        """The scene of ``face`` for ``record`` (None for a back), at the size of ``deck`` (a deck or a record
        kind with sheets); or, for a sheet of a map, at ``size`` with the sheet's variables ``part`` (its
        templates see them as ``part.<name>``) and ``who`` naming it in messages."""
        size = size or self.layout.size_of(deck)
        who = who or (record.id if record is not None else f"back of {deck}")
        text = None
        if record is not None:
            try:  # the rules text comes from the record's effects and the vocabulary: a problem there is the record's
                text = self.game.text(record)
            except _ERRORS as exc:
                if isinstance(exc, DataErrors):
                    raise
                raise DataErrors([Issue(record.source.file, record.source.line, record.id,
                                        f"rules text: {_describe(exc)}")]) from None
        ctx = card_context(self.game, self.layout, record, size, deck, text)
        if part is not None:
            ctx["part"] = dict(part)
            self._deck_table = None
        elif self.quick and deck_constants_fixed():
            self._deck_table = self._deck_values.setdefault((deck, size), {})
        else:
            self._deck_table = None
        self._scene_values = {}  # a new scene: new variables
        self._drawing = (deck, size)
        self._local = dict(ctx)
        try:
            bg = colour_value(self._render(face.background, ctx))
            scene = Scene(size[0], size[1], self.bleed, bg)
            for el in face.elements:
                items = self._element(el, ctx, face, size, who)
                scene.items.extend(items)
                self.drawn += len(items)
                if len(scene.items) > MAX_FACE_ITEMS:
                    raise ElementError(f"the face draws more than {MAX_FACE_ITEMS:,} items", el.line)
                if self.drawn > MAX_GAME_ITEMS:
                    raise DataErrors([Issue(self.layout.file, el.line, who, f"the faces of the game draw more than "
                                                                            f"{MAX_GAME_ITEMS:,} items")])
        except ElementError as exc:
            raise DataErrors([Issue(self.layout.file, exc.line, who, f"face '{face.id}': {exc}")]) from None
        except _ERRORS as exc:
            if isinstance(exc, DataErrors):
                raise
            raise DataErrors([Issue(self.layout.file, face.line, who,
                                    f"face '{face.id}': background: {_describe(exc)}")]) from None
        scene.key = f"{self.game.id}/{deck}/{face.id}/{record.id if record else '*back*'}"
        return scene

    def _element(self, el: Element, ctx: Mapping[str, Any], face: Face, size: tuple[float, float], who: str
                 ) -> list[Item]:
        try:
            p = el.props
            rep = p.get("repeat", 1)  # an expression (text) or a number
            n = int(number("repeat", self._eval(rep, ctx) or 0)) if isinstance(rep, str) else \
                int(self._fixed_or(el, "repeat", 1, ctx, lambda v: number("repeat", v or 0)))
            step = self._fixed_or(el, "step", [0, 0], ctx,
                                  lambda v: [number("step", self._render(x, ctx)) for x in v])
            out: list[Item] = []
            local = self._local
            for i in range(n):
                local["i"] = i
                # `when` is checked for each repetition, so it may use the repetition's index i
                if "when" in p and not self._eval(p["when"], local):
                    continue
                item = self._drawn(el, local, face, size, who)
                if item is None:
                    continue
                if i and (step[0] or step[1]):
                    item = Group((item,), tx=step[0] * i, ty=step[1] * i)
                out.append(item)
            return out
        except _ERRORS as exc:
            raise _element_error(exc, el) from None

    def _drawn(self, el: Element, ctx: Mapping[str, Any], face: Face, size: tuple[float, float], who: str
               ) -> Item | None:
        """``_one``, once for each set of values of the element's templates (see the class's docstring), for an
        element whose templates only read (see layout.reads); any problem takes the ordinary way, which reports
        it."""
        if not self.quick:
            return self._one(el, ctx, face, size, who)
        sources = self._fixed.get((el, "*templates"), _UNKNOWN)
        if sources is _UNKNOWN:
            found: list[str] = []
            _template_sources([v for k, v in el.props.items() if k not in ("when", "repeat", "step")], found)
            quick = all(reads(src) is not None for src in found)
            sources = self._fixed[el, "*templates"] = tuple(dict.fromkeys(found)) if quick else None
        if sources is None:
            return self._one(el, ctx, face, size, who)
        try:
            values = tuple([self._render(src, ctx) for src in sources])
        except Exception:  # the ordinary way reports it
            return self._one(el, ctx, face, size, who)
        key = (el, self._drawing, values)
        item = self._items.get(key, _UNKNOWN)
        if item is _UNKNOWN:
            item = self._items[key] = self._one(el, ctx, face, size, who)
        return cast(Item | None, item)

    def _eval(self, expr: Any, ctx: Mapping[str, Any]) -> Any:
        """:func:`eval_expr`, once per scene (and repetition) for an expression that only reads."""
        if not self.quick or not isinstance(expr, str) or reads(expr, is_expression=True) is None:
            return eval_expr(expr, ctx)
        key = ("*expr", expr, ctx.get("i"))
        got = self._scene_values.get(key, _UNKNOWN)
        if got is _UNKNOWN:
            got = self._scene_values[key] = eval_expr(expr, ctx)
        return got

    def _render(self, v: Any, ctx: Mapping[str, Any]) -> Any:
        """:func:`render_value`, each template that reads only what is the same for the whole deck rendered once
        per deck, and each other template that only reads once per scene (and repetition)."""
        if not self.quick:
            return render_value(v, ctx)
        if type(v) is str:
            kind = _kind(v)
            if kind == _PLAIN:
                return v
            if kind == _OTHER:
                return render_template(v, ctx)
            table = self._deck_table
            if kind == _DECK and table is not None:
                key: Any = v
            else:
                table, key = self._scene_values, (v, ctx.get("i"))
            got = table.get(key, _UNKNOWN)
            if got is _UNKNOWN:
                got = table[key] = render_template(v, ctx)
            return got
        if isinstance(v, list):
            return [self._render(x, ctx) for x in v]
        return v

    def _varies(self, v: Any) -> bool:
        """Whether a property's value may differ from one record of a deck to the next."""
        if isinstance(v, list):
            return any(self._varies(x) for x in v)
        return is_template(v) and (self._deck_table is None or not deck_constant(v))

    def _fixed_or(self, el: Element, key: str, default: Any, ctx: Mapping[str, Any],
                  convert: Callable[[Any], Any]) -> Any:
        """``convert(el.props[key])`` (``default`` when missing), worked out once for a value without templates (a
        value that fails to convert fails every time, as it did the first)."""
        k = (el, key)
        got = self._fixed.get(k, _UNKNOWN)
        if got is not _UNKNOWN:
            return got
        raw = el.props.get(key, default)
        value = convert(raw)
        if self.quick and not _templated(raw):
            self._fixed[k] = value
        return value

    def _num(self, el: Element, key: str, default: Any, ctx: Mapping[str, Any]) -> float:
        return float(self._fixed_or(el, key, default, ctx, lambda v: number(key, self._render(v, ctx))))

    def _box(self, el: Element, ctx: Mapping[str, Any]) -> tuple[float, float, float, float]:
        def convert(raw: Any) -> tuple[float, float, float, float]:
            box = self._render(raw, ctx)
            if not isinstance(box, list) or len(box) != 4:
                raise ValueError("box must be a list of 4 numbers")
            x, y, w, h = (number("box", v) for v in box)
            return x, y, w, h

        result: tuple[float, float, float, float] = self._fixed_or(el, "box", None, ctx, convert)
        return result

    def _paint(self, el: Element, ctx: Mapping[str, Any]) -> Paint:
        p = el.props
        k = (el, "*paint")
        got = self._fixed.get(k)
        if got is not None:
            return cast(Paint, got)
        table = self._deck_table
        if table is not None:
            got = table.get(k)
            if got is not None:
                return cast(Paint, got)
        dash = tuple(number("dash", self._render(v, ctx)) for v in p.get("dash", ()))
        paint = Paint(fill=colour_value(self._render(p.get("fill"), ctx)),
                      stroke=colour_value(self._render(p.get("stroke"), ctx)),
                      stroke_width=number("stroke_width", self._render(p.get("stroke_width", 0.3), ctx)), dash=dash,
                      opacity=number("opacity", self._render(p.get("opacity", 1.0), ctx)))
        keys = ("fill", "stroke", "stroke_width", "dash", "opacity")
        if self.quick:  # kept where it cannot change (see the tables' notes above)
            if not any(_templated(p.get(key)) for key in keys):
                self._fixed[k] = paint
            elif table is not None and not any(self._varies(p.get(key)) for key in keys):
                table[k] = paint
        return paint

    def _one(self, el: Element, ctx: Mapping[str, Any], face: Face, size: tuple[float, float], who: str
             ) -> Item | None:
        p = el.props
        kind = el.kind
        item: Item
        if kind == "rect":
            x, y, w, h = self._box(el, ctx)
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
            item = Rect(x, y, w, h, self._paint(el, ctx), self._num(el, "radius", 0, ctx))
        elif kind == "ellipse":
            x, y, w, h = self._box(el, ctx)
            item = Ellipse(x + w / 2, y + h / 2, w / 2, h / 2, self._paint(el, ctx))
        elif kind in ("line", "polygon"):
            pts = [number("points", self._render(v, ctx)) for v in p["points"]]
            pairs = tuple((pts[i], pts[i + 1]) for i in range(0, len(pts) - 1, 2))
            item = Poly(pairs, self._paint(el, ctx), closed=(kind == "polygon"))
        elif kind == "text":
            x, y, w, h = self._box(el, ctx)
            if w <= 0 or h <= 0:
                raise ValueError(f"a text box needs a width and a height above 0, not {w:g} x {h:g}")
            markup = str(self._render(p.get("text", ""), ctx))
            if not markup.strip():
                return None
            if (bad := CONTROL.search(markup)) is not None:
                raise ValueError(f"the text holds a control character (character {bad.start() + 1})")
            settings = self._fixed.get((el, "*text"))
            if settings is None:
                fam = str(self._render(p.get("font", "text"), ctx))
                sz = self._num(el, "size", 8, ctx)
                mins = p.get("min_size")
                align = str(self._render(p.get("align", "left"), ctx))
                valign = str(self._render(p.get("valign", "top"), ctx))
                for key, v in (("align", align), ("valign", valign)):
                    if v not in _CHOICES[key]:
                        raise ValueError(f"{key} must be one of {', '.join(_CHOICES[key])}, not {quote(v)}")
                min_size = number("min_size", self._render(mins, ctx)) if mins is not None else None
                leading = self._num(el, "leading", 1.2, ctx)
                para_gap = self._num(el, "para_gap", 0.35, ctx)
                max_lines = int(number("max_lines", self._render(p["max_lines"], ctx))) if "max_lines" in p else None
                settings = (fam, sz, align, valign, min_size, leading, para_gap, max_lines)
                if self.quick and not any(_templated(p.get(k)) for k in _TEXT_SETTINGS):  # the same for each record
                    self._fixed[el, "*text"] = settings
            fam, sz, align, valign, min_size, leading, para_gap, max_lines = settings
            lay = layout_text(markup, w, h, family_name=fam, size=sz, min_size=min_size, leading=leading,
                              para_gap=para_gap, align=align, valign=valign, max_lines=max_lines)
            for r in lay.runs:  # every inline icon of the text is a run of its layout
                if r.icon:
                    problem = icon_problem(r.icon, self.game.id)
                    if problem:
                        raise ValueError(f"in the text: {problem}")
            rot = number("rotate", self._render(p.get("rotate", 0), ctx) or 0)
            self._check_safe(x, y, w, h, rot, face, size, el)
            item = Text(x, y, w, h, lay, colour_value(self._render(p.get("color", "#1a1a1a"), ctx)) or "#000000",
                        self.game.id)
        elif kind == "icon":
            x, y, w, h = self._box(el, ctx)
            name = str(self._render(p.get("name", ""), ctx)).strip()
            if not name:
                return None
            problem = icon_problem(name, self.game.id)
            if problem:
                raise ValueError(problem)
            s = min(w, h)
            item = IconPlace(name, x + (w - s) / 2, y + (h - s) / 2, s,
                             colour_value(self._render(p.get("color", "#1a1a1a"), ctx)) or "#000000", self.game.id)
        else:  # pragma: no cover - load_layout rejects unknown kinds
            raise ValueError(kind)
        rot = self._num(el, "rotate", 0, ctx)
        if rot:
            if "box" in p:
                x, y, w, h = self._box(el, ctx)
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
