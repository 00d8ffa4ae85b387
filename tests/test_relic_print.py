"""Relic in print: the counts of the rulebook, the effect vocabulary, the board as SVG (XML, one element per
space, rendered by rsvg-convert and headless Chromium where they are installed, and by resvg, a pip wheel, everywhere)
and as a poster whose tiles reassemble to the board."""

from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import resvg_py
from PIL import Image, ImageChops, ImageStat

from wizprint.cards.loader import load_game
from wizprint.cards.markup import spoken
from wizprint.cards.vocab import markdown
from wizprint.generator.impose import PAPERS
from wizprint.generator.poster import MARGIN, OVERLAP, tiles
from wizprint.resources import cards_dir, layouts_dir

GAME = load_game("relic")
RSVG = shutil.which("rsvg-convert")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# the system renderers (CI installs them, see .ci/run): without one, its check reports a skip naming the package
NEEDS_RSVG = pytest.mark.skipif(RSVG is None, reason="needs rsvg-convert (Debian package librsvg2-bin)")
NEEDS_CHROMIUM = pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (Debian package chromium)")


def test_component_counts_match_the_rulebook() -> None:
    decks = {d: GAME.physical_count(d) for d in GAME.decl.decks}
    assert decks == {"corruption": 30, "mission": 24, "power": 36, "relic": 18, "threat-red": 68,
                     "threat-blue": 68, "threat-yellow": 68, "wargear": 24}
    assert sum(decks.values()) == 336
    assert len(GAME.of_kind("character")) == 10 and len(GAME.of_kind("scenario")) == 5
    spaces = GAME.of_kind("space")
    by_tier = Counter(s.get("tier") for s in spaces)
    assert by_tier["outer"] == 24 and by_tier["middle"] == 16
    # corners: 4 per ring; areas of 5 (outer) and 3 (middle)
    for tier, per_area in (("outer", 5), ("middle", 3)):
        ring = [s for s in spaces if s.get("tier") == tier]
        corners = [s for s in ring if not s.get("area")]
        areas = Counter(s.get("area") for s in ring if s.get("area"))
        assert len(corners) == 4 and set(areas.values()) == {per_area} and len(areas) == 4
    names = {s.name for s in spaces}
    for n in ("Grey Knight Envoy", "Battlefleet Antias", "St. Antias' Sanctuary", "Blackstone Fortress",
              "Apothecarium Sepha", "Antian Shrine World", "Space Hulk", "Guardian of the Rift", "Webway Portal",
              "Foothills of Liliath", "The Haunted Cluster", "Warp Rift", "Daemon World Braxas",
              "Crone World Yllen Satari"):
        assert n in names, n
    outer_areas = {s.get("area") for s in spaces if s.get("tier") == "outer" and s.get("area")}
    middle_areas = {s.get("area") for s in spaces if s.get("tier") == "middle" and s.get("area")}
    assert outer_areas == {"Hive World", "Forge World", "Death World", "Maiden World"}
    assert middle_areas == {"Twilight Fringe", "Devastated Reaches", "Lost Front", "Phantom Stars"}


def test_the_inner_tier_follows_its_arrows_from_the_warp_rift_to_the_scenario_space() -> None:
    spaces = GAME.by_id("space")
    path = ["I0"]
    while spaces[path[-1]].get("next"):
        path.append(spaces[path[-1]].get("next"))
    assert path[-1] == "C" and spaces["C"].get("tier") == "centre"
    assert spaces["I0"].name == "Warp Rift" and spaces[path[3]].name == "Daemon World Braxas"  # 3 skips


