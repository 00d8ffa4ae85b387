"""Layouts as data: ``layouts/<game>/layout.toml`` says, per deck, the card size and the front and back faces,
and describes each face as a list of elements (mm, origin at the top-left of the card's trim box).

Element kinds: ``rect``, ``ellipse``, ``line``, ``polygon``, ``text``, ``icon``. Any value may be a jinja2
template (``"{{ style.colour[card.type] }}"``); ``when`` is a jinja2 expression that hides the element when
false; ``repeat`` draws it n times, moved by ``step`` = [dx, dy] each time.

Everything is checked when the layout is loaded: the file's shape, each element's keys, every literal
number (finite, in its range), colour, alignment and icon, and every template (compiled in the sandbox, so one
that reaches ``__class__`` or an unknown name is an error at its line before anything renders). Values that a
template computes are checked the same way when a face is drawn (:func:`number`, :func:`colour_value`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
import jinja2.meta
import tomli
from jinja2 import nodes

from wizprint.cards.lines import TomlLines
from wizprint.cards.loader import display_path, read_toml_text
from wizprint.cards.model import Game
from wizprint.cards.schema import (
    Anything,
    ListOf,
    Number,
    OneOf,
    Str,
    Table,
    TableOf,
    check_data,
    human_path,
    safe_id_key,
    schema_issues,
)
from wizprint.cards.vocab import SafeEnvironment
from wizprint.errors import DataErrors, Issue, quote
from wizprint.resources import inside, layouts_dir

ELEMENT_KINDS = ("rect", "ellipse", "line", "polygon", "text", "icon")
DEFAULT_SAFE = 3.0
MAX_ELEMENTS = 1_000  # elements of one face
MAX_REPEAT = 1_000  # times one element is repeated
MAX_POINTS = 2_000  # coordinates of a line or polygon

# the keys of each element kind, beyond kind, when, repeat, step and rotate
_PAINT = ("fill", "stroke", "stroke_width", "dash", "opacity")
ELEMENT_KEYS: dict[str, frozenset[str]] = {
    "rect": frozenset(("box", *_PAINT, "radius", "bleed")),
    "ellipse": frozenset(("box", *_PAINT)),
    "line": frozenset(("points", *_PAINT)),
    "polygon": frozenset(("points", *_PAINT)),
    "text": frozenset(("box", "text", "font", "size", "min_size", "leading", "para_gap", "align", "valign",
                       "max_lines", "color")),
    "icon": frozenset(("box", "name", "color")),
}
COMMON_KEYS = frozenset(("kind", "when", "repeat", "step", "rotate"))
# numbers: the range each may take (literal or computed by a template)
RANGES: dict[str, tuple[float, float]] = {
    "size": (1.0, 300.0), "min_size": (1.0, 300.0), "leading": (0.5, 5.0), "para_gap": (0.0, 10.0),
    "stroke_width": (0.0, 50.0), "opacity": (0.0, 1.0), "radius": (0.0, 1000.0), "rotate": (-3600.0, 3600.0),
    "dash": (0.0, 100.0), "box": (-2000.0, 2000.0), "step": (-2000.0, 2000.0), "points": (-2000.0, 2000.0),
    "max_lines": (1, 1000), "repeat": (0, MAX_REPEAT),
}
WHOLE = frozenset(("max_lines", "repeat"))
CHOICES: dict[str, tuple[str, ...]] = {"align": ("left", "center", "right"), "valign": ("top", "middle", "bottom")}
COLOUR_KEYS = frozenset(("fill", "stroke", "color", "background"))
LISTS: dict[str, tuple[int, int]] = {"box": (4, 4), "step": (2, 2), "points": (4, MAX_POINTS), "dash": (0, 16)}

NAMED_COLOURS = {"black": "#000000", "white": "#ffffff", "red": "#ff0000", "blue": "#0000ff", "green": "#008000",
                 "grey": "#808080", "gray": "#808080", "yellow": "#ffff00", "brown": "#8b5a2b",
                 "purple": "#800080"}
_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")
COLOUR_RULE = f"#rrggbb, 'none' or one of {', '.join(NAMED_COLOURS)}"

# the variables a face's templates see (see faces.card_context; `part` only on a sheet of a map, see
# playmap.py), and the sandbox they render in
FACE_NAMES = ("game", "style", "W", "H", "deck", "version", "short", "fx", "name_of", "card", "c", "text", "type",
              "effects", "effect", "i", "part")


FACE_ENV = SafeEnvironment(known=FACE_NAMES)
_templates: dict[str, jinja2.Template] = {}
_expressions: dict[str, Any] = {}
_MUTATORS = re.compile(r"\b(setdefault|append)\b")
_mutators: list[str] = []  # templates and expressions that name a method that changes a table or a list


def is_template(v: Any) -> bool:
    return isinstance(v, str) and ("{{" in v or "{%" in v)


def template(source: str) -> jinja2.Template:
    """A face value's template, compiled once (checked by the sandbox; TemplateSyntaxError when refused)."""
    t = _templates.get(source)
    if t is None:
        _note_mutators(source)
        t = _templates[source] = FACE_ENV.from_string(source)
    return t


