"""Print polish: the Relic board (scenario slot, no overlaps, icon contrast, no break between a word and
its icon), scenario and character sheets, designer notes kept off printed matter, the CSV's byte-order mark and
printed titles, and SVG text as runs the renderer spaces itself."""

from __future__ import annotations

import copy
import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

from wizprint.cards.loader import load_game
from wizprint.errors import DataErrors
from wizprint.generator.board import BoardBuilder, board_scene, load_board_layout, overlaps
from wizprint.generator.csvio import BOM, RECORD_NAME, export_csv, import_csv, printed_titles, record_key
from wizprint.generator.faces import FaceBuilder
from wizprint.generator.layout import load_layout
from wizprint.generator.lowink import low_ink
from wizprint.generator.pdf import PdfPainter, new_canvas
from wizprint.generator.playmap import load_map
from wizprint.generator.scene import Ellipse, Group, Item, Paint, Poly, Rect, Scene, Text, text_items
from wizprint.generator.sheets import load_sheets, sheet_pdf
from wizprint.generator.svgout import scene_svg
from wizprint.generator.textlayout import layout_text
from wizprint.generator.units import MM
from wizprint.resources import game_ids

SVG = "{http://www.w3.org/2000/svg}"
RELIC = load_game("relic")


# -- helpers -------------------------------------------------------------------------------------------------

def group(items: list[Item] | tuple[Item, ...], gid: str) -> Group:
    """The group with id ``gid`` anywhere among ``items``."""
    for it in items:
        if isinstance(it, Group):
            if it.id == gid:
                return it
            try:
                return group(it.children, gid)
            except LookupError:
                pass
    raise LookupError(gid)


def face_scene(game_id: str, face: str, record_id: str, deck: str) -> Scene:
    game = load_game(game_id)
    layout = load_layout(game)
    record = next(r for r in game.records if r.id == record_id)
    return FaceBuilder(game, layout, 0.0).scene(layout.faces[face], record, deck)


def darkness(scene: Scene) -> float:
    """Mean darkness (0 white .. 1 black) of a scene printed alone on its own page, rendered at 30 dpi."""
    buf = io.BytesIO()
    c = new_canvas(buf, (scene.w * MM, scene.h * MM), "darkness")
    PdfPainter(c).place(scene, 0, 0)
    c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    image = pdf[0].render(scale=30 / 72).to_pil().convert("L")
    data = image.tobytes()
    return 1 - sum(data) / (255 * len(data))


def lines_of(t: Text) -> list[str]:
    """The text of each line of a laid-out text (icons as :name:)."""
    out: dict[float, list[str]] = {}
    for r in t.layout.runs:
        out.setdefault(r.baseline, []).append(f":{r.icon}:" if r.icon else r.text)
    return [" ".join(words) for words in out.values()]


def pdf_text(data: bytes) -> str:
    pdf = pdfium.PdfDocument(data)
    return "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))


# -- the board -----------------------------------------------------------------------------------------------

def test_the_scenario_slot_is_the_scenario_sheets_size() -> None:
    centre = group(board_scene(RELIC).items, "C")  # type: ignore[union-attr]
    slots = [it for it in centre.children if isinstance(it, Rect) and it.paint.dash]
    assert [(s.w, s.h) for s in slots] == [(126.0, 90.0)]
    assert load_layout(RELIC).records["scenario"].size == (126.0, 90.0)
    frame = centre.children[0]
    assert isinstance(frame, Rect)
    slot = slots[0]
    assert frame.x < slot.x and slot.x + slot.w < frame.x + frame.w and slot.y + slot.h < frame.y + frame.h


def test_no_two_labels_arrows_or_spaces_overlap_on_the_board() -> None:
    scene = board_scene(RELIC)
    assert scene is not None
    assert overlaps(scene) == []
    # the label of the slot is clear of the arrow from The Maw of the Rift, which ends at the centre space's edge
    centre = group(scene.items, "C")
    label = next(t for t in text_items(centre.children) if "place the scenario sheet here" in " ".join(lines_of(t)))
    arrow = group(scene.items, "arrow-I5-C")
    tip_y = min(y for it in arrow.children if isinstance(it, Poly) for _, y in it.points)
    assert tip_y > centre.ty + centre.children[0].h > label.y + label.h  # type: ignore[attr-defined]


