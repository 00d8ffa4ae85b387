"""Wizards Cup in print: the wizard card anatomy of the rulebook (Value, name, Element as icon and word, Weakness, the
Magic power under its type), a picture of its own on each wizard (game-icons.net, credited; the Element and power
icons are rule icons, never the picture), Element icons that differ by shape and colours that keep text readable,
the two sets with their own backs (game.toml ``backs``: copy 1 black, copy 2 white, each set on sheets of its own
and aligned for duplex), the player aid's two sides (the Element diagram drawn from the rules its text states; the
duel on the back), the Victory tokens, the CSV and byte-identical rebuilds; and the errors of a bad ``backs``, each
at its file and line. The checks every game's PDFs pass (fonts, boxes, crop marks, card backs, safe zone) are in
test_print_pdf.py, which includes this game."""

from __future__ import annotations

import csv
import io
import itertools
import math
import re
import shutil
from collections import Counter
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from card_pictures import art_in_svg, game_icon_problem
from cli_helpers import run_here
from pdfcheck import MM, Placement, fonts_embedded, page_content
from PIL import Image, ImageChops, ImageDraw
from test_print_pdf import _assert_aligned, cards_on, flip_point

from wizprint.cards.loader import load_game
from wizprint.cards.model import Effect
from wizprint.errors import DataErrors
from wizprint.generator.artcheck import art_min_size, rule_icons
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.csvio import export_csv, import_csv
from wizprint.generator.deckpdf import PrintOptions, deck_pdf
from wizprint.generator.drawing import deck_sequence
from wizprint.generator.faces import FaceBuilder
from wizprint.generator.icons import load_icon
from wizprint.generator.impose import PAPERS
from wizprint.generator.layout import load_layout
from wizprint.generator.scene import Ellipse, Group, IconPlace, Item, Poly, Rect, Scene, Text, text_items
from wizprint.resources import cards_dir, layouts_dir
from wizprint.validation import Validation, check_game

GAME_ID = "wizards-cup"
GAME = load_game(GAME_ID)
LAYOUT = load_layout(GAME)
STYLE = LAYOUT.style
ELEMENTS = ("fire", "water", "nature", "light", "shadow", "void")
POWERS = ("immediate", "dormant", "permanent")


def scene_of(card_id: str) -> Scene:
    card = GAME.card(card_id)
    return FaceBuilder(GAME, LAYOUT, 3.0).scene(LAYOUT.front_face(card.deck, card.type), card, card.deck)


def flat(items: list[Item] | tuple[Item, ...]) -> list[Item]:
    """Every item of a scene, those inside groups too."""
    out: list[Item] = []
    for it in items:
        out.extend(flat(it.children) if isinstance(it, Group) else [it])
    return out


def line_of(t: Text) -> str:
    """A text item's words (inline icons as :name:), markup stars left out."""
    return " ".join(f":{r.icon}:" if r.icon else r.text for r in t.layout.runs)


def words(items: list[Item] | tuple[Item, ...]) -> str:
    return "\n".join(line_of(t) for t in text_items(list(items)))


def squash(markup: str) -> str:
    """Text without spaces, line breaks and markup stars, to compare what a face prints with its markup."""
    return re.sub(r"[\s*]", "", markup)


@pytest.fixture(scope="module")
def wcup(build):  # type: ignore[no-untyped-def]
    return build(GAME_ID, svg=True, png=True)


# -- the data -----------------------------------------------------------------------------------------------------
def test_the_game_validates_and_has_the_rulebook_counts() -> None:
    assert check_game(GAME) == []
    assert {d: GAME.physical_count(d) for d in GAME.decl.decks} == {"wizards": 36, "aids": 2}
    wizards = GAME.cards("wizards")
    assert len(wizards) == 18 and all(c.copies == 2 for c in wizards)
    assert Counter(c.get("element") for c in wizards) == dict.fromkeys(ELEMENTS, 3)
    assert GAME.decl.decks["wizards"].backs == ("black", "white")
    assert [GAME.decl.decks["wizards"].back_of(i) for i in (1, 2)] == ["black", "white"]
    assert GAME.decl.decks["aids"].back_of(1) == GAME.decl.decks["aids"].back_of(2) == "aid"