def expression(source: str) -> Any:
    """A ``when`` or ``repeat`` expression, compiled once."""
    f = _expressions.get(source)
    if f is None:
        _note_mutators(source)
        f = _expressions[source] = FACE_ENV.compile_expression(source)
    return f


# -- what a template reads ----------------------------------------------------------------------------------------
# A template that only reads its variables gives the same value for the same variables, so a FaceBuilder may work it
# out once per card (or once per deck, when it reads only what is the same for the whole deck). Whether it only
# reads is found in jinja2's parse tree (Environment.parse, jinja2.meta): it calls nothing (a call such as
# setdefault() could change a table); filters and tests are the sandbox's own, which change nothing.

_reads: dict[tuple[str, bool], frozenset[str] | None] = {}
_DELIMITERS = ("{{", "}}", "{%", "%}", "{#", "#}")


def reads(source: str, is_expression: bool = False) -> frozenset[str] | None:
    """The variables a template (or a ``when`` or ``repeat`` expression) reads, when it does nothing but read
    them; None when it may do more, or does not compile."""
    key = (source, is_expression)
    if key in _reads:
        return _reads[key]
    got: frozenset[str] | None = None
    if not is_expression or not any(d in source for d in _DELIMITERS):
        try:
            (template if not is_expression else expression)(source)  # compiled and checked by the sandbox
            tree = FACE_ENV.parse("{{ (" + source + ") }}" if is_expression else source)
        except jinja2.TemplateSyntaxError:
            tree = None
        if tree is not None and next(tree.find_all(nodes.Call), None) is None:
            got = frozenset(jinja2.meta.find_undeclared_variables(tree))
    _reads[key] = got
    return got


# the variables of a face that are the same for every record of a deck (see faces.card_context)
DECK_NAMES = frozenset(("game", "style", "W", "H", "deck", "version", "short"))
_deck_constants: dict[str, bool] = {}


def _note_mutators(source: str) -> None:
    if _MUTATORS.search(source):
        _mutators.append(source)


def deck_constants_fixed() -> bool:
    """Whether the templates compiled so far leave what they read alone: none of them names a method that
    changes a table or a list (``setdefault``, ``append``), so a template that reads only :data:`DECK_NAMES`
    gives the same value for every record of a deck."""
    return not _mutators


def deck_constant(source: str) -> bool:
    """Whether a template does nothing but read :data:`DECK_NAMES` (see :func:`reads`)."""
    got = _deck_constants.get(source)
    if got is None:
        names = reads(source)
        got = _deck_constants[source] = names is not None and names <= DECK_NAMES
    return got


def render_template(source: str, ctx: Mapping[str, Any]) -> Any:
    """A face value's template rendered with ``ctx``."""
    return FACE_ENV.render(template(source), ctx)


def run_expression(source: str, ctx: Mapping[str, Any]) -> Any:
    """A ``when`` or ``repeat`` expression's value for ``ctx``."""
    return FACE_ENV.run(expression(source), **ctx)