def test_the_overlap_check_names_both_marks_of_a_planted_overlap() -> None:
    scene = board_scene(RELIC)
    assert scene is not None
    centre = group(scene.items, "C")
    label = next(t for t in text_items(centre.children) if "place the scenario sheet here" in " ".join(lines_of(t)))
    x, y = centre.tx + label.x + label.w / 2, centre.ty + label.y + label.h - 3
    bar = Poly(((x - 20, y - 1), (x + 20, y - 1), (x + 20, y + 1), (x - 20, y + 1)), Paint(fill="#000000"))
    scene.add(Group((bar,), id="arrow-I5-C"))
    found = overlaps(scene)
    assert any("the arrow I5 -> C" in f and "place the scenario sh" in f for f in found), found
    assert "the space C overlaps the arrow I5 -> C" in found  # it runs onto the centre space too


def test_a_board_layout_whose_spaces_overlap_fails_the_build_naming_them() -> None:
    data = copy.deepcopy(dict(load_board_layout(RELIC) or {}))
    data["inner"] = dict(data["inner"], angles=[135, 195, 255, 315, 15, 75])  # the old ring: I0 and I3 touch C
    with pytest.raises(DataErrors) as exc:
        BoardBuilder(RELIC, data).scene()
    messages = [i.message for i in exc.value.issues]
    assert "board: the space I0 overlaps the space C" in messages and "board: the space I3 overlaps the space C" in \
        messages, messages


def test_inline_icons_on_the_dark_inner_spaces_sit_on_a_light_disc() -> None:
    scene = board_scene(RELIC)
    assert scene is not None
    braxas = group(scene.items, "I3")
    texts = [t for t in text_items(braxas.children) if any(r.icon for r in t.layout.runs)]
    discs = [it for it in braxas.children if isinstance(it, Ellipse)]
    icons = [r for t in texts for r in t.layout.runs if r.icon]
    assert icons and len(discs) == len(icons)
    assert all(d.paint.fill == "#f3e6f7" for d in discs)
    assert braxas.children.index(discs[0]) < braxas.children.index(texts[0])  # drawn under the icons


def test_no_line_break_between_a_word_and_its_inline_icon() -> None:
    markup = "**Battle the daemon legions of Braxas** (:willpower: Willpower 10). Lose: Draw 1 Corruption card."
    for tenths in range(300, 900, 5):
        lay = layout_text(markup, tenths / 10, 100, size=8.8)
        runs = lay.runs
        icon = next(i for i, r in enumerate(runs) if r.icon)
        braxas = next(i for i, r in enumerate(runs) if r.text.endswith("Braxas"))
        after = runs[icon + 1]
        assert runs[icon].baseline == after.baseline, tenths  # the icon and "Willpower"
        assert runs[braxas].baseline == runs[icon].baseline, tenths  # "Braxas (" and the icon
    # on the board: "Braxas (" keeps its icon
    i3 = group(board_scene(RELIC).items, "I3")  # type: ignore[union-attr]
    text = next(t for t in text_items(i3.children) if any(r.icon for r in t.layout.runs))
    assert any("Braxas ( :willpower: Willpower" in line for line in lines_of(text)), lines_of(text)


def test_a_word_and_icons_too_wide_for_a_line_still_break() -> None:
    # the glued unit does not fit: the icon stays with the word after it, and nothing raises
    lay = layout_text("wardens (:cunning: Cunning 9).", 14, 40, size=8.8)
    lines: dict[float, list[str]] = {}
    for r in lay.runs:
        lines.setdefault(r.baseline, []).append(r.icon or r.text)
    first, second = list(lines.values())[:2]
    assert first == ["wardens"] and "cunning" in second


# -- sheets --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("record_id", ["SC01", "SC02", "SC05"])
def test_scenario_options_print_as_separate_lines(record_id: str) -> None:
    scene = face_scene("relic", "scenario", record_id, "scenario")
    text = next(t for t in text_items(scene.items) if "Choose" in " ".join(lines_of(t)))
    lines = lines_of(text)
    starts = [ln.split(" ", 1)[0] for ln in lines]
    options = [s for s in starts if s in ("A.", "B.", "C.")]
    assert lines[0] == "Choose one:" and len(options) >= 2 and options == ["A.", "B.", "C."][:len(options)], lines
    # each option starts at the left of the box, on a line of its own
    for r in text.layout.runs:
        if r.text.split(" ", 1)[0] in ("A.", "B.", "C."):
            assert r.x == pytest.approx(0.0)


@pytest.mark.parametrize("face,record_id,kind", [("character-back", "CH01", "character"),
                                                 ("scenario-back", "SC01", "scenario")])
