"""The print services' files (``wizprint build GAME --for mpc|tgc|drivethrucards``): MakePlayingCards and The Game
Crafter images at their exact pixel sizes, a folder per back with its cards.csv; DriveThruCards a PDF per deck, one
card side a page at the service's page size, back before front, CMYK within the ink limit, with its output intent;
every image drawn from the same faces as the deck PDFs."""

from __future__ import annotations

import csv
import io
import struct
from pathlib import Path
from typing import Any

import pikepdf
import pypdfium2 as pdfium
import pytest
from cli_helpers import run_here
from PIL import Image, ImageChops, ImageStat

from wizprint.cards.loader import load_game
from wizprint.generator.build import BuildOptions, build_game
from wizprint.generator.deckpdf import PrintOptions
from wizprint.generator.pdfx import cmyk_image, ink_percent
from wizprint.generator.services import needed_bleed, placement, service

GAME = "wizards-cup"  # a deck of two backs (its two sets), and a deck of a size no service prints (the aids)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wizards Cup for the three services, as `wizprint build wizards-cup --for ...` makes it."""
    out = tmp_path_factory.mktemp("services")
    for sid in ("mpc", "tgc", "drivethrucards"):
        r = run_here("build", GAME, "--for", sid, "-o", str(out / sid), "-q", "-j", "1")
        assert r.returncode == 0, r.stderr
        assert "warning: deck 'aids' (70 x 120 mm cards) is left out" in r.stderr
    return out


def _png_dpi(data: bytes) -> float:
    at = data.index(b"pHYs")
    x, _y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert unit == 1
    return x * 0.0254


@pytest.mark.parametrize(("sid", "size"), [("mpc", (822, 1122)), ("tgc", (825, 1125))])
def test_card_images_have_the_services_exact_pixel_size(built: Path, sid: str, size: tuple[int, int]) -> None:
    folder = built / sid / GAME / sid
    assert sorted(p.name for p in folder.iterdir()) == ["manifest.json", "wizards-black", "wizards-white"]
    g = load_game(GAME)
    for sub, copy in (("wizards-black", 1), ("wizards-white", 2)):
        images = sorted((folder / sub).glob("*.png"))
        assert len(images) == 1 + len([c for c in g.cards("wizards") if c.copies >= copy])
        for p in images:
            data = p.read_bytes()
            im = Image.open(io.BytesIO(data))
            assert (im.size, im.mode) == (size, "RGB"), p.name
            assert round(_png_dpi(data)) == 300
        rows = list(csv.DictReader((folder / sub / "cards.csv").open(encoding="utf-8")))
        assert [r["file"] for r in rows] == [p.name for p in images if p.name != "back.png"]
        assert {r["back"] for r in rows} == {"back.png"}
        assert sum(int(r["copies"]) for r in rows) == 18
        assert [r["card"] for r in rows] == [c.id for c in g.cards("wizards")]


def test_the_two_backs_differ_and_each_folder_holds_its_own(built: Path) -> None:
    folder = built / "tgc" / GAME / "tgc"
    black = Image.open(folder / "wizards-black/back.png").convert("L")
    white = Image.open(folder / "wizards-white/back.png").convert("L")
    assert ImageStat.Stat(black).mean[0] < 80 < 160 < ImageStat.Stat(white).mean[0]


def test_drivethrucards_deck_is_a_page_a_side_back_first(built: Path) -> None:
    path = built / "drivethrucards" / GAME / "drivethrucards" / "wizards.pdf"
    assert sorted(p.name for p in path.parent.iterdir()) == ["manifest.json", "wizards.pdf"]
    doc = pdfium.PdfDocument(path)
    assert len(doc) == 2 * 36
    for i in range(len(doc)):
        page = doc[i]
        assert page.get_size() == pytest.approx((2.75 * 72, 3.75 * 72))
        assert page.get_trimbox(fallback_ok=False) == pytest.approx((9, 9, 189, 261))
        (obj,) = page.get_objects()
        meta = obj.get_metadata()
        assert (meta.width, meta.height, round(meta.horizontal_dpi)) == (825, 1125, 300)
        assert obj.get_filters() == ["FlateDecode"]
    # the backs: the black set's 18 cards first, then the white set's; the fronts all differ from the backs
    def mean(i: int) -> float:
        return float(ImageStat.Stat(doc[i].render(scale=0.2).to_pil().convert("L")).mean[0])

    backs = [mean(i) for i in range(0, 72, 2)]
    assert all(b < 80 for b in backs[:18]) and all(b > 160 for b in backs[18:])
    with pikepdf.open(path) as pdf:
        (intent,) = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and str(intent.OutputConditionIdentifier) == "CGATS TR 001"
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2003" and pdf.pdf_version == "1.4"
        for page in pdf.pages:
            (im,) = page.Resources.XObject.values()
            assert im.ColorSpace == "/DeviceCMYK" and im.BitsPerComponent == 8
            assert "/Font" not in page.Resources
        first = pdf.pages[0].Resources.XObject["/Im"]
        assert all(p.Resources.XObject["/Im"].objgen == first.objgen for p in pdf.pages[0:36:2])  # drawn once


