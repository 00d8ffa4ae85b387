"""Wizards & Relics in print: the card anatomy of the rulebook (power, rarity mark, advantage, subtype, type line,
text from the effects), rarity marks that differ by shape, the Friend card's two sides, the map as SVG and as
sheets that fit the paper, the double-sided +1/+3 tokens aligned for duplex like the card backs, the CSV, the
manifest and byte-identical rebuilds. The checks every game's PDFs pass (fonts, boxes, card backs, safe zone)
are in test_print_pdf.py, which includes this game."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
from pdfcheck import MM, Placement, fonts_embedded, page_content
from PIL import Image, ImageChops, ImageDraw, ImageStat

from wizprint.cards.loader import load_game
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.csvio import export_csv
from wizprint.generator.deckpdf import PrintOptions
from wizprint.generator.faces import FaceBuilder
from wizprint.generator.icons import load_icon
from wizprint.generator.impose import PAPERS
from wizprint.generator.layout import load_layout
from wizprint.generator.playmap import load_map
from wizprint.generator.scene import Group, IconPlace, Item, Rect, Scene, text_items
from wizprint.resources import cards_dir, layouts_dir
from wizprint.validation import check_game

GAME_ID = "wizards-and-relics"
GAME = load_game(GAME_ID)
LAYOUT = load_layout(GAME)
BEATS = {"green": "blue", "blue": "red", "red": "green"}  # the rulebook's advantage
RSVG = shutil.which("rsvg-convert")


def scene_of(card_id: str) -> Scene:
    card = GAME.card(card_id)
    return FaceBuilder(GAME, LAYOUT, 3.0).scene(LAYOUT.front_face(card.deck, card.type), card, card.deck)


def words(items: list[Item] | tuple[Item, ...]) -> str:
    """The words of a scene's text items (inline icons as :name:), one text item per line."""
    out = []
    for t in text_items(list(items)):
        out.append(" ".join(f":{r.icon}:" if r.icon else r.text for r in t.layout.runs))
    return "\n".join(out)


def squash(markup: str) -> str:
    """Text without spaces, line breaks and markup stars, to compare what a face prints with its markup."""
    return re.sub(r"[\s*]", "", markup)


def icons(items: list[Item] | tuple[Item, ...]) -> list[IconPlace]:
    found: list[IconPlace] = []
    for it in items:
        if isinstance(it, IconPlace):
            found.append(it)
        elif isinstance(it, Group):
            found.extend(icons(it.children))
    return found


@pytest.fixture(scope="module")
def wr(build):  # type: ignore[no-untyped-def]
    return build(GAME_ID, svg=True, png=True)


# -- the cards --------------------------------------------------------------------------------------------------
def test_the_game_validates_and_has_the_rulebook_counts() -> None:
    assert check_game(GAME) == []
    decks = {d: GAME.physical_count(d) for d in GAME.decl.decks}
    assert decks == {"duel": 120, "shrines": 24, "friends": 4}
    wizards = GAME.cards("duel")
    assert Counter(c.get("colour") for c in wizards if c.type == "wizard") == {"red": 20, "blue": 20, "green": 20}
    for t in ("wizard", "relic"):
        assert Counter(c.get("rarity") for c in wizards if c.type == t) == {"glorious": 12, "superb": 24, "common": 24}


