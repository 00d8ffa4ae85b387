"""Relic's card art: a picture per card from game-icons.net, rule icons reserved for their rule meaning (a layout
check fails the build otherwise), art windows and text boxes sized to the content, flavour below the rules and
one footer format on every deck."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from wizprint.cards.loader import load_game
from wizprint.cards.model import Record
from wizprint.errors import DataErrors
from wizprint.generator.artcheck import art_issues, art_min_size, icons_drawn, rule_icons
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.drawing import front_scenes
from wizprint.generator.faces import FaceBuilder
from wizprint.generator.icons import icon_file
from wizprint.generator.layout import load_layout
from wizprint.generator.scene import Ellipse, IconPlace, Item, Rect, Scene, Text
from wizprint.generator.units import PT
from wizprint.resources import layouts_dir
from wizprint.validation import check_game

GAME = load_game("relic")
LAYOUT = load_layout(GAME)
FB = FaceBuilder(GAME, LAYOUT, 0)


@functools.cache
def deck_scenes() -> dict[str, dict[str, Scene]]:
    """Every deck's front scenes by card (drawn once, by the first test that asks: not while the tests are
    collected, in every test process)."""
    return {d: front_scenes(GAME, LAYOUT, FB, d) for d in GAME.decl.decks}


CARDS: list[Record] = [c for d in GAME.decl.decks for c in GAME.cards(d)]
RULES = rule_icons(LAYOUT)
LEAST = art_min_size(LAYOUT)


def art_of(deck: str, card: Record) -> list[str]:
    """The icons a card's front draws as art (at least art_min_size wide)."""
    return [name for name, size in icons_drawn(deck_scenes()[deck][card.id].items) if size >= LEAST]


def test_every_card_has_one_picture_and_relic_shows_at_least_40_distinct_ones() -> None:
    arts: Counter[str] = Counter()
    for deck in GAME.decl.decks:
        for card in GAME.cards(deck):
            art = art_of(deck, card)
            assert len(art) == 1, (card.id, art)
            assert card.id in LAYOUT.style["art"], f"{card.id} has no art of its own in [style.art]"
            arts[art[0]] += 1
    assert len(arts) >= 40, len(arts)
    # chosen per card: the three Threat decks, Relics, Missions and Power cards each show many pictures
    for deck in GAME.decl.decks:
        distinct = {art_of(deck, c)[0] for c in GAME.cards(deck)}
        assert len(distinct) >= min(len(GAME.cards(deck)), 18), (deck, len(distinct))


def test_weapons_show_their_weapon_and_events_and_encounters_are_not_omens_or_missions() -> None:
    by_id = {c.id: c for c in CARDS}

    def art(cid: str) -> str:
        return art_of(by_id[cid].deck, by_id[cid])[0]

    swords_and_fists = {art(c) for c in ("WG01", "WG03", "WG05", "WG22")}  # Force Sword ... Warhammer
    assert len(swords_and_fists) == 4 and not swords_and_fists & {"weapon", "pistol-gun", "bolter-gun"}
    for deck in ("threat-red", "threat-blue", "threat-yellow"):
        for card in GAME.cards(deck):
            assert art(card.id) not in ("omen", "mission", "trophy", "equipment", "strength", "willpower", "cunning")
    assert len({art(c.id) for c in GAME.cards("relic")}) == 18  # not one winged skull for all 18


def test_no_rule_icon_is_art_and_every_rule_icon_is_reserved() -> None:
    assert {"omen", "mission", "threat-red", "threat-blue", "threat-yellow", "trophy", "charge", "influence",
            "level", "life", "strength", "willpower", "cunning", "corruption", "power", "relic"} <= set(RULES)
    # every icon of Relic's own icon folder carries a rule, so each is reserved
    own = {p.stem for p in (layouts_dir() / "relic" / "icons").glob("*.svg")}
    assert own <= set(RULES), sorted(own - set(RULES))
    for deck, scenes in deck_scenes().items():
        assert art_issues(GAME, LAYOUT, deck, scenes) == []
    for name in LAYOUT.style["art"].values():
        assert name not in RULES, name