# -- the wizard cards ---------------------------------------------------------------------------------------------
def test_every_wizard_shows_the_rulebook_anatomy() -> None:
    """Value (big, top left), name, Element (its icon in the badge, icon and word on the ribbon), Weakness, the
    power's type (icon and word) and its text rendered from the effects; a wizard without a power has no power box."""
    for card in GAME.cards("wizards"):
        sc = scene_of(card.id)
        items = flat(sc.items)
        texts = text_items(items)
        el, power = card.get("element"), card.get("power")
        value = [t for t in texts if line_of(t) == str(card.get("value"))]
        assert len(value) == 1 and value[0].layout.size >= 20, card.id
        assert value[0].x < 10 and value[0].y < 10, card.id  # the top corner
        assert any(line_of(t).replace(" ", "") == card.name.replace(" ", "") for t in texts), card.id
        text = words(sc.items)
        assert f":{el}: {STYLE['element_name'][el].upper()} element" in text, card.id
        badge = [i for i in items if isinstance(i, IconPlace) and i.name == el]
        assert [(i.x > 45 and i.y < 10) for i in badge] == [True], card.id  # the Element's badge, top right
        assert f":weakness: Weakness: {card.get('weakness')}" in text.split("\n"), card.id
        assert sc.background == STYLE["colour"][el]  # framed in the Element's colour
        if power == "none":
            assert not any(f":{p}:" in text for p in POWERS), card.id
            assert "No Magic power" in text and not card.effects, card.id
            assert not [r for r in items if isinstance(r, Rect) and r.paint.fill == "#ffffff"], card.id  # no box
        else:
            header = f":{power}: {STYLE['power_name'][power]} power"
            assert any(ln.startswith(header) for ln in text.split("\n")), card.id
            box = [r for r in items if isinstance(r, Rect) and r.paint.fill == "#ffffff"]
            assert len(box) == 1, card.id
            rules = GAME.vocabulary.render(card.effects, card)
            assert squash(rules) in squash(text), card.id
        if card.flavor:
            assert squash(card.flavor) in squash(text), card.id


def test_rules_text_is_never_shrunk_below_a_readable_size() -> None:
    fb = FaceBuilder(GAME, LAYOUT, 3.0)
    for d in GAME.decl.decks:
        for card in GAME.cards(d):
            for t in text_items(fb.scene(LAYOUT.front_face(d, card.type), card, d).items):
                assert t.layout.size >= 4.5, (card.id, line_of(t), t.layout.size)
                assert t.layout.height <= t.h + 1e-6, card.id
                if card.effects and squash(line_of(t)) and squash(line_of(t)) in squash(
                        GAME.vocabulary.render(card.effects, card)):
                    assert t.layout.size >= 7.0, card.id  # the power's text


def silhouette(name: str, px: int = 120) -> Image.Image:
    """An icon's outline filled: its shape, whatever its colour."""
    icon = load_icon(name, GAME_ID)
    img = Image.new("1", (px, px), 0)
    draw = ImageDraw.Draw(img)
    k = px / icon.size
    for sh in icon.shapes:
        pts: list[tuple[float, float]] = []
        for seg in sh.segs:
            if seg.op == "M" and len(pts) > 2:
                draw.polygon(pts, fill=1)
                pts = []
            pts.extend((x * k, y * k) for x, y in seg.pts)
        if len(pts) > 2:
            draw.polygon(pts, fill=1)
    return img


def overlap(a: Image.Image, b: Image.Image) -> float:
    """Intersection over union of two silhouettes (1.0: the same shape)."""
    inter = ImageChops.logical_and(a, b).convert("L").histogram()[255]
    union = ImageChops.logical_or(a, b).convert("L").histogram()[255]
    return float(inter) / union


def test_element_and_power_icons_differ_by_shape_not_only_by_colour() -> None:
    for group in (ELEMENTS, POWERS):
        masks = {n: silhouette(n) for n in group}
        for i, a in enumerate(group):
            assert masks[a].histogram()[1] > 500, a  # an icon, not an empty file
            for b in group[i + 1:]:
                assert overlap(masks[a], masks[b]) < 0.7, (a, b)