def colour_problem(value: Any) -> str | None:
    """Why ``value`` is not a colour (None when it is one, or no paint: None, '' or 'none')."""
    if value is None:
        return None
    if not isinstance(value, str):
        return f"colour {quote(value)} must be text ({COLOUR_RULE})"
    s = value.strip()
    if not s or s == "none" or _HEX.match(s) or s in NAMED_COLOURS:
        return None
    return f"{quote(value)} is not a colour ({COLOUR_RULE})"


def colour_value(value: Any) -> str | None:
    """A colour for the back ends ('#rrggbb' or a name), None for no paint; ValueError for anything else."""
    problem = colour_problem(value)
    if problem:
        raise ValueError(problem)
    if value is None:
        return None
    s = str(value).strip()
    return None if not s or s == "none" else s


_ANY_RANGE = (-2000.0, 2000.0)


def number(key: str, value: Any) -> float:
    """A number of a layout (literal or computed): finite and in the range of its key; ValueError otherwise."""
    kind = type(value)
    if kind is float or kind is int:
        v = float(value)
    elif isinstance(value, bool):
        raise ValueError(f"{key} must be a number, not {quote(value)}")
    else:
        try:
            v = float(value) if isinstance(value, (int, float)) else float(str(value).strip())
        except (ValueError, OverflowError):
            raise ValueError(f"{key} must be a number, not {quote(value)}") from None
    lo, hi = RANGES.get(key, _ANY_RANGE)
    if not lo <= v <= hi:  # NaN and the infinities fail this too
        raise ValueError(f"{key} = {quote(value)} must be a finite number from {lo:g} to {hi:g}")
    if key in WHOLE and v != int(v):
        raise ValueError(f"{key} = {quote(value)} must be a whole number")
    return v


@lru_cache(maxsize=1)
def size_presets() -> dict[str, tuple[float, float]]:
    data = tomli.loads((layouts_dir() / "sizes.toml").read_text(encoding="utf-8"))
    return {k: (float(v[0]), float(v[1])) for k, v in data.items()}


@dataclass(frozen=True, eq=False)
class Element:
    """One element of a face. Two elements are the same only if they are one object (what a FaceBuilder works out
    for an element is kept under the element itself)."""

    kind: str
    props: Mapping[str, Any]
    line: int = 0


@dataclass(frozen=True)
class Face:
    id: str
    background: Any
    safe: float
    elements: tuple[Element, ...]
    line: int = 0


@dataclass(frozen=True)
class DeckLayout:
    """A deck's card size and faces. ``backs`` maps each back of a deck whose copies have their own (``backs`` in
    game.toml: Wizards Cup's black and white) to its face; ``back`` is then empty. ``sheets`` is what ``--layout
    auto`` does with the deck: ``auto`` (butted when its cards' edge colours let it, see generator/deckpdf.py),
    or ``butted`` or ``spaced`` for every sheet (``butted``: the designer accepts that a cut a little off the line
    shows a neighbour's edge of another colour)."""

    deck: str
    size: tuple[float, float]
    front: str
    back: str
    front_by_type: Mapping[str, str] = field(default_factory=dict)
    backs: Mapping[str, str] = field(default_factory=dict)
    sheets: str = "auto"  # how ``--layout auto`` lays the deck's sheets out: auto, butted or spaced


@dataclass
class GameLayout:
    game: str
    file: str
    style: Mapping[str, Any]
    decks: dict[str, DeckLayout]
    faces: dict[str, Face]
    raw: Mapping[str, Any] = field(default_factory=dict)
    records: dict[str, DeckLayout] = field(default_factory=dict)  # sheets printed from records (characters...)

    def size_of(self, name: str) -> tuple[float, float]:
        """The size of a deck's cards or of a record kind's sheets."""
        return (self.decks[name] if name in self.decks else self.records[name]).size

    def front_face(self, deck: str, card_type: str) -> Face:
        dl = self.decks[deck]
        return self.faces[dl.front_by_type.get(card_type, dl.front)]

    def back_face(self, deck: str, back: str = "") -> Face:
        """The face of a deck's back; for a deck whose copies have their own backs, the face of the back named
        ``back`` (by default its first)."""
        faces = self.back_faces(deck)
        return faces[back] if back else next(iter(faces.values()))

    def back_faces(self, deck: str) -> dict[str, Face]:
        """Every back of a deck by its name in game.toml's ``backs`` ({"": face} for a deck with one back)."""
        dl = self.decks[deck]
        if dl.backs:
            return {name: self.faces[fid] for name, fid in dl.backs.items()}
        return {"": self.faces[dl.back]}


