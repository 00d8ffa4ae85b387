"""Low ink: floods become tints with an outline; light lettering on a tint turns dark; small fills stay. A build
writes the low-ink set of its printed PDFs beside the full one (``low-ink/``) unless ``--ink`` asks for one set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pikepdf
import pytest
from cli_helpers import run_here
from conftest import Builder
from pdfcheck import page_content

from wizprint.generator.ink import ink, page_darkness
from wizprint.generator.lowink import FLOOD_AREA, is_light, low_ink, luminance, rgb, tint
from wizprint.generator.scene import Ellipse, Group, IconPlace, Paint, Rect, Scene, Text
from wizprint.generator.textlayout import TextLayout


def _text(x: float, y: float, colour: str) -> Text:
    return Text(x, y, 10, 4, TextLayout(size=8), color=colour)


def test_a_flood_becomes_a_tint_with_an_outline_and_white_lettering_on_it_turns_dark() -> None:
    banner = Rect(0, 0, 63, 12, Paint(fill="#5c120e"))  # 756 mm²: a flood
    disc = Ellipse(8, 30, 4, 4, Paint(fill="#1a1a1a"))  # 50 mm²: a cost disc keeps its ink
    s = Scene(63, 88, 3, "#2b2b2b", [banner, _text(5, 3, "#ffffff"), disc, _text(3, 28, "#ffffff"),
                                    IconPlace("omen", 40, 60, 5, "#ffffff")])
    out = low_ink(s)
    b, t1, d, t2, icon = out.items
    assert isinstance(b, Rect) and b.paint.fill == tint("#5c120e") and b.paint.stroke == "#5c120e"
    assert luminance(rgb(b.paint.fill) or (0, 0, 0)) > 0.6 and b.paint.stroke_width > 0
    assert isinstance(t1, Text) and not is_light(t1.color)  # white on the banner: now dark on its tint
    assert d == disc  # the small disc is untouched
    assert isinstance(t2, Text) and t2.color == "#ffffff"  # white on the dark disc stays white
    assert isinstance(icon, IconPlace) and not is_light(icon.color)  # white on the (tinted) background
    assert out.background == tint("#2b2b2b") and s.background == "#2b2b2b"  # the original is left alone
    assert out.items is not s.items and s.items[0] is banner


def test_groups_are_mapped_to_the_scene_and_dark_lettering_is_never_changed() -> None:
    # a rotated group holding a flood and white text on it; dark text elsewhere stays as it was
    g = Group((Rect(0, 0, 30, 20, Paint(fill="#0f2a57")), _text(10, 8, "#ffffff")), rotate=90, cx=15, cy=10,
              tx=20, ty=40)
    out = low_ink(Scene(63, 88, 0, "#ffffff", [g, _text(2, 2, "#1a1a1a")]))
    grp, dark = out.items
    assert isinstance(grp, Group)
    flood, text = grp.children
    assert isinstance(flood, Rect) and flood.paint.fill == tint("#0f2a57")
    assert isinstance(text, Text) and not is_light(text.color)
    assert isinstance(dark, Text) and dark.color == "#1a1a1a"
    # a shape just under the flood area is not a flood
    small = Rect(0, 0, 10, FLOOD_AREA / 10 - 1, Paint(fill="#000000"))
    assert low_ink(Scene(63, 88, 0, None, [small])).items == [small]


def test_a_low_ink_build_of_relic_uses_at_most_40_percent_of_the_ink(tmp_path: Path, build: Builder) -> None:
    """The command line's ``--low-ink`` build against the session's full build of Relic (the same options but one)."""
    r = subprocess.run([sys.executable, "-m", "wizprint", "build", "relic", "-o", str(tmp_path / "low"), "-q",
                        "--no-svg", "--no-png", "--low-ink"], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    full_dir = build("relic").out_dir
    full, low = ink(full_dir, 20)[0], ink(tmp_path / "low" / "relic", 20)[0]
    assert full > 10  # the full build is ink-heavy: the comparison means something
    assert low <= 0.4 * full, (low, full)
    # the same pages: nothing dropped
    assert sorted(p.name for p in (tmp_path / "low" / "relic").glob("*.pdf")) == \
        sorted(p.name for p in full_dir.glob("*.pdf"))


def _geometry(path: Path) -> list[tuple[list[tuple[float, ...]], list[tuple[float, ...]]]]:
    """Per page: where every form is placed (its box) and every stroked line (crop marks, cut guides), rounded."""
    with pikepdf.open(path) as pdf:
        out = []
        for page in pdf.pages:
            placed, lines = page_content(page)
            out.append((sorted(tuple(round(v, 2) for v in (p.x0, p.y0, p.x1, p.y1)) for p in placed),
                        sorted(tuple(round(v, 2) for v in (s.x0, s.y0, s.x1, s.y1)) for s in lines)))
        return out


@pytest.mark.parametrize("game", ["wizards-and-relics", "relic"])
def test_a_build_writes_the_low_ink_set_beside_the_full_one(build: Builder, game: str) -> None:
    """Every printed PDF (cards, sheets, boards, the map, tokens) has its low-ink twin in ``low-ink/``, listed in
    the manifest as ``"ink": "low"``: the same pages, each form and line at the same place, so it prints and cuts
    like the full one. The twins together use at most 40 % of the full set's ink, none more than its full file,
    and the map (a flood on every sheet) at most 60 % of its own."""
    result = build(game, ink="both")
    entries = json.loads((result.out_dir / "manifest.json").read_text())["files"]
    printed = [e for e in entries if e["kind"] in ("cards", "sheets", "board", "tokens") and e["file"].endswith(".pdf")]
    full = {e["file"]: e for e in printed if not e["file"].startswith("low-ink/")}
    low = {e["file"].removeprefix("low-ink/"): e for e in printed if e["file"].startswith("low-ink/")}
    assert sorted(low) == sorted(full) and len(full) >= 3
    for name, e in low.items():
        assert e["ink"] == "low" and "ink" not in full[name]
        assert e["pages"] == full[name]["pages"] and e["kind"] == full[name]["kind"], name
        assert _geometry(result.out_dir / "low-ink" / name) == _geometry(result.out_dir / name), name
        dark_low, dark_full = (sum(page_darkness(f, 20)) for f in (result.out_dir / "low-ink" / name,
                                                                   result.out_dir / name))
        assert dark_low < dark_full or dark_full < 0.01, name
        if name == "map.pdf":
            assert dark_low <= 0.6 * dark_full
    assert game != "wizards-and-relics" or "map.pdf" in low
    assert ink(result.out_dir / "low-ink", 20)[0] <= 0.4 * ink(result.out_dir, 20)[0]
    # the pages a player prints are one set's
    assert result.printable_pages == sum(e["pages"] for e in full.values())


def test_ink_chooses_the_sets_and_low_ink_is_ink_low(tmp_path: Path) -> None:
    """The command line writes both sets by default; ``--ink full`` the full set alone; ``--ink low`` (and its old
    name ``--low-ink``, byte for byte) the low-ink set alone, under the usual names."""
    def built(name: str, *args: str) -> dict[str, dict[str, object]]:
        res = run_here("build", "wizards-cup", "-q", "-j", "1", "--no-svg", "--no-png", "-o", str(tmp_path / name),
                       *args)
        assert res.returncode == 0, res.stderr
        manifest = json.loads((tmp_path / name / "wizards-cup" / "manifest.json").read_text())
        return {e["file"]: e for e in manifest["files"]}

    both, full, low, alias = built("both"), built("full", "--ink", "full"), built("low", "--ink", "low"), \
        built("alias", "--low-ink")
    def printed(files: dict[str, dict[str, object]]) -> list[str]:  # the PDFs of the game (not its print guide)
        return sorted(f for f, e in files.items() if f.endswith(".pdf") and e["kind"] != "guide")

    pdfs = printed(full)
    assert pdfs == ["cards-aids.pdf", "cards-wizards.pdf"]  # the tokens at the foot of the aids' sheet
    assert printed(both) == sorted([*pdfs, *(f"low-ink/{f}" for f in pdfs)])
    assert printed(low) == pdfs and all(low[f]["ink"] == "low" for f in pdfs)
    assert {f: e["sha256"] for f, e in low.items()} == {f: e["sha256"] for f, e in alias.items()}
    for f in pdfs:  # the same files: each set is drawn the same way whichever else the build makes
        assert both[f]["sha256"] == full[f]["sha256"] and both[f"low-ink/{f}"]["sha256"] == low[f]["sha256"], f
    assert not (tmp_path / "full" / "wizards-cup" / "low-ink").exists()


@pytest.mark.parametrize("args,words", [
    (["--ink", "half"], "--ink must be full, low or both, not 'half'"),
    (["--ink", "full", "--low-ink"], "--low-ink is --ink low: give one of them"),
])
def test_a_bad_ink_is_one_clear_line(args: list[str], words: str, tmp_path: Path) -> None:
    res = run_here("build", "wizards-cup", "-o", str(tmp_path / "o"), *args)
    assert res.returncode == 2 and res.stderr.splitlines() == [res.stderr.strip()], res.stderr
    assert words in res.stderr and not (tmp_path / "o").exists()