def test_every_wizard_prints_a_picture_of_its_own(wcup) -> None:  # type: ignore[no-untyped-def]
    """Each of the 18 designs' SVG draws exactly one picture, none the same as another's (by name or by drawing:
    The Traveler and The Stargazer no longer share the Void's vortex); the Element keeps its rule icon, small."""
    least = art_min_size(LAYOUT)
    pictures = {}
    for card in GAME.cards("wizards"):
        art = art_in_svg(wcup.out_dir / "svg" / "wizards" / f"{card.id}.svg", least)
        assert len(art) == 1, (card.id, [a.name for a in art])
        assert art[0].name not in rule_icons(LAYOUT), card.id
        pictures[card.id] = art[0]
    assert len(pictures) == 18
    for key in (lambda d: d.name, lambda d: d.body):
        shared = {k: n for k, n in Counter(key(d) for d in pictures.values()).items() if n > 1}
        assert not shared, sorted(cid for cid, d in pictures.items() if key(d) in shared)
    assert pictures["C17"].body != pictures["C18"].body


def test_pictures_are_credited_game_icons_and_elements_and_powers_are_rule_icons() -> None:
    names = set(STYLE["art"].values()) | set(STYLE["art_fallback"].values())
    assert set(STYLE["art"]) == {c.id for c in GAME.cards("wizards")}
    assert set(STYLE["art_fallback"]) == set(ELEMENTS)
    assert [p for n in sorted(names) if (p := game_icon_problem(n, GAME_ID))] == []
    assert set(ELEMENTS) | set(POWERS) | {"weakness"} <= set(rule_icons(LAYOUT))
    assert not names & set(rule_icons(LAYOUT))


def test_an_element_icon_as_a_wizards_picture_fails_validate(tmp_path: Path) -> None:
    folder = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, folder)
    layout = (layouts_dir() / GAME_ID / "layout.toml").read_text(encoding="utf-8")
    planted, n = re.subn(r'(?m)^C17 = "[a-z0-9-]+"', 'C17 = "void"', layout)
    assert n == 1
    (folder / "layout.toml").write_text(planted, encoding="utf-8")
    issues = check_game(load_game(folder))
    assert [(i.card, "':void:' (the Void Element)" in i.message) for i in issues] == [("C17", True)]
    assert planted.splitlines()[issues[0].line - 1].startswith('C17 = "void"')


def luminance(colour: str) -> float:
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_element_colours_keep_every_text_readable() -> None:
    """White on the frame (name, power heading), white on the dark ribbon, dark on the light panel, and the
    muted flavour text: at least the 4.5 of WCAG AA for small text; the six frames also differ from each other."""
    for el in ELEMENTS:
        assert contrast("#ffffff", STYLE["colour"][el]) >= 4.5, el
        assert contrast("#ffffff", STYLE["dark"][el]) >= 7, el
        assert contrast(STYLE["dark"][el], STYLE["light"][el]) >= 7, el
        assert contrast(STYLE["colour"][el], STYLE["tint"][el]) >= 3, el  # the picture on its panel
        assert contrast(STYLE["muted"], "#ffffff") >= 4.5
    frames = [STYLE["colour"][el] for el in ELEMENTS]
    assert len(set(frames)) == 6


# -- the two sets: one back per copy ------------------------------------------------------------------------------
def test_each_copy_prints_with_its_own_back_one_set_after_the_other(wcup) -> None:  # type: ignore[no-untyped-def]
    fronts = {c.id: scene_of(c.id) for c in GAME.cards("wizards")}
    backs = {name: FaceBuilder(GAME, LAYOUT, 3.0).scene(face, None, "wizards")
             for name, face in LAYOUT.back_faces("wizards").items()}
    assert set(backs) == {"black", "white"}
    seq = deck_sequence(GAME, "wizards", fronts, backs)
    ids = [c.id for c in GAME.cards("wizards")]
    assert [cid for cid, _ in seq.cards] == ids + ids  # every first copy, then every second copy
    assert seq.backs == [backs["black"]] * 18 + [backs["white"]] * 18
    assert seq.groups == [("black", 18), ("white", 18)]
    out = next(o for o in wcup.outputs if o.file == "cards-wizards.pdf")
    assert out.extra["backs"] == {"black": 18, "white": 18} and out.extra["cards"] == 36


