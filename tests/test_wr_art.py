"""Wizards & Relics' card art: every design (wizard, relic, shrine, the Friend) shows a picture of its own, an icon
from game-icons.net vendored and credited as Relic's are and chosen by card id in the layout's [style.art]."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from wizprint.cards.loader import load_game
from wizprint.generator.artcheck import art_min_size, rule_icons
from wizprint.generator.icons import icon_file
from wizprint.generator.layout import load_layout
from wizprint.resources import layouts_dir

GAME_ID = "wizards-and-relics"
GAME = load_game(GAME_ID)
LAYOUT = load_layout(GAME)
XLINK = "{http://www.w3.org/1999/xlink}href"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def wr(build):  # type: ignore[no-untyped-def]
    return build(GAME_ID, svg=True)


def pictures_in_svg(path: Path, least: float) -> list[str]:
    """The icons a built card SVG draws at least ``least`` mm wide (its picture): the names of its <use> elements'
    symbols (``#icon-NAME``) of that width."""
    found = []
    for use in ET.parse(path).getroot().iter(f"{SVG}use"):
        href = use.get(XLINK) or use.get("href") or ""
        if href.startswith("#icon-") and float(use.get("width", "0")) >= least - 1e-9:
            found.append(href[len("#icon-"):])
    return found


# -- a picture per design -------------------------------------------------------------------------------------
def test_in_the_built_svg_every_design_shows_one_picture_and_no_two_designs_share_one(wr) -> None:  # type: ignore[no-untyped-def]
    least = art_min_size(LAYOUT)
    seen: dict[str, str] = {}  # picture -> the design that shows it, over the whole game
    for deck in GAME.decl.decks:
        cards = GAME.cards(deck)
        pictures = {c.id: pictures_in_svg(wr.out_dir / "svg" / deck / f"{c.id}.svg", least) for c in cards}
        for card in cards:
            assert len(pictures[card.id]) == 1, (card.id, pictures[card.id])
        shared = {p: n for p, n in Counter(p[0] for p in pictures.values()).items() if n > 1}
        assert shared == {}, (deck, shared)
        for cid, (picture,) in pictures.items():
            assert picture not in seen, (cid, seen.get(picture), picture)  # nor across decks
            seen[picture] = cid
    assert len(seen) == len(GAME.cards()) == 145


def test_every_design_has_its_picture_in_the_art_table_and_none_is_a_rule_icon() -> None:
    art = LAYOUT.style["art"]
    designs = {c.id for c in GAME.cards()}
    assert set(art) - {"shared"} == designs  # no card left to the fallback picture, no stale id
    assert art["shared"] == []  # no picture is meant for two designs
    rules = rule_icons(LAYOUT)
    own = {p.stem for p in (layouts_dir() / GAME_ID / "icons").glob("*.svg")}
    assert own <= set(rules), sorted(own - set(rules))  # the game's own icons each carry a rule
    fallback = LAYOUT.style["art_fallback"]
    assert set(fallback) == set(GAME.decl.types)
    for name in [v for k, v in art.items() if k != "shared"] + list(fallback.values()):
        assert name not in rules, name


def test_the_pictures_are_vendored_game_icons_each_credited_with_its_author() -> None:
    credits = (layouts_dir() / "icons" / "CREDITS.md").read_text(encoding="utf-8")
    listed = dict(re.findall(r"^- `([a-z0-9-]+)`: (.+)$", credits, re.M))
    assert "@iconify-json/game-icons` 1.2.4" in credits and "CC BY 3.0" in credits
    assert list(listed) == sorted(listed)
    art = LAYOUT.style["art"]
    names = {v for k, v in art.items() if k != "shared"} | set(LAYOUT.style["art_fallback"].values())
    for name in names:
        path = icon_file(name, GAME_ID)
        assert path == layouts_dir() / "icons" / f"{name}.svg", name  # not shadowed by the game's own icons
        text = path.read_text(encoding="utf-8")
        assert f'"{name}" from game-icons.net (CC BY 3.0), via @iconify-json/game-icons 1.2.4' in text, name
        assert 'viewBox="0 0 512 512"' in text and 'fill="currentColor"' in text, name
        assert listed.get(name) == "GameIcons", name
    # and every game-icons.net file of the folder is in the list, none listed without its file
    vendored = {p.stem for p in (layouts_dir() / "icons").glob("*.svg")
                if "from game-icons.net" in p.read_text(encoding="utf-8")}
    assert set(listed) == vendored
