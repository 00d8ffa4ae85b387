"""``wizprint preflight GAME --for SERVICE``: the shipped games pass it; a problem of each kind planted in a game or
in the files of its build is caught, naming the card or the file and what to change, with exit status 1; a
``--for`` build stops on the same errors before it writes anything."""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path

import pytest
from cli_helpers import run_here
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from wizprint.generator.pdfx import pdfx_deck
from wizprint.generator.preflight import check_pdf, check_png, check_tts, preflight
from wizprint.generator.services import placement, service
from wizprint.resources import game_ids

SERVICES = ("mpc", "tgc", "drivethrucards")


@pytest.mark.parametrize("game", game_ids())
@pytest.mark.parametrize("sid", SERVICES)
def test_the_shipped_games_pass(game: str, sid: str, tmp_path: Path) -> None:
    """Every card of every shipped game keeps its text inside each service's safe zone and has the bleed it needs
    (a deck of a size the service does not print is a warning, not an error)."""
    report = preflight(game, sid, tmp_path)
    assert report.errors == []
    assert all("is left out" in w.message or "no build here" in w.message for w in report.warnings)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wizard Cards built for every target, as the command line builds it."""
    out = tmp_path_factory.mktemp("builds")
    for sid in (*SERVICES, "tts"):
        r = run_here("build", "wizard-cards", "--for", sid, "-o", str(out), "-q", "-j", "1")
        assert r.returncode == 0, r.stderr
    return out


def _copy(builds: Path, sid: str, tmp_path: Path) -> Path:
    """A copy of the build of ``sid`` to edit: the parent folder of its game folder."""
    dst = tmp_path / "out"
    shutil.copytree(builds / "wizard-cards" / sid, dst / "wizard-cards" / sid)
    return dst


@pytest.mark.parametrize("sid", [*SERVICES, "tts"])
def test_a_fresh_build_passes_its_preflight(builds: Path, sid: str) -> None:
    r = run_here("preflight", "wizard-cards", "--for", sid, "-o", str(builds))
    assert r.returncode == 0, r.stdout
    m = re.search(r": 0 errors, (\d+) warnings?; (\d+) files? checked", r.stdout)
    assert m is not None, r.stdout
    assert int(m.group(2)) > 0


def test_text_outside_the_safe_zone_names_the_card_and_the_move(tmp_path: Path) -> None:
    """A game folder whose rank letters moved to 1.2 mm from the card's left edge (its layout's own safe zone
    narrowed to allow it): each card with a rank is named, with how far to move the text."""
    assert run_here("new", str(tmp_path / "edge"), "--from", "wizard-cards").returncode == 0
    layout = tmp_path / "edge" / "layout.toml"
    text = layout.read_text(encoding="utf-8")
    text = text.replace("safe = 3.0", "safe = 1.0", 1)
    text = text.replace("box = [3.6, 4.0, 8.5, 6.0]", "box = [1.2, 4.0, 8.5, 6.0]")
    text = text.replace('text = "{{ c.rank }}"\nfont = "heavy"\nsize = 15\nalign = "center"',
                        'text = "{{ c.rank }}"\nfont = "heavy"\nsize = 15\nalign = "left"')
    layout.write_text(text, encoding="utf-8")
    r = run_here("preflight", str(tmp_path / "edge"), "--for", "mpc", "-o", str(tmp_path / "out"))
    assert r.returncode == 1
    errors = [line for line in r.stdout.splitlines() if line.startswith("error: ")]
    assert len(errors) == 52  # every spell card with a rank (the two Wild Magic cards have none)
    ace = next(line for line in errors if "[AS]" in line)  # the card, at its line in the game's data
    assert re.match(r"error: .*edge/components\.toml:\d+: \[AS\] text 'A' reaches 1\.20 mm from the left edge; "
                    r"MakePlayingCards keeps text 2\.80 mm inside the sides", ace)
    assert ace.endswith("move it 1.60 mm further in (" + str(tmp_path / "edge" / "layout.toml") + ")")
    # a build for the service stops on it, before it writes anything
    b = run_here("build", str(tmp_path / "edge"), "--for", "mpc", "-o", str(tmp_path / "out"), "-q")
    assert b.returncode == 1 and "[AS]" in b.stderr and "MakePlayingCards preflight" in b.stderr
    assert not (tmp_path / "out").exists()
    # The Game Crafter's safe zone is another: still outside it; Tabletop Simulator's cards have no safe zone
    assert run_here("preflight", str(tmp_path / "edge"), "--for", "tgc", "-o", str(tmp_path / "o")).returncode == 1


def test_missing_bleed_is_an_error_for_each_card(tmp_path: Path) -> None:
    r = run_here("preflight", "wizard-cards", "--for", "tgc", "--bleed", "1", "-o", str(tmp_path))
    assert r.returncode == 1
    errors = [line for line in r.stdout.splitlines() if line.startswith("error: ")]
    assert len(errors) == 55 + 1 + 1  # every card, and the back of each deck
    assert all("missing bleed: the face is drawn with 1 mm of bleed" in e and "--bleed 3.65" in e for e in errors)
    b = run_here("build", "wizard-cards", "--for", "tgc", "--bleed", "1", "-o", str(tmp_path), "-q")
    assert b.returncode == 1 and "missing bleed" in b.stderr
    assert not (tmp_path / "wizard-cards").exists()


@pytest.mark.parametrize(("size", "found"), [((800, 1100), "wrong pixel size: 800 x 1100 px; MakePlayingCards' "
                                                           "poker card is 822 x 1122 px with bleed"),
                                             ((411, 561), "image under 300 dpi: 411 x 561 px prints at 150 dpi")])
def test_an_image_of_another_size_is_caught(builds: Path, tmp_path: Path, size: tuple[int, int], found: str) -> None:
    out = _copy(builds, "mpc", tmp_path)
    card = out / "wizard-cards/mpc/spells/007-7S.png"
    Image.open(card).resize(size).save(card)
    r = run_here("preflight", "wizard-cards", "--for", "mpc", "-o", str(out))
    assert r.returncode == 1
    (error,) = [line for line in r.stdout.splitlines() if line.startswith("error: ")]
    assert "007-7S.png" in error and found in error


@pytest.mark.parametrize(("mode", "name"), [("CMYK", "extra.jpg"), ("RGBA", "007-7S.png")])
def test_an_image_in_another_colour_mode_is_caught(builds: Path, tmp_path: Path, mode: str, name: str) -> None:
    """The Game Crafter takes RGB images: a CMYK JPEG, or a PNG with transparency, is an error."""
    out = _copy(builds, "tgc", tmp_path)
    src = Image.open(out / "wizard-cards/tgc/spells/007-7S.png").convert(mode)
    src.save(out / "wizard-cards/tgc/spells" / name)
    r = run_here("preflight", "wizard-cards", "--for", "tgc", "-o", str(out))
    assert r.returncode == 1
    (error,) = [line for line in r.stdout.splitlines() if line.startswith("error: ")]
    assert name in error and f"colour mode {mode}: The Game Crafter takes RGB images" in error


def _pdf(pages: int, size_in: tuple[float, float], rgb_image: bool = False, text: bool = False,
         trim: bool = True) -> bytes:
    """A deck PDF made another way than wizprint's, with the problems asked for."""
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(size_in[0] * 72, size_in[1] * 72))
    pic = Image.new("RGB", (825, 1125), (200, 30, 30))
    for _ in range(pages):
        if trim:
            c.setTrimBox((9, 9, size_in[0] * 72 - 9, size_in[1] * 72 - 9))
        if rgb_image:
            c.drawImage(ImageReader(pic), 0, 0, size_in[0] * 72, size_in[1] * 72)
        if text:
            c.setFont("Helvetica", 9)
            c.drawString(30, 30, "not embedded")
        c.showPage()
    c.save()
    return buf.getvalue()