def test_every_wizard_shows_power_advantage_subtype_type_line_and_rarity_bottom_left() -> None:
    for card in (c for c in GAME.cards("duel") if c.type == "wizard"):
        sc = scene_of(card.id)
        text = words(sc.items)
        lines = text.split("\n")
        colour = card.get("colour")
        assert str(card.get("power")) in lines, card.id  # the power, alone in its disc
        big = [t for t in text_items(sc.items) if "".join(r.text for r in t.layout.runs) == str(card.get("power"))]
        assert big and big[0].layout.size >= 20, card.id  # read at a glance
        assert f"Advantage over :{BEATS[colour]}: {BEATS[colour]}" in text, card.id
        assert card.get("subtype") in lines, card.id
        want = "Enlightened" if card.effects else f"Devoted {card.get('power')}"
        assert any(ln.startswith(f":{'enlightened' if card.effects else 'devoted'}: {want}") for ln in lines), card.id
        rarity = [i for i in icons(sc.items) if i.name == card.get("rarity")]
        assert len(rarity) == 1 and rarity[0].x < 10 and rarity[0].y > 75 and rarity[0].size >= 6, card.id
        assert sc.background == LAYOUT.style["colour"][colour]  # colour-coded frame
        if card.effects:  # the ability, rendered from the effects
            first = GAME.vocabulary.render(card.effects[:1], card).split("\n")[0]
            assert squash(first)[:25] in squash(text), card.id


def test_every_relic_shows_power_type_and_rarity_in_a_gold_frame() -> None:
    for card in (c for c in GAME.cards("duel") if c.type == "relic"):
        sc = scene_of(card.id)
        text = words(sc.items)
        assert f"+{card.get('power')}" in text.split("\n"), card.id
        assert f":relic: {'Enchanted' if card.effects else 'Basic'} relic" in text, card.id
        assert sc.background == LAYOUT.style["metal"]
        rarity = [i for i in icons(sc.items) if i.name == card.get("rarity")]
        assert len(rarity) == 1 and rarity[0].x < 10 and rarity[0].y > 75, card.id


def test_rule_text_is_never_shrunk_below_a_readable_size() -> None:
    """The longest ability, enchantment and shrine texts fit their boxes; nothing prints smaller than 5 pt and no
    rules text smaller than 6.5 pt."""
    fb = FaceBuilder(GAME, LAYOUT, 3.0)
    smallest: dict[str, float] = {}
    for d in GAME.decl.decks:
        for card in GAME.cards(d):
            sc = fb.scene(LAYOUT.front_face(d, card.type), card, d)
            for t in text_items(sc.items):
                assert t.layout.size >= 5.0, (card.id, t.layout.size)
                if t.h > 20:  # the rules text box
                    smallest[card.id] = t.layout.size
                    assert t.layout.size >= 6.5, card.id
                    assert t.layout.height <= t.h + 1e-6, card.id
    assert len(smallest) == len(GAME.cards())


def _silhouette(name: str, px: int = 120) -> Image.Image:
    """An icon's outline filled black: its shape, whatever its colours."""
    icon = load_icon(name, GAME_ID)
    img = Image.new("1", (px, px), 0)
    draw = ImageDraw.Draw(img)
    k = px / icon.size
    for sh in icon.shapes:
        if not sh.fill:
            continue
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


def test_rarity_marks_differ_by_shape_not_only_by_colour() -> None:
    masks = {r: _silhouette(r) for r in ("common", "superb", "glorious")}
    for a, b in (("common", "superb"), ("superb", "glorious"), ("common", "glorious")):
        assert overlap(masks[a], masks[b]) < 0.8, (a, b)
    # and the three colours' emblems differ by shape too
    emblems = {c: _silhouette(c) for c in ("red", "blue", "green")}
    for a, b in (("red", "blue"), ("blue", "green"), ("red", "green")):
        assert overlap(emblems[a], emblems[b]) < 0.85, (a, b)