def test_art_icons_are_vendored_game_icons_with_their_source() -> None:
    names = set(LAYOUT.style["art"].values()) | set(LAYOUT.style["art_fallback"].values())
    for name in names:
        path = icon_file(name, "relic")
        assert path == layouts_dir() / "icons" / f"{name}.svg", name  # not shadowed by a rule icon
        text = path.read_text(encoding="utf-8")
        assert f'"{name}" from game-icons.net (CC BY 3.0)' in text and 'viewBox="0 0 512 512"' in text


def _plant_omen_art(game_copy: Callable[[str], Path]) -> Path:
    folder = game_copy("relic")
    layout = (layouts_dir() / "relic" / "layout.toml").read_text(encoding="utf-8")
    planted, n = re.subn(r'(?m)^TR22 = "[a-z0-9-]+"', 'TR22 = "omen"', layout)
    assert n == 1
    (folder / "layout.toml").write_text(planted, encoding="utf-8")
    return folder


def test_a_layout_that_uses_the_omen_as_art_fails_validate_and_build(game_copy: Callable[[str], Path],
                                                                        tmp_path: Path) -> None:
    folder = _plant_omen_art(game_copy)
    issues = check_game(load_game(folder))
    assert len(issues) == 1
    issue = issues[0]
    assert issue.card == "TR22" and issue.file.endswith("layout.toml") and issue.line > 0
    assert "':omen:'" in issue.message and "rule icon" in issue.message and "Call of the Waaagh!" in issue.message
    lines = (folder / "layout.toml").read_text(encoding="utf-8").splitlines()
    assert lines[issue.line - 1].startswith('TR22 = "omen"')
    with pytest.raises(DataErrors) as err:
        build_game(folder, tmp_path / "out", BuildOptions(svg=False, png=False, csv=False, sheets=False))
    assert "[TR22] card art: the rule icon ':omen:'" in str(err.value)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").rglob("*.pdf"))


def test_a_face_that_draws_a_rule_icon_as_art_is_caught_whatever_chooses_it(
        game_copy: Callable[[str], Path]) -> None:
    folder = game_copy("relic")
    layout = (layouts_dir() / "relic" / "layout.toml").read_text(encoding="utf-8")
    # the Power face's art element draws the Power card icon for every card
    art_name = 'name = "{{ style.art[card.id] if card.id in style.art else style.art_fallback[card.type] }}"\n' \
               'color = "{{ style.art_ink.power }}"'
    assert layout.count(art_name) == 1
    (folder / "layout.toml").write_text(layout.replace(art_name, 'name = "power"'), encoding="utf-8")
    issues = check_game(load_game(folder))
    power = GAME.cards("power")
    assert sorted(i.card for i in issues) == sorted(c.id for c in power)
    assert all("':power:' (a Power card)" in i.message and i.file.endswith("power.toml") for i in issues)


def test_flavour_prints_below_the_rules_on_every_deck_corruption_included() -> None:
    """On every card with rules and flavour, the last line above the footer is flavour (italic words of the
    flavour) and every upright word of the rules lies above it."""
    checked: Counter[str] = Counter()
    for deck, scenes in deck_scenes().items():
        for card in GAME.cards(deck):
            if not card.flavor or not GAME.text(card).strip():
                continue
            texts = sorted((t for t in scenes[card.id].items if isinstance(t, Text)), key=lambda t: t.y)
            body = texts[:-1]  # the last text is the footer
            runs = [(t.y + r.baseline, r.italic, r.text) for t in body for r in t.layout.runs if not r.icon]
            bottom = max(b for b, _, _ in runs)
            flavour = set(card.flavor.split())
            last_line = [(italic, w) for b, italic, w in runs if abs(b - bottom) < 1e-6]
            assert all(italic and set(w.split()) <= flavour for italic, w in last_line), (card.id, last_line)
            upright = max(b for b, italic, _ in runs if not italic)
            assert upright < bottom, card.id
            checked[deck] += 1
    assert checked["corruption"] >= 20 and set(checked) >= {"corruption", "relic", "wargear", "threat-red", "mission"}