def test_drivethrucards_files_are_checked_page_by_page() -> None:
    svc = service("drivethrucards")
    size = svc.sizes[0]
    assert check_pdf(_pdf(4, (2.75, 3.75)), "d.pdf", svc, size, 2) == []
    (found,) = check_pdf(_pdf(4, (2.75, 3.75), rgb_image=True), "d.pdf", svc, size, 2)[:1]
    assert found == "page 1: an image in DeviceRGB, not DeviceCMYK: DriveThruCards prints CMYK"
    assert check_pdf(_pdf(4, (2.75, 3.75), text=True), "d.pdf", svc, size, 2) == [
        "fonts not embedded: Helvetica: embed every font (or draw the text as outlines) before sending the file"]
    assert check_pdf(_pdf(3, (2.75, 3.75)), "d.pdf", svc, size, 2)[0].startswith("3 pages for 2 cards")
    assert check_pdf(_pdf(4, (2.5, 3.5)), "d.pdf", svc, size, 2)[0].startswith(
        "page 1 is 2.500 x 3.500 in; DriveThruCards' poker card is laid out 2.75 x 3.75 in")
    assert check_pdf(_pdf(2, (2.75, 3.75), trim=False), "d.pdf", svc, size, 1)[0].startswith("page 1 has no TrimBox")
    low = io.BytesIO()
    c = Canvas(low, pagesize=(198, 270))
    c.setTrimBox((9, 9, 189, 261))
    c.drawImage(ImageReader(Image.new("RGB", (412, 562))), 0, 0, 198, 270)
    c.showPage()
    c.save()
    assert any("an image at 150 dpi, under 300 dpi" in p for p in check_pdf(low.getvalue(), "d.pdf", svc, size, None))


