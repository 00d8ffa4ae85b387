"""Legibility floors of everything printed: no text under 6 pt in the built PDFs but printed ids, credits and version
lines (read from the PDFs: each glyph's size as printed); every text at least 4.5:1 against what it is printed on,
in full and in low ink (read from the drawn scenes: cards, backs, record sheets, the board, the map, the reference
sheets on both papers, tokens and dial boards); the Relic board's sizes for reading across a table; the Letter
quick reference laid out as the A4 one; and the Wizards & Relics shrine rule printed apart from the id line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from legibility import texts
from pdfcheck import glyphs, printed_lines

from wizprint.cards.loader import load_game
from wizprint.generator.components import dial_board_items, token_face, wheel_items
from wizprint.generator.drawing import draw
from wizprint.generator.impose import PAPERS
from wizprint.generator.layout import load_layout
from wizprint.generator.lowink import low_ink
from wizprint.generator.scene import Scene, Text, text_items
from wizprint.generator.sheets import load_sheets, sheet_flow

GAMES = ["relic", "wizards-and-relics", "wizards-cup", "wizard-cards", "covenant"]
FLOOR = 6.0  # pt
CONTRAST = 4.5


def _small_lines(path: Path, version: str) -> list[tuple[int, float, str]]:
    """Every line of ``path`` with a glyph under the floor that is neither an id, credit or version line (it names
    the game's version, or game-icons.net) nor part of a picture drawn reduced (an assembly page's board)."""
    out = []
    for pno, page in enumerate(glyphs(path), 1):
        for line in printed_lines(page):
            text = "".join(g.text for g in line)
            if f"v{version}" in text or f"version {version}" in text or "game-icons.net" in text:
                continue
            small = [g.size for g in line if g.text.strip() and g.size < FLOOR - 0.01 and g.scale > 0.99]
            if small:
                out.append((pno, round(min(small), 2), text[:60]))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_text_under_6_pt_but_ids_credits_and_versions(build, game: str) -> None:  # type: ignore[no-untyped-def]
    """Every PDF of the A4 build, and the sheets and guide of the Letter one (whose text is set for the page)."""
    version = load_game(game).decl.version
    small: dict[str, list[tuple[int, float, str]]] = {}
    checked = 0
    for paper in ("a4", "letter"):
        result = build(game, paper=paper)
        for o in result.outputs:
            if not o.file.endswith(".pdf") or (paper == "letter" and o.kind not in ("sheets", "guide")):
                continue
            checked += 1
            if lines := _small_lines(result.out_dir / o.file, version):
                small[f"{paper}/{o.file}"] = lines[:5]
    assert checked >= 3 and small == {}


def _scenes(game_id: str) -> Iterator[tuple[str, Scene]]:
    """Every scene a build of the game prints: card fronts and backs, record sheets, the board, the map's sheets,
    the reference sheets' pages on both papers, both sides of each kind of token, the dial boards and wheels."""
    game = load_game(game_id)
    drawn = draw(game, load_layout(game), 3.0)
    for deck, fronts in drawn.fronts.items():
        yield from ((f"{deck}/{cid}", sc) for cid, sc in fronts.items())
        yield from ((f"{deck}/back {name}", sc) for name, sc in drawn.backs[deck].items())
    for kind, rs in drawn.records.items():
        yield from ((f"{kind}/{rid}", sc) for rid, sc in rs.fronts)
        yield from ((f"{kind}/back", sc) for sc in rs.backs)
    if drawn.board is not None:
        yield "board", drawn.board
    if drawn.playmap is not None:
        yield from ((f"map/{s.label}", s.scene) for s in drawn.playmap.sheets)
    for sid, spec in load_sheets(game).items():
        for paper in ("a4", "letter"):
            flow, _ = sheet_flow(game, sid, spec, paper)
            for n, page in enumerate(flow.pages, 1):
                yield f"{sid}/{paper}/{n}", Scene(*PAPERS[paper], 0.0, "#ffffff", page.items)
    for s in drawn.components.get("tokens") or ():
        colours = dict(s["colours"]) if "colours" in s else {"": s["colour"]}
        for name, col in colours.items():
            d = float(s["diameter"])
            yield f"{s['component']}/{name}", token_face(game, d, str(col), s.get("icon"), s.get("text"),
                                                         str(s.get("text_colour", "#ffffff")), "front")
            if s.get("back_colour"):
                yield f"{s['component']}/{name} back", token_face(
                    game, d, str(s["back_colour"]), s.get("back_icon"), s.get("back_text"),
                    str(s.get("back_text_colour", "#ffffff")), "back")
    dials = drawn.components.get("dial_boards")
    if dials:
        w, h = (float(v) for v in dials["size"])
        for name, col in dict(dials["colours"]).items():
            yield f"board {name}", Scene(w, h, 0.0, str(dials.get("paper", "#ffffff")),
                                         dial_board_items(dials, name, str(col), game.id))
        for dial in dials["dials"]:
            r = 2 * float(dials["wheel_radius"])
            yield f"wheel {dial['name']}", Scene(r, r, 0.0, "#ffffff", wheel_items(dials, dial, dial["name"]))