def test_shrines_print_the_wizards_they_affect_with_an_icon() -> None:
    # the thresholds of 'low' and 'high' as game.toml declares them (and the engine plays them)
    doc = GAME.decl.fields["affects"].doc
    low = re.search(r"'low' \(base power (\d+) or less\)", doc)
    high = re.search(r"'high' \(base power (\d+) or more\)", doc)
    assert low and high, doc
    words_for = {"red": "Red wizards", "blue": "Blue wizards", "green": "Green wizards",
                 "devoted": "Devoted wizards", "enlightened": "Enlightened wizards", "common": "Common wizards",
                 "superb": "Superb wizards", "glorious": "Glorious wizards",
                 "low": f"Wizards of base power {low[1]} or less", "high": f"Wizards of base power {high[1]} or more",
                 "every": "Every wizard"}
    assert set(words_for) == set(GAME.decl.fields["affects"].values)
    for value, said in words_for.items():  # every value prints, used by a shrine or not
        assert f":{value}: **{said}**" == LAYOUT.style["affects"][value]
    for card in GAME.cards("shrines"):
        affects = card.get("affects")
        text = words(scene_of(card.id).items)
        assert f":{affects}: {words_for[affects]}" in text, card.id
        first = GAME.vocabulary.render(card.effects[:1], card).split("\n")[0]
        assert squash(first)[:20] in squash(text), card.id


def test_wizards_and_relics_share_one_back_and_shrines_and_friends_have_their_own() -> None:
    assert LAYOUT.decks["duel"].back == "relzaria"
    backs = {d: LAYOUT.back_face(d).id for d in GAME.decl.decks}
    assert len(set(backs.values())) == 3


def test_the_friend_card_is_a_two_sided_reference_with_the_wording_of_friends_toml() -> None:
    fb = FaceBuilder(GAME, LAYOUT, 3.0)
    f1 = GAME.card("F1")
    front = words(fb.scene(LAYOUT.front_face("friends", "friend"), f1, "friends").items)
    assert squash(f1.text) == squash(front.split("\n", 1)[1].rsplit("\n", 1)[0])
    back = fb.scene(LAYOUT.back_face("friends"), None, "friends")
    text = words(back.items).replace("\n", " ")
    # the advantage triangle: the three emblems, joined by three arrows
    assert Counter(i.name for i in icons(back.items)) == {"red": 1, "blue": 1, "green": 1}
    # every line of the wording in friends.toml's closing comment block is on the back
    source = (cards_dir() / GAME_ID / "friends.toml").read_text(encoding="utf-8")
    block = source[source.index("# ---- The back of the Friend card"):].splitlines()[1:]
    said = [ln.lstrip("#").strip() for ln in block if ln.startswith("#   ")]
    assert len(said) >= 6
    flat = squash(re.sub(r":[a-z]+:", "", text)).lower()
    for sentence in said:
        for part in sentence.rstrip(".").split(" · "):
            assert squash(part).lower() in flat, part
    for heading in ("Advantage", "Ties", "Replenish", "Spoils"):
        assert heading in text


# -- the build ----------------------------------------------------------------------------------------------------
def test_build_makes_every_component(wr) -> None:  # type: ignore[no-untyped-def]
    files = {o.file: o for o in wr.outputs}
    for name in ("cards-duel.pdf", "cards-shrines.pdf", "map.svg", "map.pdf",
                 "wizards-and-relics.csv", "preview-duel.png", "preview-shrines.png", "preview-friends.png",
                 "svg/duel/back.svg", "svg/shrines/back.svg", "svg/friends/back.svg"):
        assert name in files, name
    assert files["map.svg"].kind == files["map.pdf"].kind == "board"
    # the 12 tokens on the empty row of the shrines' last sheet (24 shrines: 9, 9 and 6)
    assert "tokens.pdf" not in files and files["cards-shrines.pdf"].extra["tokens"] == {"power-tokens": 12}
    assert sum(1 for f in files if f.startswith("svg/")) == len(GAME.cards()) + 3
    assert files["map.pdf"].pages == 6 and files["cards-shrines.pdf"].pages == 6
    # the 4 Friend cards fill free slots of the last sheet of wizards and relics (120 cards: 13 sheets of 9 and 3)
    assert "cards-friends.pdf" not in files and files["cards-duel.pdf"].extra["decks"] == {"duel": 120, "friends": 4}
    assert files["cards-duel.pdf"].pages == 28


def test_csv_lists_every_design_with_its_copies() -> None:
    rows = list(csv.DictReader(io.StringIO(export_csv(GAME))))
    assert len(rows) == 145 and sum(int(r["copies"]) for r in rows) == 148
    assert {r["type"] for r in rows} == {"wizard", "relic", "shrine", "friend"}


