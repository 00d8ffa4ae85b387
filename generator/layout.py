"""Layouts as data: ``layouts/<game>/layout.toml`` says, per deck, the card size and the front and back faces,
and describes each face as a list of elements (mm, origin at the top-left of the card's trim box).

Element kinds: ``rect``, ``ellipse``, ``line``, ``polygon``, ``text``, ``icon``. Any value may be a jinja2
template (``"{{ style.colour[card.type] }}"``); ``when`` is a jinja2 expression that hides the element when
false; ``repeat`` draws it n times, moved by ``step`` = [dx, dy] each time.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from wizprint.cards.lines import LineMap
from wizprint.cards.loader import display_path, read_toml
from wizprint.cards.model import Game
from wizprint.errors import DataErrors, Issue
from wizprint.resources import layouts_dir

ELEMENT_KINDS = ("rect", "ellipse", "line", "polygon", "text", "icon")
DEFAULT_SAFE = 3.0


@lru_cache(maxsize=1)
def size_presets() -> dict[str, tuple[float, float]]:
    data = tomllib.loads((layouts_dir() / "sizes.toml").read_text(encoding="utf-8"))
    return {k: (float(v[0]), float(v[1])) for k, v in data.items()}


@dataclass(frozen=True)
class Element:
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
    deck: str
    size: tuple[float, float]
    front: str
    back: str
    front_by_type: Mapping[str, str] = field(default_factory=dict)


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

    def back_face(self, deck: str) -> Face:
        return self.faces[self.decks[deck].back]


def layout_path(game: Game) -> Path:
    """A game folder may carry its own ``layout.toml``; otherwise the shipped ``layouts/<game>/layout.toml``."""
    own = game.root / "layout.toml"
    if own.is_file():
        return own
    return layouts_dir() / game.id / "layout.toml"


def parse_size(value: Any) -> tuple[float, float] | None:
    if isinstance(value, str):
        return size_presets().get(value)
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        w, h = float(value[0]), float(value[1])
        if 10 <= w <= 400 and 10 <= h <= 400:
            return (w, h)
    return None


def load_layout(game: Game) -> GameLayout:
    """Load and check the layout of a game (decks covered, faces defined, element kinds known)."""
    path = layout_path(game)
    shown = display_path(path) if path.is_relative_to(game.root) else "layouts/" + path.relative_to(
        layouts_dir()).as_posix() if path.is_relative_to(layouts_dir()) else str(path)
    issues: list[Issue] = []
    if not path.is_file():
        raise DataErrors([Issue(shown, 0, "", f"no layout for game '{game.id}'")])
    data = read_toml(path, issues)
    if data is None:
        raise DataErrors([Issue(shown, i.line, i.card, i.message) for i in issues])
    text = path.read_text(encoding="utf-8")
    lm = LineMap(text)
    lines = text.splitlines()

    def line_of(needle: str) -> int:
        for i, ln in enumerate(lines, 1):
            if needle in ln:
                return i
        return 0

    default_safe = float(data.get("safe", DEFAULT_SAFE))
    faces: dict[str, Face] = {}
    for fid, f in dict(data.get("faces", {})).items():
        els = []
        for i, e in enumerate(f.get("elements", [])):
            ln = lm.line(f"faces.{fid}.elements", i)
            kind = e.get("kind")
            if kind not in ELEMENT_KINDS:
                issues.append(Issue(shown, ln, "", f"face '{fid}': element kind {kind!r} is not one of "
                                                   f"{', '.join(ELEMENT_KINDS)}"))
                continue
            els.append(Element(kind, {k: v for k, v in e.items() if k != "kind"}, ln))
        faces[fid] = Face(fid, f.get("background", "#ffffff"), float(f.get("safe", default_safe)), tuple(els),
                          line_of(f"[faces.{fid}]"))
    decks: dict[str, DeckLayout] = {}
    for did, d in dict(data.get("decks", {})).items():
        ln = line_of(f"[decks.{did}]")
        size = parse_size(d.get("size", "poker"))
        if size is None:
            issues.append(Issue(shown, ln, "", f"deck '{did}': size {d.get('size')!r} is not a preset "
                                               f"({', '.join(size_presets())}) or [w, h] in mm (10-400)"))
            continue
        front, back = d.get("front", ""), d.get("back", "")
        fbt = dict(d.get("front_by_type", {}))
        for face_id in (front, back, *fbt.values()):
            if face_id not in faces:
                issues.append(Issue(shown, ln, "", f"deck '{did}': face '{face_id}' is not defined"))
        decks[did] = DeckLayout(did, size, front, back, fbt)
    for did in game.decl.decks:
        if did not in decks:
            issues.append(Issue(shown, 0, "", f"deck '{did}' of game '{game.id}' has no layout ([decks.{did}])"))
    records: dict[str, DeckLayout] = {}
    for kid, d in dict(data.get("records", {})).items():
        ln = line_of(f"[records.{kid}]")
        if kid not in game.decl.kinds:
            issues.append(Issue(shown, ln, "", f"records '{kid}': the game has no record kind '{kid}'"))
            continue
        size = parse_size(d.get("size"))
        if size is None:
            issues.append(Issue(shown, ln, "", f"records '{kid}': size must be a preset or [w, h] in mm"))
            continue
        for face_id in (d.get("front", ""), d.get("back", "")):
            if face_id and face_id not in faces:
                issues.append(Issue(shown, ln, "", f"records '{kid}': face '{face_id}' is not defined"))
        records[kid] = DeckLayout(kid, size, d.get("front", ""), d.get("back", ""))
    if issues:
        raise DataErrors(issues)
    return GameLayout(game.id, shown, dict(data.get("style", {})), decks, faces, data, records)