@pytest.mark.parametrize("game", GAMES)
def test_every_text_stands_out_from_what_it_is_printed_on(game: str) -> None:
    """At least 4.5:1 (WCAG's contrast ratio) between each text's colour and the colour printed under it, in full
    ink and in low ink."""
    weak: dict[tuple[str, str, str], float] = {}
    judged = 0
    for name, scene in _scenes(game):
        for ink, sc in (("full", scene), ("low", low_ink(scene))):
            for t in texts(sc):
                judged += 1
                if t.contrast < CONTRAST:
                    weak.setdefault((ink, name.split("/")[0], t.words[:40]), round(t.contrast, 2))
    assert judged > 100 and weak == {}


def test_the_relic_board_is_set_to_be_read_across_the_table() -> None:
    """The board lies mid-table, read from the seats: every text on it is at least 9 pt but the spaces' ids
    (7 pt), and the rules text of the spaces at least 10 pt."""
    game = load_game("relic")
    drawn = draw(game, load_layout(game), 3.0)
    assert drawn.board is not None
    ids = {r.id for r in game.of_kind("space")}
    sizes = {"id": [], "other": []}  # type: dict[str, list[float]]
    rules = []
    for t in texts(drawn.board):
        sizes["id" if t.words in ids else "other"].append(t.size)
        if any(w in t.words for w in ("Test", "Draw", "Gain", "Lose")):
            rules.append(t.size)
    assert len(sizes["id"]) == len(ids) and min(sizes["id"]) >= 7.0
    assert min(sizes["other"]) >= 9.0 and len(rules) > 40 and min(rules) >= 10.0


def _columns(game_id: str, sid: str, paper: str) -> list[list[Text]]:
    """The texts of a reference sheet, column by column, top to bottom."""
    game = load_game(game_id)
    flow, _ = sheet_flow(game, sid, load_sheets(game)[sid], paper)
    out = []
    for page in flow.pages:
        cols: dict[int, list[Text]] = {}
        for t in text_items(page.items):
            if t.w <= flow.colw + 0.01:  # not the title over the columns, nor the foot
                cols.setdefault(int((t.x - 12.0 + 0.01) // (flow.colw + 7.0)), []).append(t)
        out += [sorted(cols[c], key=lambda t: t.y) for c in sorted(cols)]
    return out


def _heading(t: Text) -> bool:
    return t.layout.family == "display"


def test_the_letter_quick_reference_is_laid_out_as_the_a4_one() -> None:
    """The same pages and columns on Letter as on A4: each column opens with the same heading, and none ends with
    a heading (its text would be on the next column)."""
    a4, letter = _columns("relic", "quick-reference", "a4"), _columns("relic", "quick-reference", "letter")
    assert len(letter) == len(a4) == 4
    for col_a4, col_letter in zip(a4, letter, strict=True):
        first = [" ".join(r.text for r in t.layout.runs) for t in (col_a4[0], col_letter[0])]
        assert first[0] == first[1], first
        assert not _heading(col_letter[-1]) and not _heading(col_a4[-1])
    sizes = [r.size for col in letter for t in col for r in t.layout.runs]
    assert min(sizes) >= FLOOR


def test_the_shrine_rule_is_printed_apart_from_the_id_line() -> None:
    """Every shrine says that shrine abilities apply before wizard abilities, at 6 pt or more, in a text of its
    own: the id line holds the id and the version alone."""
    game = load_game("wizards-and-relics")
    drawn = draw(game, load_layout(game), 3.0)
    version = f"v{game.decl.version}"
    for cid, scene in drawn.fronts["shrines"].items():
        found = {t.words: t.size for t in texts(scene)}
        rule = [w for w in found if "apply before wizard abilities" in w]
        assert len(rule) == 1 and found[rule[0]] >= FLOOR, cid
        id_line = next(w for w in found if version in w)
        assert "abilities" not in id_line and cid in id_line, id_line