def layout_path(game: Game) -> Path:
    """A game folder may carry its own ``layout.toml``; otherwise the shipped ``layouts/<game>/layout.toml``."""
    own = game.root / "layout.toml"
    if own.is_file():
        return own
    return layouts_dir() / game.id / "layout.toml"


def shown_path(game: Game, path: Path) -> str:
    """A layout file's name for messages: relative to the game folder's parent or as ``layouts/...``."""
    if path.is_relative_to(game.root):
        return display_path(path)
    if path.is_relative_to(layouts_dir()):
        return "layouts/" + path.relative_to(layouts_dir()).as_posix()
    return str(path)


def read_layout_file(game: Game, path: Path) -> tuple[dict[str, Any], str]:
    """A layout file of a game (the game folder's own or the shipped one): refused when it is a link out of both
    folders; its TOML problems as :class:`DataErrors`. Returns the data and the text (for line numbers)."""
    shown = shown_path(game, path)
    if not inside(game.root, path) and not inside(layouts_dir(), path):
        raise DataErrors([Issue(shown, 0, "", "is a link to a file outside the game folder")])
    issues: list[Issue] = []
    got = read_toml_text(path, issues, shown)
    if got is None:
        raise DataErrors(issues)
    return got


def parse_size(value: Any) -> tuple[float, float] | None:
    if isinstance(value, str):
        return size_presets().get(value)
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        w, h = float(value[0]), float(value[1])
        if 10 <= w <= 400 and 10 <= h <= 400:
            return (w, h)
    return None


# -- the schema of layout.toml ----------------------------------------------------------------------------------
_FACE_ID = Str(64, least=1)
LAYOUT_FILE = Table({
    "safe": (Number(0, 50), DEFAULT_SAFE),
    "style": (TableOf(Anything(), most=10_000), {}),
    "decks": (TableOf(Table({"size": (Anything(), "poker"), "front": _FACE_ID, "back": (_FACE_ID, ""),
                             "backs": (TableOf(_FACE_ID, key=safe_id_key), {}),
                             "front_by_type": (TableOf(_FACE_ID), {}),
                             "sheets": (OneOf("auto", "butted", "spaced"), "auto")})), {}),
    "faces": (TableOf(Table({"background": (Anything(), "#ffffff"), "safe": (Number(0, 50), None),
                             "elements": (ListOf(Anything(), most=MAX_ELEMENTS), [])}),
                      key=lambda k: None if 0 < len(k) <= 64 else "a face id is 1-64 characters"), {}),
    "records": (TableOf(Table({"size": Anything(), "front": _FACE_ID, "back": (_FACE_ID, None)})), {}),
})
"""The shape of ``layout.toml``; each element is then checked by :func:`element_problems`."""


def _template_problem(value: Any, is_expression: bool = False) -> str | None:
    try:
        if is_expression:
            expression(value)
        else:
            template(value)
    except jinja2.TemplateSyntaxError as exc:
        return f"template error: {exc.message}"
    return None