FOOTER = re.compile(r"^RL·(?P<id>[A-Z]{2}\d\d)( ×(?P<n>\d+))? · (?P<deck>[A-Za-z ]+ deck) · v1\.0$")


def test_one_footer_format_on_every_deck() -> None:
    """Every card front ends with the same footer: short game code and card id, copies, deck, version, in the same
    size and colour."""
    looks = set()
    for deck, scenes in deck_scenes().items():
        for card in GAME.cards(deck):
            texts = [t for t in scenes[card.id].items if isinstance(t, Text)]
            foot = max(texts, key=lambda t: t.y)
            line = re.sub(r"\s+", " ", " ".join(r.text for r in foot.layout.runs))
            m = FOOTER.match(line)
            assert m, (card.id, line)
            assert m["id"] == card.id and m["deck"] == GAME.decl.decks[deck].name
            assert int(m["n"] or 1) == card.copies
            looks.add((foot.layout.size, foot.color, foot.layout.lines))
    assert len(looks) == 1, looks


def _extent(it: Item) -> tuple[float, float] | None:
    if isinstance(it, Rect):
        return it.y, it.y + it.h
    if isinstance(it, Ellipse):
        return it.cy - it.ry, it.cy + it.ry
    if isinstance(it, IconPlace):
        return it.y, it.y + it.size
    if isinstance(it, Text) and it.layout.runs:
        top = min(r.baseline - r.size * PT * 0.8 for r in it.layout.runs)
        return it.y + top, it.y + max(r.baseline for r in it.layout.runs)
    return None


def test_no_empty_band_on_a_card_front() -> None:
    """Between the title and the footer, no horizontal band of a card front is left empty for more than 11 mm
    (the old layout left a 23 mm art window over ~30 mm of empty cream)."""
    worst: dict[str, float] = {}
    for deck, scenes in deck_scenes().items():
        for card in GAME.cards(deck):
            sc = scenes[card.id]
            spans = sorted(e for it in sc.items if (e := _extent(it)) is not None
                           if not (isinstance(it, Rect) and it.w * it.h > 0.75 * sc.w * sc.h))
            reach = spans[0][1]
            gap = 0.0
            for top, bottom in spans[1:]:
                gap = max(gap, top - reach)
                reach = max(reach, bottom)
            worst[card.id] = gap
    assert max(worst.values()) <= 11.0, sorted(worst.items(), key=lambda kv: -kv[1])[:5]


def test_art_windows_are_large() -> None:
    """The picture is the largest thing on the card: at least 20 mm wide on poker cards (31 mm on Threat and
    Wargear cards), 16 mm on minis."""
    for deck, scenes in deck_scenes().items():
        for card in GAME.cards(deck):
            size = max(s for _, s in icons_drawn(scenes[card.id].items))
            least = 16.0 if scenes[card.id].w < 50 else 30.0 if deck.startswith("threat") or deck == "wargear" else 20.0
            assert size >= least, (card.id, size)


def test_the_character_sheet_front_explains_every_level_reward_icon() -> None:
    face = LAYOUT.faces[LAYOUT.records["character"].front]
    rewards = set(LAYOUT.style["reward_icon"])
    assert {r for r, _ in LAYOUT.style["reward_legend"]} == rewards
    for rec in GAME.of_kind("character"):
        sc = FB.scene(face, rec, "character")
        drawn = {it.name for it in sc.items if isinstance(it, IconPlace)}
        legend_words = " ".join(" ".join(r.text for r in t.layout.runs) for t in sc.items if isinstance(t, Text))
        for reward, words in LAYOUT.style["reward_legend"]:
            assert LAYOUT.style["reward_icon"][reward] in drawn
            assert words in legend_words, (rec.id, words)