def test_sheet_backs_are_a_thin_frame_not_a_flood(face: str, record_id: str, kind: str) -> None:
    scene = face_scene("relic", face, record_id, kind)
    assert scene.background == "#ffffff"
    assert darkness(scene) < 0.12  # a frame, a name and a paragraph (the flood of near-black was above 0.8)


def test_the_character_boards_have_no_level_track_of_their_own() -> None:
    from wizprint.generator.components import dial_board_items, load_components

    spec = load_components(RELIC)["dial_boards"]
    assert spec.get("track") is None
    words = [ln for it in dial_board_items(spec, "grey", "#7c8087", "relic") if isinstance(it, Text)
             for ln in lines_of(it)]
    assert "LEVEL" not in words and "Start" not in words


def test_the_quick_reference_explains_omens() -> None:
    data, _ = sheet_pdf(RELIC, "quick-reference", load_sheets(RELIC)["quick-reference"], "a4")
    text = " ".join(pdf_text(data).split())
    assert "Omens" in text and "omen icons on your space" in text


@pytest.mark.parametrize("game_id", ["relic", "covenant", "wizard-cards", "wizards-and-relics", "wizards-cup"])
def test_no_designer_notes_on_printed_sheets(game_id: str) -> None:
    game = load_game(game_id)
    for sid, spec in load_sheets(game).items():
        data, _ = sheet_pdf(game, sid, spec, "a4")
        text = " ".join(pdf_text(data).split()).lower()
        for note in ("rulebook", "designer", "speaks of seven card types"):
            assert note not in text, (sid, note)


def test_no_designer_note_in_covenants_built_pdfs(build: Any) -> None:
    res = build("covenant")
    for f in sorted(Path(res.out_dir).glob("*.pdf")):
        text = " ".join(pdf_text(f.read_bytes()).split())
        assert "seven card types" not in text and "rulebook" not in text.lower(), f.name


def test_the_covenant_vp_coin_stays_inside_the_title_banner() -> None:
    scene = face_scene("covenant", "card", "Q01", "main")
    banner = next(it for it in scene.items if isinstance(it, Rect) and it.y > 3 and it.h == pytest.approx(10.0))
    coin = next(it for it in scene.items if isinstance(it, Ellipse))
    assert banner.x <= coin.cx - coin.rx and coin.cx + coin.rx <= banner.x + banner.w
    assert banner.y <= coin.cy - coin.ry and coin.cy + coin.ry <= banner.y + banner.h


def test_the_wizard_cards_magnitude_lines_leave_no_number_alone() -> None:
    scene = face_scene("wizard-cards", "reference", "REF2", "reference")
    text = max(text_items(scene.items), key=lambda t: t.layout.lines)
    for line in lines_of(text):
        assert line.strip(" .") not in ("1", "2", "3", "4"), lines_of(text)
    assert any("Wild Magic" in line and "4" in line for line in lines_of(text)), lines_of(text)


# -- CSV -----------------------------------------------------------------------------------------------------