def value_problems(key: str, value: Any, game: str | None = None) -> list[str]:
    """Problems of one literal value of an element (templates are compiled; what they compute is checked when
    a face is drawn)."""
    if is_template(value):
        p = _template_problem(value)
        return [f"{key}: {p}"] if p else []
    if key in ("when", "repeat") and isinstance(value, str):
        p = _template_problem(value, is_expression=True)
        return [f"{key}: {p}"] if p else []
    if key in LISTS:
        lo, hi = LISTS[key]
        if not isinstance(value, list) or not lo <= len(value) <= hi or (key == "points" and len(value) % 2):
            size = f"{lo}" if lo == hi else f"{lo} to {hi:,}" + (", an even number" if key == "points" else "")
            return [f"{key} must be a list of {size} numbers"]
        return [p for v in value for p in value_problems_number(key, v)]
    if key in RANGES:
        return value_problems_number(key, value)
    if key in COLOUR_KEYS:
        p = colour_problem(value)
        return [f"{key}: {p}"] if p else []
    if key in CHOICES:
        if value not in CHOICES[key]:
            return [f"{key} must be one of {', '.join(CHOICES[key])}, not {quote(value)}"]
        return []
    if key == "bleed":
        return [] if isinstance(value, bool) else [f"bleed must be true or false, not {quote(value)}"]
    if key == "when":
        return [] if isinstance(value, bool) else [f"when must be an expression or true/false, not {quote(value)}"]
    if key == "name":
        from .icons import icon_problem

        p = icon_problem(str(value), game) if isinstance(value, str) and value.strip() else None
        return [p] if p else ([] if isinstance(value, str) else [f"name must be text, not {quote(value)}"])
    if key in ("text", "font"):
        if not isinstance(value, str):
            return [f"{key} must be text, not {quote(value)}"]
        return [f"{key} is {len(value):,} characters long, more than 20,000"] if len(value) > 20_000 else []
    return []


def value_problems_number(key: str, value: Any) -> list[str]:
    if is_template(value):
        p = _template_problem(value)
        return [f"{key}: {p}"] if p else []
    try:
        number(key, value)
    except ValueError as exc:
        return [str(exc)]
    return []


def element_problems(e: Any, game: str | None = None) -> list[tuple[str | None, str]]:
    """(key, problem) for each problem of one element table (key None: the element as a whole)."""
    if not isinstance(e, Mapping):
        return [(None, f"an element must be a table, not {quote(e)}")]
    kind = e.get("kind")
    if kind not in ELEMENT_KINDS:
        return [("kind", f"element kind {quote(kind)} is not one of {', '.join(ELEMENT_KINDS)}")]
    allowed = ELEMENT_KEYS[kind] | COMMON_KEYS
    out: list[tuple[str | None, str]] = []
    for key, value in e.items():
        if key not in allowed:
            out.append((key, f"unknown key {quote(key)} for a {kind} element (allowed: "
                             f"{', '.join(sorted(allowed))})"))
            continue
        out.extend((key, p) for p in value_problems(key, value, game))
    need = "points" if kind in ("line", "polygon") else "box"
    if need not in e:
        out.append((None, f"a {kind} element needs '{need}'"))
    return out


def _back_problems(game: Game, did: str, back: str, backs: Mapping[str, str], lines: TomlLines
                   ) -> list[tuple[int, str]]:
    """(line, problem) for a deck's backs: one ``back`` face, or, for a deck whose game.toml gives each copy of a
    card its own back (``backs``), a ``backs`` table with a face for each of those backs and no other."""
    decl = game.decl.decks.get(did)
    want = decl.backs if decl is not None else ()
    at = lines.line(("decks", did, "backs"))
    if not want:
        if backs:
            return [(at, f"deck {quote(did)}: 'backs' gives each copy of a card its own back, but game.toml gives "
                         "this deck one back: use 'back' (or list the backs in game.toml's [[decks]] 'backs')")]
        return [] if back else [(lines.line(("decks", did, "back")), f"{human_path(('decks', did))}: missing 'back'")]
    names = ", ".join(want)
    out = [(at or lines.line(("decks", did)), f"deck {quote(did)}: backs has no face for the back {quote(name)} "
                                             f"(game.toml gives its copies the backs {names})")
           for name in want if name not in backs]
    out += [(lines.line(("decks", did, "backs", name)),
             f"deck {quote(did)}: backs names {quote(name)}, which is not one of its backs in game.toml ({names})")
            for name in backs if name not in want]
    if back:
        out.append((lines.line(("decks", did, "back")), f"deck {quote(did)}: its copies have their own backs "
                                                         "(game.toml 'backs'), so it takes 'backs', not 'back'"))
    return out


