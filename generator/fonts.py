"""Font families for layouts: registration with reportlab (lazily, once per process) and metrics."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from wizprint.errors import WizprintError
from wizprint.resources import layouts_dir

STYLES = ("regular", "bold", "italic", "bolditalic")


@dataclass(frozen=True)
class Family:
    name: str
    css: str
    files: dict[str, str]
    css_weight: dict[str, str]

    def face(self, bold: bool = False, italic: bool = False) -> str:
        """The registered reportlab font name for a style (registering it on first use)."""
        style = ("bold" if bold else "") + ("italic" if italic else "") or "regular"
        return register(self.files[style])

    def css_style(self, bold: bool = False, italic: bool = False) -> tuple[str, str]:
        """(font-weight, font-style) for SVG."""
        style = ("bold" if bold else "") + ("italic" if italic else "") or "regular"
        return self.css_weight.get(style, "bold" if bold else "normal"), ("italic" if italic else "normal")


def fonts_dir() -> Path:
    return layouts_dir() / "fonts"


@lru_cache(maxsize=1)
def families() -> dict[str, Family]:
    data = tomllib.loads((fonts_dir() / "fonts.toml").read_text(encoding="utf-8"))
    out = {}
    for name, f in data["families"].items():
        files = {s: f[s] for s in STYLES}
        out[name] = Family(name=name, css=f.get("css", name), files=files, css_weight=dict(f.get("css_weight", {})))
    return out


def family(name: str) -> Family:
    try:
        return families()[name]
    except KeyError:
        raise WizprintError(f"unknown font family '{name}' (families: {', '.join(families())})") from None


@cache
def register(filename: str) -> str:
    """Register a TTF file from the fonts folder; return its reportlab name."""
    face_name = Path(filename).stem
    path = fonts_dir() / filename
    if not path.is_file():
        raise WizprintError(f"font file {path} is missing")
    pdfmetrics.registerFont(TTFont(face_name, str(path)))
    return face_name


ACCENT_ROOM = 1.12  # the ink of ascenders and accents reaches about this far above the cap height
MAX_DESCENT = 0.28  # descenders reach at most this far below the baseline, in ems


@cache
def ascent(face: str) -> float:
    """How far the ink of a line reaches above the baseline, as a fraction of the font size.

    A font's own ascent and descent (hhea) make room for the tallest glyphs of every script it covers; for
    fitting text in a box we use the cap height plus room for accents, and a descender depth of at most
    0.28 em. :func:`descent` is the counterpart below the baseline."""
    f = pdfmetrics.getFont(face)
    cap = float(getattr(f.face, "capHeight", 0) or 0) / 1000.0 or float(f.face.ascent) / 1000.0 * 0.75
    return min(cap * ACCENT_ROOM, float(f.face.ascent) / 1000.0)


@cache
def descent(face: str) -> float:
    f = pdfmetrics.getFont(face)
    return min(-float(f.face.descent) / 1000.0, MAX_DESCENT)


@lru_cache(maxsize=65536)
def width1(text: str, face: str) -> float:
    """Width of ``text`` at size 1 (points); multiply by the font size."""
    return float(pdfmetrics.stringWidth(text, face, 1.0))
