"""Wizard Cards in print: the playing-card faces keep suit and rank as their design, and each school (Ward, Vigor,
Fortune, Wrath and Wild Magic) shows a picture of its own in the disc of its cards (the layout's ``school_art``,
icons from game-icons.net, vendored and credited), read from the built card SVG; the school's own icon stays a rule
icon (the magnitude row under the picture, rules text), never the picture. The checks every game's PDFs pass are in
test_print_pdf.py, which includes this game."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from card_pictures import art_in_svg, game_icon_problem, icons_in_svg

from wizprint.cards.loader import load_game
from wizprint.cards.model import Record
from wizprint.generator.artcheck import art_min_size, rule_icons
from wizprint.generator.layout import load_layout
from wizprint.resources import layouts_dir
from wizprint.validation import check_game

GAME_ID = "wizard-cards"
GAME = load_game(GAME_ID)
LAYOUT = load_layout(GAME)
STYLE = LAYOUT.style
SCHOOLS = ("ward", "vigor", "fortune", "wrath", "wild")


@pytest.fixture(scope="module")
def wizard_cards(build):  # type: ignore[no-untyped-def]
    return build(GAME_ID, svg=True)


def school_of(card: Record) -> str:
    return str(card.effects[0].word)


def test_each_school_prints_a_picture_of_its_own(wizard_cards) -> None:  # type: ignore[no-untyped-def]
    """Every spell card's SVG draws one picture, the same on every card of a school; the five schools' pictures
    differ (by name and by drawing) and none is a suit or school icon."""
    least = art_min_size(LAYOUT)
    by_school: dict[str, set[tuple[str, str]]] = {}
    for card in GAME.cards("spells"):
        svg = wizard_cards.out_dir / "svg" / "spells" / f"{card.id}.svg"
        art = art_in_svg(svg, least)
        assert len(art) == 1, (card.id, [a.name for a in art])
        symbols = {d.body for d in icons_in_svg(svg) if d.width < least}  # suit, school and text icons
        assert art[0].body not in symbols, (card.id, art[0].name)
        by_school.setdefault(school_of(card), set()).add((art[0].name, art[0].body))
    assert set(by_school) == set(SCHOOLS)
    assert all(len(pictures) == 1 for pictures in by_school.values()), by_school.keys()
    pictures = [next(iter(p)) for p in by_school.values()]
    assert len({name for name, _ in pictures}) == len({body for _, body in pictures}) == len(SCHOOLS)
    assert not {name for name, _ in pictures} & set(rule_icons(LAYOUT))


def test_the_school_icon_counts_the_magnitude_under_the_picture(wizard_cards) -> None:  # type: ignore[no-untyped-def]
    """A component card draws its school's icon once per magnitude, small, below the picture (the Wild Magic card:
    one icon of each of the four schools)."""
    least = art_min_size(LAYOUT)
    for card in GAME.cards("spells"):
        svg = wizard_cards.out_dir / "svg" / "spells" / f"{card.id}.svg"
        drawn = icons_in_svg(svg)
        picture = next(d for d in drawn if d.width >= least)
        row = [d.name for d in drawn if d.name in SCHOOLS and abs(d.width - 4.8) < 1e-6]
        if card.type == "wild":
            assert row == ["ward", "vigor", "fortune", "wrath"], card.id
        else:
            assert row == [school_of(card)] * int(card.effects[0].get("magnitude")), card.id
        assert picture.name == STYLE["school_art"][school_of(card)], card.id


def test_school_pictures_are_credited_game_icons() -> None:
    art = STYLE["school_art"]
    assert set(art) == set(SCHOOLS)
    assert [p for n in sorted(art.values()) if (p := game_icon_problem(n, GAME_ID))] == []
    assert {"spades", "hearts", "diamonds", "clubs", *SCHOOLS} <= set(rule_icons(LAYOUT))


def test_a_school_icon_as_the_picture_fails_validate_on_every_card_of_the_school(
        game_copy: Callable[[str], Path]) -> None:
    folder = game_copy(GAME_ID)
    layout = (layouts_dir() / GAME_ID / "layout.toml").read_text(encoding="utf-8")
    old = f'ward = "{STYLE["school_art"]["ward"]}"'
    assert layout.count(old) == 1
    (folder / "layout.toml").write_text(layout.replace(old, 'ward = "ward"'), encoding="utf-8")
    issues = check_game(load_game(folder))
    assert sorted(i.card for i in issues) == sorted(c.id for c in GAME.cards("spells") if c.get("suit") == "spades")
    assert all("':ward:' (the Ward school" in i.message for i in issues)