def test_csv_starts_with_a_byte_order_mark_and_reads_back_with_the_csv_module(tmp_path: Path) -> None:
    text = export_csv(RELIC)
    assert text.startswith(BOM) and not export_csv(RELIC, bom=False).startswith(BOM)
    path = tmp_path / "relic.csv"
    path.write_text(text, encoding="utf-8")
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf"
    with open(path, encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(RELIC.cards()) and rows[0]["id"] == RELIC.cards()[0].id
    assert rows == list(csv.DictReader(io.StringIO(export_csv(RELIC, bom=False))))
    assert any("−" in r["rules_text"] for r in rows)  # "Lose 1 ..." signs survive: read as UTF-8, not cp1252


@pytest.mark.parametrize("game_id", ["wizard-cards", "covenant"])
@pytest.mark.parametrize("bom", [True, False])
def test_csv_import_round_trips_with_and_without_bom(game_id: str, bom: bool, tmp_path: Path) -> None:
    src = load_game(game_id)
    path = tmp_path / "cards.csv"
    path.write_text(export_csv(src, bom=bom), encoding="utf-8")
    out = tmp_path / "out"
    import_csv(src, path, out)
    back = load_game(out)
    assert sorted(record_key(r) for r in back.cards()) == sorted(record_key(r) for r in src.cards())
    assert export_csv(back) == export_csv(src)


def test_csv_name_is_the_printed_title() -> None:
    game = load_game("wizard-cards")
    rows = {r["id"]: r for r in csv.DictReader(io.StringIO(export_csv(game, bom=False)))}
    assert rows["AS"]["name"] == "Shield of Wood" and rows["AS"][RECORD_NAME] == "Lesser Ward"
    assert list(rows["AS"])[:3] == ["id", "name", RECORD_NAME]
    # a game whose titles are the records' names has no record_name column
    header = next(csv.reader(io.StringIO(export_csv(load_game("covenant"), bom=False))))
    assert RECORD_NAME not in header
    # every title is the text of the face's title line
    titles = printed_titles(game)
    assert titles["AS"] == "Shield of Wood" and titles["REF2"] == "Schools"


# -- SVG -----------------------------------------------------------------------------------------------------

def test_svg_lines_are_single_text_elements_with_runs() -> None:
    scene = face_scene("relic", "mission", "MS09", "mission")
    root = ET.fromstring(scene_svg(scene).split("\n", 1)[1])
    texts = root.iter(f"{SVG}text")
    laid = [t for t in text_items(scene.items)]
    expected = sum(len({r.baseline for r in t.layout.runs if not r.icon}) for t in laid)
    elements = list(texts)
    assert len(elements) == expected  # one <text> per line
    for el in elements:
        spans = list(el)
        assert spans and all(s.tag == f"{SVG}tspan" for s in spans) and not (el.text or "").strip()
    # "Manufactorum Vult-Kappa, Titan Forge": the italic names and the roman comma are runs of one line
    line = next(el for el in elements if "Vult-Kappa" in "".join(el.itertext()))
    spans = list(line)
    italic = [s for s in spans if s.get("font-style") == "italic"]
    assert italic and any(s.text and s.text.startswith(",") for s in spans if s.get("font-style") != "italic")
    assert all(s.get("x") is None for s in spans)  # the renderer places the words of a line itself


def test_svg_text_after_an_inline_icon_starts_where_the_icon_ends() -> None:
    scene = face_scene("covenant", "card", "R01", "main")  # "gain :adventurer: Adventurer until the turn ends."
    root = ET.fromstring(scene_svg(scene).split("\n", 1)[1])
    laid = next(t for t in text_items(scene.items) if any(r.icon for r in t.layout.runs))
    icon_i = next(i for i, r in enumerate(laid.layout.runs) if r.icon)
    after = laid.layout.runs[icon_i + 1]
    el = next(e for e in root.iter(f"{SVG}text") if "Adventurer" in "".join(e.itertext()))
    pinned = [s for s in el if s.get("x") is not None]
    assert len(pinned) == 1 and float(pinned[0].get("x", "nan")) == pytest.approx(laid.x + after.x, abs=1e-3)
    assert pinned[0].text and pinned[0].text.startswith("Adventurer")


@pytest.mark.parametrize("game_id", game_ids())
def test_every_kind_of_svg_a_build_writes_passes_svgwrites_validation(game_id: str) -> None:
    """Builds write the SVG files with svgwrite's validation off; on, svgwrite checks each element's children, each
    attribute and its value against the SVG 1.1 full profile and raises on one the profile does not allow. The
    board, the map, a front of each face of each deck and every back, in colour and low-ink, pass it, and the
    validation changes no byte."""
    game = load_game(game_id)
    layout = load_layout(game)
    fb = FaceBuilder(game, layout, 3.0)
    scenes: list[Scene] = []
    if (board := board_scene(game)) is not None:
        scenes.append(board)
    if (pmap := load_map(game, layout)) is not None:
        scenes.append(pmap.scene(f"{game.id}/{pmap.component}"))
    for deck in game.decl.decks:
        firsts = {c.type: c for c in reversed(game.cards(deck))}  # a card of each type: each front face
        scenes += [fb.scene(layout.front_face(deck, c.type), c, deck) for c in firsts.values()]
        scenes += [fb.scene(face, None, deck) for face in layout.back_faces(deck).values()]
    assert scenes
    for scene in [*scenes, *map(low_ink, scenes)]:
        assert scene_svg(scene, "title", validate=True) == scene_svg(scene, "title")


def test_a_scenario_slot_larger_than_the_centre_space_is_an_error_at_its_line(game_copy: Any) -> None:
    from wizprint.resources import layouts_dir

    folder = game_copy("relic")
    text = (layouts_dir() / "relic" / "board.toml").read_text(encoding="utf-8")
    (folder / "board-layout.toml").write_text(text.replace("slot = [126, 90]", "slot = [126, 100]"), encoding="utf-8")
    with pytest.raises(DataErrors) as exc:
        load_board_layout(load_game(folder))
    assert any("the scenario slot (126 x 100 mm) does not fit the centre space" in i.message
               for i in exc.value.issues), exc.value.issues
