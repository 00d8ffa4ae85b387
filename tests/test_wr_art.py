"""Wizards & Relics' card art: every design (wizard, relic, shrine, the Friend) shows a picture of its own, an icon
from game-icons.net vendored and credited as Relic's are and chosen by card id in the layout's [style.art]; and
`wizprint validate` warns, with the file and line to look at, when two designs of one deck show the same picture,
unless the layout lists that picture in [style.art] shared."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_helpers import run_here

from wizprint.cards.loader import load_game
from wizprint.cards.model import Record
from wizprint.errors import Issue
from wizprint.generator.artcheck import art_min_size, rule_icons
from wizprint.generator.icons import icon_file
from wizprint.generator.layout import load_layout
from wizprint.resources import cards_dir, layouts_dir
from wizprint.validation import WARNING, Validation, check_game

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


def test_the_shipped_games_with_a_picture_per_design_validate_without_a_warning() -> None:
    for game_id in (GAME_ID, "relic"):
        warnings: list[Issue] = []
        assert check_game(load_game(game_id), warnings) == []
        assert warnings == [], game_id


# -- validate: designs that share a picture -----------------------------------------------------------------
def _copy_with_layout(game_copy: Callable[[str], Path], edit: Callable[[str], str]) -> Path:
    folder = game_copy(GAME_ID)
    layout = (layouts_dir() / GAME_ID / "layout.toml").read_text(encoding="utf-8")
    (folder / "layout.toml").write_text(edit(layout), encoding="utf-8")
    return folder


def _same_as_r01(layout: str) -> str:
    r01 = re.search(r'(?m)^R01 = "([a-z0-9-]+)"', layout)
    assert r01
    planted, n = re.subn(r'(?m)^R02 = "[a-z0-9-]+"', f'R02 = "{r01[1]}"', layout)
    assert n == 1
    return planted


def _line_of(path: Path, start: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, ln in enumerate(lines, 1) if ln.startswith(start))


def test_two_designs_of_a_deck_with_one_picture_are_a_warning_at_the_art_table_line(
        game_copy: Callable[[str], Path]) -> None:
    folder = _copy_with_layout(game_copy, _same_as_r01)
    res = run_here("validate", str(folder), cwd=folder.parent)
    assert res.returncode == 0, res.stderr  # a warning: the game still builds
    warnings = [ln for ln in res.stderr.splitlines() if ln.startswith(WARNING)]
    assert len(warnings) == 1 and "error:" not in res.stderr, res.stderr
    line = _line_of(folder / "layout.toml", 'R02 = "')
    assert f"layout.toml:{line}: [R02] picture ':sharp-crown:' is shown by 2 designs of deck 'duel' (R01, R02)" \
        in warnings[0], warnings[0]
    assert "[style.art]" in warnings[0] and "shared" in warnings[0]
    assert "ok: wizards-and-relics (148 cards in 145 designs, 0 other records; 1 warning)" in res.stdout


def test_a_picture_listed_in_shared_is_not_warned_about(game_copy: Callable[[str], Path]) -> None:
    def meant(layout: str) -> str:
        return _same_as_r01(layout).replace("[style.art]\nshared = []", '[style.art]\nshared = ["sharp-crown"]', 1)

    for edit, warned in ((_same_as_r01, 1), (meant, 0)):
        folder = _copy_with_layout(game_copy, edit)
        v = Validation([str(folder)])
        lines = list(v)
        assert v.problems == 0 and v.warnings == warned, lines
        shutil.rmtree(folder)
    assert 'shared = ["sharp-crown"]' in meant((layouts_dir() / GAME_ID / "layout.toml").read_text(encoding="utf-8"))


def test_a_picture_the_art_table_does_not_name_is_warned_about_at_the_second_card(
        game_copy: Callable[[str], Path]) -> None:
    # two relics left out of [style.art] both show the relics' fallback picture
    def unnamed(layout: str) -> str:
        return re.sub(r'(?m)^R0[45] = "[a-z0-9-]+".*\n', "", layout)

    folder = _copy_with_layout(game_copy, unnamed)
    v = Validation([str(folder)])
    warnings = [ln for ln, ok in v if ln.startswith(WARNING)]
    assert v.problems == 0 and len(warnings) == 1, warnings
    fallback = LAYOUT.style["art_fallback"]["relic"]
    r05: Record = GAME.card("R05")
    assert f"relics.toml:{r05.source.line}: [R05] picture ':{fallback}:' is shown by 2 designs of deck 'duel' " \
           "(R04, R05)" in warnings[0], warnings[0]


def test_a_face_that_draws_one_picture_on_every_card_is_one_warning_per_deck(tmp_path: Path) -> None:
    # the shrines as they were: one temple on all 24
    folder = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, folder)
    layout = (layouts_dir() / GAME_ID / "layout.toml").read_text(encoding="utf-8")
    art = ('name = "{{ style.art[card.id] if card.id in style.art else style.art_fallback[card.type] }}"\n'
           'color = "{{ style.art_ink.shrine }}"')
    assert layout.count(art) == 1
    (folder / "layout.toml").write_text(layout.replace(art, 'name = "greek-temple"'), encoding="utf-8")
    warnings = [ln for ln, ok in Validation([str(folder)]) if ln.startswith(WARNING)]
    assert len(warnings) == 1, warnings
    assert "[S02] picture ':greek-temple:' is shown by 24 designs of deck 'shrines' (S01, S02, S03, S04, S05, " \
           "S06 and 18 more)" in warnings[0], warnings[0]


def test_a_shared_list_that_is_not_a_list_of_names_is_a_warning_at_its_line(
        game_copy: Callable[[str], Path]) -> None:
    folder = _copy_with_layout(game_copy, lambda s: s.replace("[style.art]\nshared = []",
                                                              '[style.art]\nshared = "sharp-crown"', 1))
    warnings = [ln for ln, ok in Validation([str(folder)]) if ln.startswith(WARNING)]
    line = _line_of(folder / "layout.toml", "shared = ")
    assert len(warnings) == 1 and f"layout.toml:{line}: [style.art] shared must be a list of icon names" \
        in warnings[0], warnings
