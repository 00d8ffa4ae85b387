"""Covenant of Wizards in print: every card design shows a picture of its own (the layout's ``[style.art]``, icons
from game-icons.net, vendored and credited), read from the built card SVG; the rule icons (the card's type, a
wizard's ability) stay small in the art window's corners and are never the art. The checks every game's PDFs pass
(fonts, boxes, crop marks, card backs, safe zone) are in test_print_pdf.py, which includes this game."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from card_pictures import art_in_svg, game_icon_problem

from wizprint.cards.loader import load_game
from wizprint.generator.artcheck import art_min_size, rule_icons
from wizprint.generator.drawing import front_scenes
from wizprint.generator.faces import FaceBuilder
from wizprint.generator.layout import load_layout
from wizprint.generator.scene import IconPlace, Rect
from wizprint.resources import layouts_dir
from wizprint.validation import check_game

GAME_ID = "covenant"
GAME = load_game(GAME_ID)
LAYOUT = load_layout(GAME)
STYLE = LAYOUT.style


@pytest.fixture(scope="module")
def covenant(build):  # type: ignore[no-untyped-def]
    return build(GAME_ID, svg=True)


def test_every_design_prints_a_picture_of_its_own(covenant) -> None:  # type: ignore[no-untyped-def]
    """In every deck, each design's SVG draws exactly one picture, and no two designs draw the same one (by name or
    by drawing): no comet shared by the Events, no swords shared by the Duelers."""
    least = art_min_size(LAYOUT)
    for deck in GAME.decl.decks:
        cards = GAME.cards(deck)
        pictures = {}
        for card in cards:
            art = art_in_svg(covenant.out_dir / "svg" / deck / f"{card.id}.svg", least)
            assert len(art) == 1, (card.id, [a.name for a in art])
            pictures[card.id] = art[0]
        for key in (lambda d: d.name, lambda d: d.body):
            shared = {k: n for k, n in Counter(key(d) for d in pictures.values()).items() if n > 1}
            assert not shared, sorted(cid for cid, d in pictures.items() if key(d) in shared)
        assert len(pictures) == len(cards) == 87


def test_pictures_are_credited_game_icons_and_never_rule_icons() -> None:
    names = set(STYLE["art"].values()) | set(STYLE["art_fallback"].values())
    assert set(STYLE["art"]) == {c.id for c in GAME.cards()}  # every design chosen, none left to a fallback
    assert set(STYLE["art_fallback"]) == {t.id for t in GAME.decl.types.values()}
    assert [p for n in sorted(names) if (p := game_icon_problem(n, GAME_ID))] == []
    assert not names & set(rule_icons(LAYOUT))


def test_type_and_ability_stay_small_rule_icons_in_the_art_windows_corners() -> None:
    """Each front draws its type's icon in the top-left corner of the art window, a wizard its ability's icon in the
    top-right one, both under art size, and the picture between them inside the window."""
    rules = rule_icons(LAYOUT)
    least = art_min_size(LAYOUT)
    scenes = front_scenes(GAME, LAYOUT, FaceBuilder(GAME, LAYOUT, 0), "main")
    for card in GAME.cards("main"):
        items = scenes[card.id].items
        window = next(r for r in items if isinstance(r, Rect) and r.paint.fill == STYLE["light"][card.type])
        icons = [i for i in items if isinstance(i, IconPlace)]
        picture = [i for i in icons if i.size >= least]
        assert [i.name for i in picture] == [STYLE["art"][card.id]], card.id
        art = picture[0]
        assert window.x <= art.x and art.x + art.size <= window.x + window.w, card.id
        assert window.y <= art.y and art.y + art.size <= window.y + window.h, card.id
        assert art.size >= 25, card.id
        corners = [i for i in icons if i.y < art.y + 2 and i.size < least]
        want = [card.type] + ([card.get("ability")] if card.type == "wizard" else [])
        assert [i.name for i in sorted(corners, key=lambda i: i.x)] == want, card.id
        assert all(i.name in rules for i in corners), card.id
        left, *right = sorted(corners, key=lambda i: i.x)
        assert left.x + left.size <= art.x and all(r.x >= art.x + art.size for r in right), card.id


def test_an_ability_icon_as_art_fails_validate_at_the_layout_line(game_copy: Callable[[str], Path]) -> None:
    folder = game_copy(GAME_ID)
    layout = (layouts_dir() / GAME_ID / "layout.toml").read_text(encoding="utf-8")
    planted, n = re.subn(r'(?m)^W06 = "[a-z0-9-]+"', 'W06 = "nature"', layout)
    assert n == 1
    (folder / "layout.toml").write_text(planted, encoding="utf-8")
    issues = check_game(load_game(folder))
    assert [(i.card, "':nature:' (the Nature ability)" in i.message) for i in issues] == [("W06", True)]
    assert issues[0].file.endswith("layout.toml")
    assert planted.splitlines()[issues[0].line - 1].startswith('W06 = "nature"')