def back_ground(path: Path) -> list[tuple[int, list[float], list[str]]]:
    """For every page of backs: its number, the brightness (0-255) of each card's ground (sampled inside the
    corners, where a back has neither border nor emblem), and the front ids of the facing page, by form name."""
    doc = pdfium.PdfDocument(path)
    out = []
    try:
        with pikepdf.open(path) as pdf:
            for pno in range(1, len(pdf.pages), 2):
                page = pdf.pages[pno]
                img = doc[pno].render(scale=100 / 72).to_pil().convert("L")
                h = float(page.MediaBox[3])
                seen = []
                for c in cards_on(page_content(page)[0], 3.0):
                    x0, y0, x1, y1 = c.x0 + 3 * MM, c.y0 + 3 * MM, c.x1 - 3 * MM, c.y1 - 3 * MM
                    samples = []
                    for x, y in ((x0 + 8 * MM, y0 + 8 * MM), (x1 - 8 * MM, y0 + 8 * MM), (x0 + 8 * MM, y1 - 8 * MM),
                                 (x1 - 8 * MM, y1 - 8 * MM)):
                        px = img.getpixel((round(x * 100 / 72), round((h - y) * 100 / 72)))
                        assert isinstance(px, int)
                        samples.append(px)
                    seen.append(sum(samples) / 4)
                names = [p.name for p in cards_on(page_content(pdf.pages[pno - 1])[0], 3.0)]
                out.append((pno, seen, names))
    finally:
        doc.close()
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_18_black_backs_then_18_white_backs_and_no_sheet_mixes_them(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    result = build(GAME_ID, paper=paper)
    path = result.out_dir / "cards-wizards.pdf"
    sheets = back_ground(path)
    colours = []
    for _pno, ground, _ in sheets:
        dark = [g < 60 for g in ground]
        light = [g > 200 for g in ground]
        assert all(dark) or all(light), ground  # one set on each sheet
        colours.append(("black" if all(dark) else "white", len(ground)))
    assert sum(n for c, n in colours if c == "black") == 18 and sum(n for c, n in colours if c == "white") == 18
    first_white = next(i for i, (c, _) in enumerate(colours) if c == "white")
    assert all(c == "black" for c, _ in colours[:first_white]) and all(c == "white" for c, _ in colours[first_white:])
    # the fronts of each set are the 18 designs once each (the same form on the two sets: equal fronts)
    black_fronts = [n for _, _, names in sheets[:first_white] for n in names]
    white_fronts = [n for _, _, names in sheets[first_white:] for n in names]
    assert len(set(black_fronts)) == len(black_fronts) == 18 and sorted(black_fronts) == sorted(white_fronts)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_fronts_and_backs_align_for_duplex(build, paper: str, duplex: str) -> None:  # type: ignore[no-untyped-def]
    result = build(GAME_ID, paper=paper, duplex=duplex)
    assert _assert_aligned(result.out_dir / "cards-wizards.pdf", paper, duplex, (0.0, 0.0)) == 36
    assert _assert_aligned(result.out_dir / "cards-aids.pdf", paper, duplex, (0.0, 0.0)) == 2


def test_gutterfold_keeps_each_set_on_pages_of_its_own(build) -> None:  # type: ignore[no-untyped-def]
    result = build(GAME_ID, layout="gutterfold")
    with pikepdf.open(result.out_dir / "cards-wizards.pdf") as pdf:
        per_page = [len(cards_on(page_content(p)[0], 3.0)) // 2 for p in pdf.pages]
    assert sum(per_page) == 36
    # the pages of the Black set hold its 18 cards, then the White set's pages begin
    assert 18 in itertools.accumulate(per_page), per_page


def test_a_deck_in_one_group_prints_as_it_did_without_groups() -> None:
    """The grouping leaves a deck with one back as it was: the same bytes with one group as with none."""
    fronts = [(c.id, scene_of(c.id)) for c, _ in GAME.iter_copies("wizards")][:11]
    back = FaceBuilder(GAME, LAYOUT, 3.0).scene(LAYOUT.back_face("wizards", "black"), None, "wizards")
    for opts in (PrintOptions(), PrintOptions(layout="gutterfold"), PrintOptions(duplex="off")):
        plain = deck_pdf("t", fronts, back, opts)
        grouped = deck_pdf("t", fronts, back, opts, [("", 11)])
        assert plain.data == grouped.data and plain.pages == grouped.pages
    two = deck_pdf("t", fronts, back, PrintOptions(layout="spaced"), [("black backs", 9), ("white backs", 2)])
    assert two.pages == 6 and [len(p.slots) for p in two.placed] == [8, 8, 1, 1, 2, 2]  # 9 = 8 + 1, then 2


# -- the player aid -------------------------------------------------------------------------------------------------
def loses_to_in_the_text(text: str) -> set[tuple[str, str]]:
    """The pairs (loser, winner) that the aid's text states: 'Fire loses to Water.', 'Light loses to Water, Fire
    and Nature.'"""
    pairs = set()
    for loser, winners in re.findall(r"(\w+) loses to ([\w ,]+?)\.", text):
        for w in re.split(r", | and ", winners):
            pairs.add((loser.lower(), w.strip().lower()))
    return pairs


def test_the_aid_front_draws_the_element_diagram_of_its_text() -> None:
    """Every arrow starts at an Element's disc and points at the Element it loses to: exactly the pairs the text
    of the record states (and those of the rulebook); Void has no arrow out."""
    a1 = GAME.card("A1")
    sc = scene_of("A1")
    items = flat(sc.items)
    discs = {i.name: (i.x + i.size / 2, i.y + i.size / 2) for i in items if isinstance(i, IconPlace)}
    assert set(discs) == set(ELEMENTS)
    assert Counter(i.name for i in items if isinstance(i, IconPlace)) == dict.fromkeys(ELEMENTS, 1)
    for el in ELEMENTS:  # each disc in its Element's colour, with its word
        assert any(isinstance(e, Ellipse) and e.paint.fill == STYLE["colour"][el] for e in items), el
        assert STYLE["element_name"][el].upper() in words(sc.items).split("\n"), el

    def nearest(p: tuple[float, float]) -> str:
        return min(discs, key=lambda n: math.dist(p, discs[n]))

    arrows = set()
    for poly in (i for i in items if isinstance(i, Poly) and i.closed and len(i.points) == 7):
        tail = ((poly.points[0][0] + poly.points[6][0]) / 2, (poly.points[0][1] + poly.points[6][1]) / 2)
        tip = poly.points[3]
        loser, winner = nearest(tail), nearest(tip)
        assert math.dist(tail, discs[loser]) < 10 and math.dist(tip, discs[winner]) < 10, poly
        arrows.add((loser, winner))
    rulebook = {("fire", "water"), ("water", "nature"), ("nature", "fire"), ("shadow", "light"),
                ("light", "water"), ("light", "fire"), ("light", "nature")}
    assert loses_to_in_the_text(a1.text) == rulebook
    assert arrows == rulebook
    assert "loses to" in words(sc.items) and "no weakness" in words(sc.items)
    # and the record's text, all of it, under the diagram
    assert squash(a1.text) in squash(words(sc.items).replace(":", ""))


def test_the_aid_back_has_the_duel_and_the_power_types_in_the_wording_of_aids_toml() -> None:
    back = FaceBuilder(GAME, LAYOUT, 3.0).scene(LAYOUT.back_face("aids"), None, "aids")
    text = words(back.items).replace("\n", " ")
    source = (cards_dir() / GAME_ID / "aids.toml").read_text(encoding="utf-8")
    block = source[source.index("# ---- The back of the player aid"):].splitlines()[1:]
    said = [ln.lstrip("#").strip() for ln in block if ln.startswith("#   ")]
    assert len(said) >= 10
    printed = squash(text).lower()
    for sentence in said:
        assert squash(sentence).lower() in printed, sentence
    for heading in ("Duel", "End of the duel", "Magic powers"):
        assert heading in text
    letters = [line_of(t) for t in text_items(back.items) if line_of(t) in ("A", "B", "C")]
    assert letters == ["A", "B", "C"]  # the criteria in their order
    for p in POWERS:  # each type with its icon, as on the cards
        assert f":{p}: {STYLE['power_name'][p]}:" in text, p


# -- the tokens -----------------------------------------------------------------------------------------------------
def tokens_on(page: pikepdf.Page) -> list[Placement]:
    """The token faces placed on a page: 25 mm tokens with 1 mm of bleed."""
    return [p for p in page_content(page)[0] if abs((p.x1 - p.x0) / MM - 27.0) < 0.1]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_three_double_sided_victory_tokens_share_the_aids_sheet_aligned_for_duplex(  # type: ignore[no-untyped-def]
        build, paper: str, duplex: str) -> None:
    """The 3 Victory tokens print on the empty row of the player aids' sheet (4 tarot slots, 2 aids), clear of the
    aids and their bleed, their backs behind them."""
    result = build(GAME_ID, paper=paper, duplex=duplex)
    files = {o.file: o for o in result.outputs}
    out = files["cards-aids.pdf"]
    assert "tokens.pdf" not in files and out.extra["tokens"] == {"victory-tokens": 3}
    pw, ph = PAPERS[paper]
    with pikepdf.open(result.out_dir / "cards-aids.pdf") as pdf:
        assert pdf.check_pdf_syntax() == [] and fonts_embedded(pdf) == []
        pages = list(pdf.pages)
        assert len(pages) == out.pages == 2
        fronts, backs = tokens_on(pages[0]), tokens_on(pages[1])
        assert len(fronts) == len(backs) == 3
        for f in fronts:
            fx, fy = flip_point((f.centre[0] / MM, f.centre[1] / MM), (pw, ph), duplex)
            assert min(math.dist((b.centre[0] / MM, b.centre[1] / MM), (fx, fy)) for b in backs) <= 0.2
        for page, faces in ((pages[0], fronts), (pages[1], backs)):
            aids = cards_on(page_content(page)[0], 3.0)
            assert len(aids) == 2
            for t in faces:
                for a in aids:
                    assert t.x1 <= a.x0 or t.x0 >= a.x1 or t.y1 <= a.y0 or t.y0 >= a.y1


# -- the build ----------------------------------------------------------------------------------------------------
def test_build_makes_every_component(wcup) -> None:  # type: ignore[no-untyped-def]
    files = {o.file: o for o in wcup.outputs}
    for name in ("cards-wizards.pdf", "cards-aids.pdf", "wizards-cup.csv", "preview-wizards.png",
                 "preview-aids.png", "svg/wizards/back-black.svg", "svg/wizards/back-white.svg", "svg/aids/back.svg"):
        assert name in files, name
    assert "svg/wizards/back.svg" not in files
    assert files["svg/wizards/back-white.svg"].extra == {"card": "back", "back": "white"}
    assert sum(1 for f in files if f.startswith("svg/")) == len(GAME.cards()) + 3
    assert files["cards-wizards.pdf"].pages == 8  # 2 butted sheets of 9 for each set, fronts and backs
    assert files["cards-aids.pdf"].pages == 2 and "tokens.pdf" not in files  # the tokens are on the aids' sheet
    with Image.open(wcup.out_dir / "preview-wizards.png") as im:
        assert im.size[0] > 500
    for o in files.values():
        if o.file.endswith(".pdf"):
            with pikepdf.open(wcup.out_dir / o.file) as pdf:
                assert pdf.check_pdf_syntax() == [] and fonts_embedded(pdf) == [], o.file
                assert all("/TrimBox" in p.obj for p in pdf.pages), o.file


def test_csv_lists_every_design_with_its_copies_and_imports_back(tmp_path: Path) -> None:
    text = export_csv(GAME)
    rows = list(csv.DictReader(io.StringIO(text.removeprefix("\ufeff"))))  # the byte-order mark, as utf-8-sig reads
    assert len(rows) == 19 and sum(int(r["copies"]) for r in rows) == 38
    assert Counter(r["type"] for r in rows) == {"wizard": 18, "aid": 1}
    c13 = next(r for r in rows if r["id"] == "C13")
    assert (c13["element"], c13["value"], c13["power"], c13["weakness"]) == ("shadow", "5", "immediate",
                                                                             "The Lamplighter")
    assert "Waiting card" in c13["rules_text"] and "**" not in c13["rules_text"]
    path = tmp_path / "wcup.csv"
    path.write_text(text, encoding="utf-8")
    back = load_game(import_csv(GAME, path, tmp_path / "imported").parent)
    assert [(c.id, c.copies, dict(c.fields), c.effects) for c in back.cards()] == [
        (c.id, c.copies, dict(c.fields), c.effects) for c in GAME.cards()]
    assert back.decl.decks["wizards"].backs == ("black", "white")  # the imported folder keeps its two sets
    assert isinstance(GAME.card("C17").effects[0], Effect)


def test_rebuilding_gives_identical_bytes(tmp_path: Path) -> None:
    a = build_game(GAME_ID, tmp_path / "a", BuildOptions())
    b = build_game(GAME_ID, tmp_path / "b", BuildOptions())
    files = sorted(p.relative_to(a.out_dir) for p in a.out_dir.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b.out_dir) for p in b.out_dir.rglob("*") if p.is_file())
    assert len(files) == 31  # 27 files, the print guide, the low-ink set of the 2 PDFs and the manifest
    for rel in files:
        assert (a.out_dir / rel).read_bytes() == (b.out_dir / rel).read_bytes(), rel


def test_wizprint_games_names_the_backs_of_each_copy() -> None:
    res = run_here("games")  # what it prints: in-process
    assert res.returncode == 0, res.stderr
    block = res.stdout.split("wizards-cup:", 1)[1].split("\nwizard-cards:", 1)[0]
    assert "deck wizards: Wizard cards, 36 cards (36 wizard)" in block
    assert "backs: copy 1 black, copy 2 white" in block
    assert "tokens victory-tokens: Victory tokens x3" in block
    assert res.stdout.count("backs: copy") == 1  # only the deck whose copies have their own backs


# -- a bad `backs`: one clean error at its file and line --------------------------------------------------------------
def problems(folder: Path) -> list[str]:
    lines = [line for line, ok in Validation([str(folder)]) if not ok]
    assert all("\n" not in ln and "Traceback" not in ln for ln in lines)
    return lines


def line_no(path: Path, needle: str, after: str = "") -> int:
    text = path.read_text(encoding="utf-8")
    start = text.index(after) if after else 0
    return text[: text.index(needle, start)].count("\n") + 1


BACKS = 'backs = ["black", "white"]'


@pytest.mark.parametrize("new,words", [
    ('backs = ["black"]', r"decks\[1\]\.backs: must list a back for each copy of a card, at least two"),
    ('backs = ["black", "black"]', r"decks\[1\]\.backs: lists 'black' twice"),
    ('backs = ["black", "../white"]', r"decks\[1\]\.backs\[2\]: id '\.\./white' must be 1-64 letters"),
    ('backs = "black"', r"decks\[1\]\.backs: must be a list, not 'black'"),
    ('back = "black"\n' + BACKS, r"deck 'wizards' has 'back' and 'backs': give one back to the whole deck"),
])
def test_a_bad_backs_in_game_toml_is_one_error_at_its_line(tmp_path: Path, new: str, words: str) -> None:
    g = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, g)
    game_toml = g / "game.toml"
    text = game_toml.read_text(encoding="utf-8")
    assert BACKS in text
    game_toml.write_text(text.replace(BACKS, new, 1), encoding="utf-8")
    lines = problems(g)
    assert len(lines) == 1, lines
    want = line_no(game_toml, "backs")
    assert re.search(rf"game\.toml:{want}: {words}", lines[0]), (lines, want)
    with pytest.raises(DataErrors):
        load_game(g)