def load_layout(game: Game) -> GameLayout:
    """Load and check the layout of a game: its shape, decks covered, faces defined, every element's keys and
    values, every template compiled in the sandbox."""
    path = layout_path(game)
    shown = shown_path(game, path)
    issues: list[Issue] = []
    if not path.is_file():
        own = game.root / "layout.toml"
        if os.path.lexists(own):
            raise DataErrors([Issue(display_path(own), 0, "", "is not a regular file")])
        raise DataErrors([Issue(display_path(own), 0, "", f"is missing: wizprint ships no layout for a game "
                                                          f"'{game.id}', so its folder needs its own layout.toml")])
    data, text = read_layout_file(game, path)
    lines = TomlLines(text)
    lf, problems = check_data(LAYOUT_FILE, data)
    if problems:
        raise DataErrors(schema_issues(problems, shown, lines))

    faces: dict[str, Face] = {}
    for fid, f in lf.faces.items():
        els = []
        bg = f.background
        for p in (value_problems("background", bg) if bg is not None else []):
            issues.append(Issue(shown, lines.line(("faces", fid, "background")), "", f"face '{fid}': {p}"))
        for i, e in enumerate(f.elements):
            ln = lines.line(("faces", fid, "elements", i))
            probs = element_problems(e, game.id)
            for key, p in probs:
                at = lines.line(("faces", fid, "elements", i, key)) if key else ln
                issues.append(Issue(shown, at, "", f"face '{fid}': {p}"))
            if not probs:
                els.append(Element(e["kind"], {k: v for k, v in e.items() if k != "kind"}, ln))
        faces[fid] = Face(fid, bg, f.safe if f.safe is not None else lf.safe, tuple(els),
                          lines.line(("faces", fid)))
    decks: dict[str, DeckLayout] = {}
    for did, d in lf.decks.items():
        ln = lines.line(("decks", did))
        size = parse_size(d.size)
        if size is None:
            issues.append(Issue(shown, lines.line(("decks", did, "size")), "",
                                f"deck {quote(did)}: size {quote(d.size)} is not a preset "
                                f"({', '.join(size_presets())}) or [w, h] in mm (10-400)"))
            continue
        fbt = dict(d.front_by_type)
        backs = dict(d.backs)
        issues.extend(Issue(shown, at, "", msg) for at, msg in _back_problems(game, did, d.back, backs, lines))
        for face_id in (d.front, *([d.back] if d.back else []), *backs.values(), *fbt.values()):
            if face_id not in faces:
                issues.append(Issue(shown, ln, "", f"deck {quote(did)}: face {quote(face_id)} is not defined"))
        decks[did] = DeckLayout(did, size, d.front, d.back, fbt, backs, d.sheets)
    for did in game.decl.decks:
        if did not in decks:
            issues.append(Issue(shown, 0, "", f"deck '{did}' of game '{game.id}' has no layout ([decks.{did}])"))
    records: dict[str, DeckLayout] = {}
    for kid, r in lf.records.items():
        ln = lines.line(("records", kid))
        if kid not in game.decl.kinds:
            issues.append(Issue(shown, ln, "", f"records {quote(kid)}: the game has no record kind {quote(kid)}"))
            continue
        size = parse_size(r.size)
        if size is None:
            issues.append(Issue(shown, ln, "", f"records '{kid}': size must be a preset or [w, h] in mm"))
            continue
        for face_id in (r.front, r.back or ""):
            if face_id and face_id not in faces:
                issues.append(Issue(shown, ln, "", f"records '{kid}': face {quote(face_id)} is not defined"))
        records[kid] = DeckLayout(kid, size, r.front, r.back or "")
    if issues:
        raise DataErrors(issues)
    return GameLayout(game.id, shown, dict(lf.style), decks, faces, data, records)