def test_ink_over_the_limit_is_caught() -> None:
    svc = service("drivethrucards")
    where = placement(svc, (63.0, 88.0))
    assert where is not None
    heavy = pdfx_deck("t", where, {"k": Image.new("CMYK", (825, 1125), (255, 255, 255, 255))}, ["k", "k"], svc)
    assert check_pdf(heavy, "d.pdf", svc, where.size, 1) == [
        "page 1: 400% total ink, more than DriveThruCards' 240%: lighten its darkest colours",
        "page 2: 400% total ink, more than DriveThruCards' 240%: lighten its darkest colours"]


def test_an_image_file_that_is_not_an_image_is_said() -> None:
    svc = service("mpc")
    assert check_png(b"not a picture", "x.png", svc, svc.sizes[0])[0].startswith("is not an image wizprint can read")


def test_tabletop_simulator_limits_are_checked(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_here("build", "wizard-cards", "--for", "tts", "-o", str(out), "-q", "-j", "1").returncode == 0
    folder = out / "wizard-cards/tts"
    saved = json.loads((folder / "deck-spells.json").read_text(encoding="utf-8"))
    (deck,) = saved["ObjectStates"][0]["CustomDeck"].values()
    deck["NumWidth"] = 12
    (folder / "deck-spells.json").write_text(json.dumps(saved), encoding="utf-8")
    Image.new("RGB", (4200, 300)).save(folder / "back-reference.png")
    r = run_here("preflight", "wizard-cards", "--for", "tts", "-o", str(out))
    assert r.returncode == 1
    errors = [line for line in r.stdout.splitlines() if line.startswith("error: ")]
    assert any("deck-spells.json" in e and "a grid of 12 x 6 cards; Tabletop Simulator takes at most 10 x 7" in e
               for e in errors)
    assert any("deck-reference.json" in e and "BackURL is 4200 x 300 px, more than 4096 px" in e for e in errors)
    assert check_tts({"ObjectStates": []}, "x.json", lambda url: None) == ["holds no ObjectStates"]


def test_preflight_refuses_an_unknown_target_in_one_line() -> None:
    r = run_here("preflight", "wizard-cards", "--for", "printer")
    assert r.returncode == 2 and r.stderr.startswith("error: --for takes one of tts, mpc, tgc, drivethrucards")
    assert r.stderr.count("\n") == 1