def test_copies_must_match_the_backs_at_the_card_and_its_line(tmp_path: Path) -> None:
    g = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, g)
    wizards = g / "wizards.toml"
    text = wizards.read_text(encoding="utf-8")
    anchor = 'id = "C05"'
    i = text.index("copies = 2", text.index(anchor))
    wizards.write_text(text[:i] + "copies = 3" + text[i + len("copies = 2"):], encoding="utf-8")
    lines = problems(g)
    at = line_no(wizards, "copies = 3")
    assert any(re.search(rf"wizards\.toml:{at}: \[C05\] copies must be 2, not 3: deck 'wizards' gives each copy "
                         r"of a card its own back \(black, white\)", ln) for ln in lines), lines
    # and a third back in game.toml asks every design for a third copy, each at its own line
    shutil.rmtree(g)
    shutil.copytree(cards_dir() / GAME_ID, g)
    game_toml = g / "game.toml"
    game_toml.write_text(game_toml.read_text(encoding="utf-8").replace(BACKS, 'backs = ["black", "white", "red"]'),
                         encoding="utf-8")
    lines = problems(g)
    assert len(lines) == 18 and all("copies must be 3, not 2" in ln for ln in lines), lines
    first = line_no(g / "wizards.toml", "copies = 2", after='id = "C01"')
    assert re.search(rf"wizards\.toml:{first}: \[C01\]", lines[0]), lines