def test_threat_decks_are_mostly_their_faction() -> None:
    for deck, trait, attribute in (("threat-red", "Ork", "strength"), ("threat-blue", "Tyranid", "willpower"),
                                   ("threat-yellow", "Eldar", "cunning")):
        cards = GAME.cards(deck)
        assert len(cards) >= 20, deck  # distinct designs
        enemies = [(c, c.copies) for c in cards if c.get("category") == "enemy"]
        n = sum(k for _, k in enemies)
        assert n > 68 / 2, deck
        assert sum(k for c, k in enemies if c.get("trait") == trait) > n / 2, deck
        assert sum(k for c, k in enemies if c.get("attribute") == attribute) > n / 2, deck
        assert {c.get("category") for c in cards} == {"enemy", "event", "encounter", "asset"}, deck


def test_the_threat_decks_hold_daemons_and_chaos_and_do_not_share_one_split() -> None:
    # the trait bonuses (the Inquisitor and the Hexagrammic Warhammer against Daemons, the Blessed Bolter against
    # Chaos, the Daemon Unbound's rule) need those enemies in every deck; each deck keeps its own faction's majority
    splits = set()
    for deck in ("threat-red", "threat-blue", "threat-yellow"):
        cards = GAME.cards(deck)
        traits = Counter(c.get("trait") for c in cards for _ in range(c.copies) if c.get("category") == "enemy")
        assert traits["Daemon"] >= 3 and traits["Chaos"] >= 3, (deck, traits)
        splits.add(tuple(sum(c.copies for c in cards if c.get("category") == k)
                         for k in ("enemy", "event", "encounter", "asset")))
    assert len(splits) == 3, splits


def test_power_cards_do_more_than_add_to_the_score_and_the_callidus_limit_is_printed() -> None:
    only_add = [c.id for c in GAME.cards("power") if [e.word for e in c.effects] == ["add_score"]]
    assert len(only_add) <= 4, only_add
    callidus = GAME.by_id("character")["CH02"]
    assert spoken(GAME.vocabulary.render(callidus.effects, callidus)).startswith("You may evade one enemy each turn.")


def test_every_effect_word_is_in_the_vocabulary_and_the_reference_is_current() -> None:
    used: set[str] = set()

    def walk(effects: object) -> None:
        for e in effects or ():  # type: ignore[attr-defined]
            used.add(e.word)
            for v in e.params.values():
                if isinstance(v, tuple) and v and hasattr(v[0], "word"):
                    walk(v)
                elif isinstance(v, tuple):
                    for x in v:
                        if isinstance(x, dict) and "then" in x:
                            walk(x["then"])

    for r in GAME.records:
        walk(r.effects)
        for f, spec in GAME.decl.fields.items():
            if spec.type == "effects" and r.get(f):
                walk(r.get(f))
            if f == "boxes" and r.get(f):
                for box in r.get(f):
                    walk(box)
    assert used <= set(GAME.vocabulary.words)
    assert len(used) > 30
    doc = (cards_dir() / "relic" / "VOCABULARY.md").read_text(encoding="utf-8")
    assert doc == markdown(GAME.vocabulary, "Relic effect vocabulary"), \
        "the reference is out of date: run wizprint vocabulary relic -o cards/relic/VOCABULARY.md"


@pytest.fixture(scope="module")
def relic_build(build):  # type: ignore[no-untyped-def]
    return build("relic", svg=False, png=False)


def test_board_svg_has_one_element_per_space_and_is_large(relic_build) -> None:  # type: ignore[no-untyped-def]
    svg = relic_build.out_dir / "board.svg"
    root = ET.parse(svg).getroot()
    assert root.get("width", "").endswith("mm") and float(root.get("width", "0mm")[:-2]) >= 500
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    for s in GAME.of_kind("space"):
        assert ids.count(s.id) == 1, s.id


def fontconfig(tmp: Path) -> dict[str, str]:
    """An environment in which rsvg-convert and Chromium find the project's fonts (as installed fonts would)."""
    conf = tmp / "fonts.conf"
    conf.write_text(f"""<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><include ignore_missing="yes">/etc/fonts/fonts.conf</include>
<dir>{layouts_dir() / 'fonts'}</dir><cachedir>{tmp / 'fc-cache'}</cachedir></fontconfig>""")
    import os

    return dict(os.environ, FONTCONFIG_FILE=str(conf))