def test_rebuilding_gives_identical_bytes(tmp_path: Path) -> None:
    a = build_game(GAME_ID, tmp_path / "a", BuildOptions())
    b = build_game(GAME_ID, tmp_path / "b", BuildOptions())
    files = sorted(p.relative_to(a.out_dir) for p in a.out_dir.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(b.out_dir) for p in b.out_dir.rglob("*") if p.is_file())
    assert len(files) > 150
    for rel in files:
        assert (a.out_dir / rel).read_bytes() == (b.out_dir / rel).read_bytes(), rel


# -- the map ------------------------------------------------------------------------------------------------------
def test_map_svg_shows_the_centre_and_four_players_each_with_deck_discard_and_hall(wr) -> None:  # type: ignore[no-untyped-def]
    root = ET.parse(wr.out_dir / "map.svg").getroot()
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert [i for i in ids if i.startswith("sheet-")] == [f"sheet-{k}" for k in range(1, 6)]
    text = " ".join(t for el in root.iter() for t in (el.text or "",)).replace("  ", " ")
    for label in ("Shrine pile", "Shrine in play", "Deck", "Discard pile", "Hall of Immortality", "Player 1",
                  "Player 4", "Spoils"):
        assert label in text, label
    pm = load_map(GAME)
    assert pm is not None
    players = [s for s in pm.sheets if s.label.startswith("Player")]
    assert len(players) == 4 and sorted(s.rotate for s in players) == [0, 90, 180, 270]
    # card-sized boxes: every sheet holds slots of exactly a poker card
    for s in pm.sheets:
        slots = [it for it in s.scene.items if isinstance(it, Rect) and (round(it.w), round(it.h)) == (63, 88)]
        assert len(slots) == (9 if s.label.startswith("Player") else 2), s.label


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_map_pdf_sheets_fit_the_paper_at_full_size(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    result = build(GAME_ID, paper=paper)
    pw, ph = PAPERS[paper]
    with pikepdf.open(result.out_dir / "map.pdf") as pdf:
        assert pdf.check_pdf_syntax() == [] and fonts_embedded(pdf) == []
        pages = list(pdf.pages)
        assert len(pages) == 6
        for page in pages[1:]:
            x0, y0, x1, y1 = (float(v) / MM for v in page.TrimBox)
            w, h = x1 - x0, y1 - y0
            assert sorted((round(w), round(h))) == [192, 261]  # the sheet, full size
            assert x0 >= 5.9 and y0 >= 5.9 and x1 <= pw - 5.9 and y1 <= ph - 5.9  # inside the printer's margin
            placed = page_content(page)[0]
            assert len(placed) == 1
            p = placed[0]
            assert (p.x0 / MM, p.y0 / MM, p.x1 / MM, p.y1 / MM) == pytest.approx((x0, y0, x1, y1), abs=0.05)


@pytest.mark.skipif(RSVG is None, reason="needs rsvg-convert (Debian package librsvg2-bin)")
def test_map_renders_in_rsvg(wr, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from test_relic_print import fontconfig

    out = tmp_path / "map.png"
    r = subprocess.run([RSVG, "-w", "1000", str(wr.out_dir / "map.svg"), "-o", str(out)], capture_output=True,
                       text=True, env=fontconfig(tmp_path), timeout=120)
    assert r.returncode == 0 and not r.stderr.strip(), r.stderr
    with Image.open(out) as im:
        assert im.size[0] == 1000 and ImageStat.Stat(im.convert("L")).stddev[0] > 20


# -- the tokens ---------------------------------------------------------------------------------------------------
def tokens_on(page: pikepdf.Page) -> list[Placement]:
    """The token faces placed on a page: 22 mm tokens with 1 mm of bleed."""
    return [p for p in page_content(page)[0] if abs((p.x1 - p.x0) / MM - 24.0) < 0.1]


def page_text(path: Path, pno: int) -> str:
    doc = pdfium.PdfDocument(path)
    try:
        return str(doc[pno].get_textpage().get_text_range())
    finally:
        doc.close()


def texts_in(path: Path, pno: int, boxes: list[Placement]) -> list[str]:
    """The text printed inside each box of a page."""
    doc = pdfium.PdfDocument(path)
    try:
        tp = doc[pno].get_textpage()
        return [str(tp.get_text_bounded(b.x0, b.y0, b.x1, b.y1)).strip() for b in boxes]
    finally:
        doc.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("duplex", ["long", "short"])
def test_token_backs_align_with_their_fronts(build, paper: str, duplex: str) -> None:  # type: ignore[no-untyped-def]
    """The tokens print on the shrines' last sheet. The same check as the card backs: every front's centre,
    flipped as the paper flips, lands on a back's centre within 0.2 mm; +1 on the fronts, +3 on the backs."""
    from test_print_pdf import flip_point

    result = build(GAME_ID, paper=paper, duplex=duplex)
    path = result.out_dir / "cards-shrines.pdf"
    pw, ph = PAPERS[paper]
    with pikepdf.open(path) as pdf:
        pages = list(pdf.pages)
        assert len(pages) == 6 and fonts_embedded(pdf) == []
        assert not any(tokens_on(p) for p in pages[:4])
        fronts, backs = tokens_on(pages[-2]), tokens_on(pages[-1])
        assert len(fronts) == len(backs) == 12
        for f in fronts:
            fx, fy = flip_point((f.centre[0] / MM, f.centre[1] / MM), (pw, ph), duplex)
            d = min(((b.centre[0] / MM - fx) ** 2 + (b.centre[1] / MM - fy) ** 2) ** 0.5 for b in backs)
            assert d <= 0.2, d
    assert texts_in(path, 4, fronts) == ["+1"] * 12 and texts_in(path, 5, backs) == ["+3"] * 12


def test_token_back_offset_moves_the_backs_by_exactly_the_offset(build) -> None:  # type: ignore[no-untyped-def]
    plain = build(GAME_ID)
    moved = build(GAME_ID, back_offset=(1.5, -0.75))
    with (pikepdf.open(plain.out_dir / "cards-shrines.pdf") as a,
          pikepdf.open(moved.out_dir / "cards-shrines.pdf") as b):
        pa, pb = tokens_on(a.pages[-1]), tokens_on(b.pages[-1])
        assert len(pa) == len(pb) == 12
        for p, q in zip(pa, pb):
            assert (q.centre[0] / MM, q.centre[1] / MM) == pytest.approx((p.centre[0] / MM + 1.5,
                                                                          p.centre[1] / MM - 0.75), abs=0.01)


def test_gutterfold_tokens_mirror_across_the_fold(build) -> None:  # type: ignore[no-untyped-def]
    result = build(GAME_ID, layout="gutterfold")
    ph = PAPERS["a4"][1]
    with pikepdf.open(result.out_dir / "tokens.pdf") as pdf:
        assert len(pdf.pages) == 1
        faces = tokens_on(pdf.pages[0])
        fronts = [p for p in faces if p.centre[1] / MM > ph / 2]
        backs = [p for p in faces if p.centre[1] / MM < ph / 2]
        assert len(fronts) == len(backs) == 12
        for f in fronts:
            want = (f.centre[0] / MM, ph - f.centre[1] / MM)
            assert min(((b.centre[0] / MM - want[0]) ** 2 + (b.centre[1] / MM - want[1]) ** 2) ** 0.5
                       for b in backs) <= 0.2
            assert f.y0 / MM >= ph / 2 - 0.01  # no front's bleed crosses the fold
        assert min(f.y0 for f in fronts) / MM == pytest.approx(ph / 2 + 1.0, abs=0.01)  # the fronts meet the fold


def test_single_sided_tokens_are_unchanged(build) -> None:  # type: ignore[no-untyped-def]
    """Relic's tokens have no back: one page of fronts per sheet, as before double-sided tokens existed."""
    result = build("relic")
    out = next(o for o in result.outputs if o.file == "tokens.pdf")
    with pikepdf.open(result.out_dir / "tokens.pdf") as pdf:
        assert len(pdf.pages) == out.pages
        assert not any(tokens_on(p) for p in pdf.pages)


def test_a_token_set_needs_a_back_colour_with_its_back(tmp_path: Path) -> None:
    from wizprint.errors import DataErrors
    from wizprint.generator.components import load_components

    g = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, g)
    text = (layouts_dir() / GAME_ID / "components.toml").read_text(encoding="utf-8")
    (g / "components-layout.toml").write_text(text.replace('back_colour = "#5a2a7a"\n', ""), encoding="utf-8")
    with pytest.raises(DataErrors, match="needs a 'back_colour'"):
        load_components(load_game(g))


def test_a_build_of_the_tokens_alone_prints_them_on_a_sheet_of_their_own(tmp_path: Path) -> None:
    r = build_game(GAME_ID, tmp_path / "x", BuildOptions(only=("tokens",), ink="full"))
    assert [o.file for o in r.outputs] == ["tokens.pdf"]
    with pikepdf.open(r.out_dir / "tokens.pdf") as pdf:
        assert [len(tokens_on(p)) for p in pdf.pages] == [12, 12]


def test_build_options_reach_the_tokens(tmp_path: Path) -> None:
    r = build_game(GAME_ID, tmp_path / "x", BuildOptions(print=PrintOptions(duplex="off"), svg=False, png=False))
    with pikepdf.open(r.out_dir / "tokens.pdf") as pdf:  # not on the shrines' sheet, which has no back page
        assert len(pdf.pages) == 2  # tokens need their backs even when the cards print without theirs


# -- a game folder's own map layout: each problem one clean line at its place -------------------------------------
@pytest.mark.parametrize("old,new,words", [
    ('face = "map-centre"', 'face = "nope"', r"map-layout\.toml:\d+: sheet 1: face 'nope' is not in"),
    ("size = [261, 192]\nat = [210, 210]", "size = [300, 250]\nat = [210, 210]", r"does not fit a4 paper"),
    ("rotate = 90", "rotate = 45", r"map-layout\.toml:\d+: map\.sheets\[3\]\.rotate: must be 0, 90, 180 or 270"),
    ("at = [479, 175.5]", "at = [600, 175.5]", r"sheet 5 \(Player 4\) reaches past the table's edge"),
    ('component = "map"', 'component = "mat"', r"component 'mat' is not a component of the game"),
    ("size = [681, 612]", "size = [681, nan]", r"map\.size\[2\]: must be a finite number"),
    ('text = "**Player {{ part.player }}**"', 'text = "{{ part.nope }}"',
     r"layout\.toml:\d+: \[map Player 1\] face 'map-player'"),
])
def test_a_broken_map_layout_is_one_clean_error(tmp_path: Path, old: str, new: str, words: str) -> None:
    from wizprint.validation import Validation

    g = tmp_path / GAME_ID
    shutil.copytree(cards_dir() / GAME_ID, g)
    shutil.copy(layouts_dir() / GAME_ID / "map.toml", g / "map-layout.toml")
    shutil.copy(layouts_dir() / GAME_ID / "layout.toml", g / "layout.toml")
    target = g / ("layout.toml" if old.startswith("text =") else "map-layout.toml")
    text = target.read_text(encoding="utf-8")
    assert old in text
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    lines = [line for line, ok in Validation([str(g)]) if not ok]
    assert lines and all("\n" not in ln and "Traceback" not in ln for ln in lines)
    assert any(re.search(words, ln) for ln in lines), lines
    # and the records are still read: map-layout.toml is a layout, never a card file
    assert not any("map-layout.toml" in ln and "card" in ln.lower() for ln in lines), lines