@pytest.mark.parametrize("old,new,words", [
    ('backs = { black = "back-black", white = "back-white" }', 'backs = { black = "back-black" }',
     r"layout\.toml:(\d+): deck 'wizards': backs has no face for the back 'white'"),
    ('backs = { black = "back-black", white = "back-white" }',
     'backs = { black = "back-black", white = "back-white", grey = "back-white" }',
     r"layout\.toml:(\d+): deck 'wizards': backs names 'grey', which is not one of its backs in game\.toml"),
    ('backs = { black = "back-black", white = "back-white" }', 'backs = { black = "back-black", white = "nope" }',
     r"layout\.toml:(\d+): deck 'wizards': face 'nope' is not defined"),
    ('backs = { black = "back-black", white = "back-white" }', 'back = "back-black"',
     r"layout\.toml:(\d+): deck 'wizards': backs has no face for the back 'black'"),
    ('back = "aid-back"', 'backs = { black = "aid-back" }',
     r"layout\.toml:(\d+): deck 'aids': 'backs' gives each copy of a card its own back, but game\.toml gives"),
    ('back = "aid-back"', '', r"layout\.toml:(\d+): decks\.aids: missing 'back'"),
])
def test_a_layout_must_give_a_face_to_each_back(tmp_path: Path, old: str, new: str, words: str) -> None:
    g = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, g)
    layout = g / "layout.toml"
    text = (layouts_dir() / GAME_ID / "layout.toml").read_text(encoding="utf-8")
    assert old in text
    layout.write_text(text.replace(old, new, 1), encoding="utf-8")
    lines = problems(g)
    assert lines, "no problem found"
    m = re.search(words, lines[0])
    assert m, lines
    deck = "aids" if "aids" in words else "wizards"
    assert int(m[1]) in range(line_no(layout, f"[decks.{deck}]"), line_no(layout, f"[decks.{deck}]") + 5), lines


def test_validate_on_the_command_line_says_where(tmp_path: Path) -> None:
    g = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, g)
    game_toml = g / "game.toml"
    game_toml.write_text(game_toml.read_text(encoding="utf-8").replace(BACKS, 'backs = ["black"]'),
                         encoding="utf-8")
    res = run_here("validate", str(g), cwd=tmp_path)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    errors = [ln for ln in res.stderr.splitlines() if ln.startswith("error:")]
    assert errors == [f"error: {GAME_ID}/game.toml:{line_no(game_toml, 'backs')}: decks[1].backs: must list a back "
                      "for each copy of a card, at least two (a deck whose cards all share one back has 'back')"]