# one renderer a test, so that each runs wherever its renderer is installed
@NEEDS_RSVG
def test_board_renders_in_rsvg(relic_build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    svg = relic_build.out_dir / "board.svg"
    env = fontconfig(tmp_path)
    out = tmp_path / "rsvg.png"
    r = subprocess.run([RSVG, "-w", "1280", str(svg), "-o", str(out)], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 0 and not r.stderr.strip(), r.stderr
    with Image.open(out) as im:
        assert im.size == (1280, 1280) and ImageStat.Stat(im.convert("L")).stddev[0] > 20


@NEEDS_CHROMIUM
def test_board_renders_in_chromium(relic_build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    svg = relic_build.out_dir / "board.svg"
    env = fontconfig(tmp_path)
    shot = tmp_path / "chromium.png"
    r = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars", "--window-size=1200,1200",
                        f"--screenshot={shot}", svg.as_uri()], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    with Image.open(shot) as im:
        assert ImageStat.Stat(im.convert("L")).stddev[0] > 20  # not a blank page


def compose_poster(pdf: Path, paper: str, px_per_mm: float, board_mm: float, shift: tuple[int, int] = (0, 0)
                   ) -> Image.Image:
    """Cut every tile's window out of its page and lay it at its place on the board (in order, as glued)."""
    doc = pdfium.PdfDocument(pdf)
    size = round(board_mm * px_per_mm)
    out = Image.new("RGB", (size, size), "white")
    ts = tiles(board_mm, board_mm, PAPERS[paper])
    assert len(doc) == len(ts) + 1
    try:
        for k, t in enumerate(ts, start=1):
            page = doc[k].render(scale=px_per_mm * 25.4 / 72).to_pil().convert("RGB")
            x0, y0 = round(MARGIN * px_per_mm) + 2, round(MARGIN * px_per_mm) + 2
            w, h = round(t.w * px_per_mm) - 4, round(t.h * px_per_mm) - 4
            piece = page.crop((x0, y0, x0 + w, y0 + h))
            dx, dy = shift if k == 3 else (0, 0)
            out.paste(piece, (round(t.x * px_per_mm) + 2 + dx, round(t.y * px_per_mm) + 2 + dy))
    finally:
        doc.close()
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poster_tiles_reassemble_to_the_board(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    """Cut the tiles out of the poster pages (rendered by pdfium), lay them at their places, and compare with the
    board SVG rendered by resvg (the resvg-py wheel, with the project's fonts: no system renderer needed; it and
    rsvg-convert differ by 0.3 of 255 on average at 1 px/mm) at the same scale. Both are drawn at 4 px/mm and
    compared at 1 px/mm, where the two renderers' anti-aliasing no longer matters but a tile 1 mm out of place
    does; each tile is judged on its own, so one bad tile cannot hide in the whole board's average."""
    result = build("relic", svg=False, png=False, paper=paper)
    poster = result.out_dir / "board-poster.pdf"
    with pikepdf.open(poster) as pdf:
        assert pdf.check_pdf_syntax() == []
    board_mm = 640.0
    # dpi 96 reads the SVG's mm units as CSS does (resvg-py's default of 0 refuses them)
    png = resvg_py.svg_to_bytes(svg_path=str(result.out_dir / "board.svg"), width=round(board_mm * 4), dpi=96.0,
                                skip_system_fonts=True, font_dirs=[str(layouts_dir() / "fonts")])
    reference = Image.open(io.BytesIO(png)).convert("RGB").resize((640, 640), Image.BOX)
    ts = tiles(board_mm, board_mm, PAPERS[paper])

    def per_tile(shift: tuple[int, int] = (0, 0)) -> list[float]:
        img = compose_poster(poster, paper, 4.0, board_mm, shift).resize((640, 640), Image.BOX)
        d = ImageChops.difference(img, reference).convert("L")
        return [ImageStat.Stat(d.crop((round(t.x), round(t.y), round(t.x + t.w), round(t.y + t.h)))).mean[0]
                for t in ts]

    good = per_tile()
    assert max(good) < 6.0, good  # the renderers' anti-aliasing of the board's text: up to ~5 a tile
    # the comparison has teeth: the third tile laid 1 mm off is clearly seen
    bad = per_tile(shift=(4, 0))
    assert bad[2] > 6.0 and bad[2] > good[2] + 2.0, (bad, good)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poster_tiles_bleed_their_picture_past_every_cut_guide(build, paper: str) -> None:  # type: ignore[no-untyped-def]
    """Past each dashed cut guide (the left edge of a tile off the first column, the top edge of one off the first
    row), the strip from 0.5 to 3 mm outside the guide shows the board as it lies there, as the neighbour's glue
    margin under it does: compared, rendered at 4 px/mm, with the same strip of the board SVG (resvg)."""
    result = build("relic", svg=False, png=False, paper=paper)
    board_mm, k = 640.0, 4.0
    png = resvg_py.svg_to_bytes(svg_path=str(result.out_dir / "board.svg"), width=round(board_mm * k), dpi=96.0,
                                skip_system_fonts=True, font_dirs=[str(layouts_dir() / "fonts")])
    board = Image.open(io.BytesIO(png)).convert("RGB")
    ts = tiles(board_mm, board_mm, PAPERS[paper])
    doc = pdfium.PdfDocument(result.out_dir / "board-poster.pdf")
    strips = 0
    try:
        for n, t in enumerate(ts, start=1):
            page = doc[n].render(scale=k * 25.4 / 72).to_pil().convert("RGB")
            # (page box, board box) in px: the strip outside the left guide and the one above the top guide,
            # along the part of the edge that no glue margin of this tile covers
            pairs = []
            if t.col > 0:
                pairs.append(((MARGIN - 3.0, MARGIN, MARGIN - 0.5, MARGIN + t.h - OVERLAP),
                              (t.x - 3.0, t.y, t.x - 0.5, t.y + t.h - OVERLAP)))
            if t.row > 0:
                pairs.append(((MARGIN, MARGIN - 3.0, MARGIN + t.w - OVERLAP, MARGIN - 0.5),
                              (t.x, t.y - 3.0, t.x + t.w - OVERLAP, t.y - 0.5)))
            for on_page, on_board in pairs:
                got = page.crop(tuple(round(v * k) for v in on_page))
                want = board.crop(tuple(round(v * k) for v in on_board)).resize(got.size)
                diff = ImageStat.Stat(ImageChops.difference(got, want).convert("L")).mean[0]
                # the two renderers differ at the edges of text crossing a strip (up to ~16 where 12 pt text
                # crosses one); paper left white there differs by 70 or more
                assert diff < 30.0, (t.label, on_page, diff)
                strips += 1
    finally:
        doc.close()
    assert strips == sum((t.col > 0) + (t.row > 0) for t in ts) > 0


def test_tokens_are_150_as_printed(relic_build) -> None:  # type: ignore[no-untyped-def]
    """40 character tokens (10 in each of four colours), 55 charge, 55 influence: count the token faces drawn."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from pdfcheck import MM as PT_PER_MM
    from pdfcheck import page_content

    out = next(o for o in relic_build.outputs if o.file == "tokens.pdf")
    assert out.extra["tokens"] == {"character-tokens": 40, "charge-tokens": 55, "influence-tokens": 55}
    drawn: Counter[int] = Counter()
    with pikepdf.open(relic_build.out_dir / "tokens.pdf") as pdf:
        for page in pdf.pages:
            for p in page_content(page)[0]:  # each token's icon is one placed form
                drawn[round((p.x1 - p.x0) / PT_PER_MM)] += 1
    # icons are 58 % of the diameter: 20 mm character tokens, 16 mm charge, 18 mm influence
    assert drawn == {12: 40, 9: 55, 10: 55}, drawn