def test_single_card_images_are_the_deck_pdfs_faces(tmp_path: Path) -> None:
    """The MakePlayingCards image of a card shows what the deck's PDF prints for it: the trim box of each,
    at 300 dpi, are the same picture (but for the edges of anti-aliasing)."""
    spaced = PrintOptions(bleed=3.5, layout="spaced")
    pdfs = build_game("wizard-cards", tmp_path / "wc", BuildOptions(only=("decks",), jobs=1, print=spaced)).out_dir
    out = build_game("wizard-cards", tmp_path / "mpc", BuildOptions(target="mpc", jobs=1, print=spaced)).out_dir
    where = placement(service("mpc"), (63.0, 88.0))
    assert where is not None
    x0, y0 = -where.box[0] * 300 / 25.4, -where.box[1] * 300 / 25.4
    box = (round(x0), round(y0), round(x0) + 744, round(y0) + 1039)  # the trim of a 63 x 88 mm card, at 300 dpi
    card = Image.open(out / "spells/001-AS.png").crop(box)
    doc = pdfium.PdfDocument(pdfs / "cards-spells.pdf")
    page = doc[0]  # a spaced sheet: its first slot holds the first card, AS
    from wizprint.generator.impose import page_grid

    slot = page_grid((210.0, 297.0), (63.0, 88.0), 3.5).slots[0]
    pw, ph = page.get_size()
    mm = 72 / 25.4
    crop = (slot.x * mm, slot.y * mm, pw - (slot.x + slot.w) * mm, ph - (slot.y + slot.h) * mm)
    pdf_card = page.render(scale=300 / 72, crop=crop).to_pil()
    if slot.rotate % 360:  # turned clockwise on the sheet: turned back (as the contact sheets do)
        pdf_card = pdf_card.transpose({90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180,
                                       270: Image.Transpose.ROTATE_270}[slot.rotate % 360])
    small = (93, 130)  # 1.5 px a mm: the pictures compared, not where their edges fall in a pixel

    def diff(a: Any, b: Any) -> float:
        a, b = (im.convert("RGB").resize(small, Image.Resampling.BOX) for im in (a, b))
        return float(ImageStat.Stat(ImageChops.difference(a, b).convert("L")).mean[0])

    same = diff(card, pdf_card)
    assert same < 3.0
    other = Image.open(out / "spells/014-AH.png").crop(box)
    assert diff(card, other) > 3 * same  # another card of the deck (the ace of another school) is not


def test_a_print_service_build_draws_the_bleed_it_needs() -> None:
    svc = service("mpc")
    assert needed_bleed(svc, [(63.0, 88.0)]) == 3.5  # 822 x 1122 px round a 63 x 88 mm card: 3.30 and 3.50 mm
    assert needed_bleed(service("tgc"), [(63.0, 88.0)]) == 3.65
    assert needed_bleed(svc, [(70.0, 120.0)]) == 0.0  # no such card: nothing to draw for it
    where = placement(svc, (63.0, 88.0))
    assert where is not None and where.safe_box == pytest.approx((2.798, 2.598, 60.202, 85.402))


@pytest.mark.parametrize(("rgb", "cmyk"), [((0, 0, 0), (0, 0, 0, 255)), ((255, 255, 255), (0, 0, 0, 0)),
                                           ((255, 0, 0), (0, 255, 255, 0)), ((0, 0, 128), (255, 255, 0, 127))])
def test_colours_turn_cmyk_with_black_taken_out(rgb: tuple[int, int, int], cmyk: tuple[int, int, int, int]) -> None:
    got: Any = cmyk_image(Image.new("RGB", (4, 4), rgb), 400.0).getpixel((1, 1))
    assert all(abs(a - b) <= 2 for a, b in zip(got, cmyk)), got


def test_the_ink_limit_holds_for_every_colour() -> None:
    """Every 8-bit colour (sampled in steps of 15) stays within 240% once in CMYK."""
    image = Image.new("RGB", (18 * 18, 18))
    for r in range(18):
        for g in range(18):
            for b in range(18):
                image.putpixel((r * 18 + g, b), (r * 15, g * 15, b * 15))
    assert ink_percent(cmyk_image(image, 240.0)) <= 240.0
    assert ink_percent(cmyk_image(image, 400.0)) > 240.0  # the limit is what keeps it there
