"""`--low-ink`: floods become tints with an outline; light lettering on a tint turns dark; small fills stay."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import Builder

from wizprint.generator.ink import ink
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
