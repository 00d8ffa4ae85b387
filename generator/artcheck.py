"""Icons that mean one thing each: a rule icon is never card art.

A game's layout may reserve its rule icons in ``[style.rule_icons]`` (icon name -> what it means in the rules:
the omen icon, the threat icons, charge, the attributes...). Any icon that a card front draws at least
``style.art_min_size`` mm wide (default :data:`ART_MIN_SIZE`) is that card's art: a picture, not a symbol beside a
number or inside rules text. :func:`art_issues` reports every card whose front draws a rule icon that large, so
``wizprint validate`` and ``wizprint build`` fail with one line naming the card, the icon and its rule meaning.

Layouts without ``rule_icons`` are not checked. Inline icons (``:omen:`` in rules text) are text, never art.

Each design should also show a picture of its own: :func:`shared_pictures` finds the designs of one deck whose fronts
draw the same icon as art, for ``wizprint validate`` to warn about, unless the layout lists that icon in its art
table's ``shared`` (``[style.art] shared = ["ward"]``: a picture meant for several designs, such as a school's).

>>> from wizprint.cards.loader import load_game
>>> from wizprint.generator.drawing import front_scenes
>>> from wizprint.generator.faces import FaceBuilder
>>> from wizprint.generator.layout import load_layout
>>> game = load_game("relic"); layout = load_layout(game)
>>> art_issues(game, layout, "threat-red", front_scenes(game, layout, FaceBuilder(game, layout, 0), "threat-red"))
[]
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Any

from wizprint.cards.lines import TomlLines
from wizprint.cards.model import Game, Record
from wizprint.errors import Issue, one_line, quote

from .layout import GameLayout, layout_path
from .scene import Group, IconPlace, Item, Scene

ART_MIN_SIZE = 9.0  # mm: an icon this wide or wider on a card front is the card's art


def rule_icons(layout: GameLayout) -> dict[str, str]:
    """The layout's rule icons: name -> what the icon means in the rules (empty when the layout reserves none)."""
    table = layout.style.get("rule_icons")
    if not isinstance(table, Mapping):
        return {}
    return {str(k): str(v) for k, v in table.items()}


def art_min_size(layout: GameLayout) -> float:
    """The width (mm) from which an icon on a card front counts as art."""
    v: Any = layout.style.get("art_min_size", ART_MIN_SIZE)
    try:
        size = float(v)
    except (TypeError, ValueError):
        return ART_MIN_SIZE
    return size if math.isfinite(size) and size > 0 else ART_MIN_SIZE


def icons_drawn(items: list[Item] | tuple[Item, ...], scale: float = 1.0) -> Iterator[tuple[str, float]]:
    """(name, width in mm) of every icon an item list draws, including those inside groups."""
    for it in items:
        if isinstance(it, IconPlace):
            yield it.name, it.size * scale
        elif isinstance(it, Group):
            yield from icons_drawn(it.children, scale * it.scale)


def art_issues(game: Game, layout: GameLayout, deck: str, scenes: Mapping[str, Scene]) -> list[Issue]:
    """One issue per card of ``deck`` whose front (in ``scenes``, by card id) draws a rule icon as art."""
    rules = rule_icons(layout)
    if not rules:
        return []
    least = art_min_size(layout)
    art = layout.style.get("art")
    lines: TomlLines | None = None  # the layout file's lines, read once a message needs one
    issues: list[Issue] = []
    for card in game.cards(deck):
        scene = scenes.get(card.id)
        if scene is None:
            continue
        seen: set[str] = set()
        for name, size in icons_drawn(scene.items):
            if name not in rules or size < least - 1e-9 or name in seen:
                continue
            seen.add(name)
            message = (f"card art: the rule icon ':{name}:' ({one_line(rules[name], 120)}) is drawn {size:.0f} mm "
                       f"wide on the front of {quote(card.name)}; a rule icon keeps its rule meaning and is never art "
                       "(choose a picture for the card in the layout's [style.art])")
            if isinstance(art, Mapping) and art.get(card.id) == name:  # the art table names it: point there
                lines = lines or _layout_lines(game)
                issues.append(Issue(layout.file, lines.line(("style", "art", card.id)), card.id, message))
            else:
                issues.append(Issue(card.source.file, card.source.line, card.id, message))
    return issues


SHARED_KEY = "shared"  # the key of [style.art] that lists the pictures meant for several designs of a deck
SHOWN_IDS = 6  # the designs a warning names before it counts the rest


def shared_pictures(game: Game, layout: GameLayout, deck: str, scenes: Mapping[str, Scene]) -> list[Issue]:
    """One warning per picture that two or more designs of ``deck`` show (an icon their fronts, in ``scenes`` by card
    id, draw at least ``art_min_size`` wide), unless the layout's ``[style.art]`` lists it in ``shared``. It points at
    the second such design: its line in ``[style.art]`` where the table names the picture for it, else its record."""
    least = art_min_size(layout)
    art = layout.style.get("art")
    meant = shared_listed(layout)
    shown_by: dict[str, list[Record]] = {}
    for card in game.cards(deck):
        scene = scenes.get(card.id)
        if scene is None:
            continue
        for name in dict.fromkeys(n for n, size in icons_drawn(scene.items) if size >= least - 1e-9):
            shown_by.setdefault(name, []).append(card)
    lines: TomlLines | None = None
    issues: list[Issue] = []
    for name, cards in shown_by.items():
        if len(cards) < 2 or name in meant:
            continue
        ids = ", ".join(c.id for c in cards[:SHOWN_IDS]) + (f" and {len(cards) - SHOWN_IDS} more"
                                                          if len(cards) > SHOWN_IDS else "")
        message = (f"picture ':{name}:' is shown by {len(cards)} designs of deck {quote(deck)} ({ids}): give each "
                   f"design its own picture in the layout's [style.art], or list the icon in [style.art] "
                   f"{SHARED_KEY} = [...] if they are meant to share it")
        second = cards[1]
        if isinstance(art, Mapping) and art.get(second.id) == name:
            lines = lines or _layout_lines(game)
            issues.append(Issue(layout.file, lines.line(("style", "art", second.id)), second.id, message))
        else:
            issues.append(Issue(second.source.file, second.source.line, second.id, message))
    return issues


def shared_listed(layout: GameLayout) -> set[str]:
    """The icons the layout's ``[style.art]`` lists in ``shared``: pictures meant for several designs."""
    art = layout.style.get("art")
    listed = art.get(SHARED_KEY) if isinstance(art, Mapping) else None
    return {str(n) for n in listed} if isinstance(listed, list) else set()


def shared_key_issues(game: Game, layout: GameLayout) -> list[Issue]:
    """A ``shared`` in ``[style.art]`` that is not a list of icon names (one warning, at its line)."""
    art = layout.style.get("art")
    if not isinstance(art, Mapping) or SHARED_KEY not in art:
        return []
    listed = art[SHARED_KEY]
    if isinstance(listed, list) and all(isinstance(n, str) for n in listed):
        return []
    line = _layout_lines(game).line(("style", "art", SHARED_KEY))
    return [Issue(layout.file, line, "", f"[style.art] {SHARED_KEY} must be a list of icon names "
                                         f"(such as {SHARED_KEY} = [\"ward\"]), not {one_line(repr(listed), 60)}")]


def _layout_lines(game: Game) -> TomlLines:
    try:
        return TomlLines(layout_path(game).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):  # read a moment ago by load_layout: no line rather than no message
        return TomlLines("")
