"""Font families for layouts: registration with reportlab (lazily, once per process) and metrics.

``layouts/fonts/fonts.toml`` is checked before use (one error per problem at its line): every family names four
TrueType files by plain file name, each inside the fonts folder. A file that is not a usable TrueType font (fake,
truncated, too large) is a clear error naming it, reported by ``validate`` as by ``build``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from wizprint.cards.lines import TomlLines
from wizprint.cards.schema import Str, Table, TableOf, check_data, schema_issues
from wizprint.errors import DataErrors, Issue, WizprintError, one_line, quote
from wizprint.resources import inside, layouts_dir

STYLES = ("regular", "bold", "italic", "bolditalic")
FONT_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.(ttf|TTF)$")
MAX_FONT_BYTES = 32 * 1024 * 1024
FONTS_TOML = "layouts/fonts/fonts.toml"


def _font_file(value: str) -> str | None:
    if FONT_FILE.match(value):
        return None
    return f"{quote(value)} must be the plain name of a .ttf file in the fonts folder"


_FILE = Str(104, then=_font_file)
FONTS_FILE = Table({"families": TableOf(Table({
    "css": (Str(100), None), "regular": _FILE, "bold": _FILE, "italic": _FILE, "bolditalic": _FILE,
    "css_weight": (TableOf(Str(16)), {}),
}), most=100, least=1)})
"""The schema of ``layouts/fonts/fonts.toml``."""


@dataclass(frozen=True)
class Family:
    name: str
    css: str
    files: dict[str, str]
    css_weight: dict[str, str]
    _faces: dict[tuple[bool, bool], str] = field(default_factory=dict, compare=False, repr=False)

    def face(self, bold: bool = False, italic: bool = False) -> str:
        """The registered reportlab font name for a style (registering it on first use)."""
        name = self._faces.get((bold, italic))
        if name is None:
            style = ("bold" if bold else "") + ("italic" if italic else "") or "regular"
            name = self._faces[(bold, italic)] = register(self.files[style])
        return name

    def css_style(self, bold: bool = False, italic: bool = False) -> tuple[str, str]:
        """(font-weight, font-style) for SVG."""
        style = ("bold" if bold else "") + ("italic" if italic else "") or "regular"
        return self.css_weight.get(style, "bold" if bold else "normal"), ("italic" if italic else "normal")


def fonts_dir() -> Path:
    return layouts_dir() / "fonts"


@lru_cache(maxsize=1)
def families() -> dict[str, Family]:
    """The families of fonts.toml (checked: DataErrors with one issue per problem)."""
    from wizprint.cards.loader import read_toml_text

    issues: list[Issue] = []
    got = read_toml_text(fonts_dir() / "fonts.toml", issues, FONTS_TOML)
    if got is None:
        raise DataErrors(issues)
    data, text = got
    lines = TomlLines(text)
    ff, problems = check_data(FONTS_FILE, data)
    if problems:
        raise DataErrors(schema_issues(problems, FONTS_TOML, lines))
    out = {}
    for name, f in ff.families.items():
        files = {s: f[s] for s in STYLES}
        for style, file in files.items():
            path = fonts_dir() / file
            if not path.is_file() or not inside(fonts_dir(), path):
                issues.append(Issue(FONTS_TOML, lines.line(("families", name, style)), "",
                                    f"families.{name}.{style}: {quote(file)} is not a font file in layouts/fonts"))
        out[name] = Family(name=name, css=f.css or name, files=files, css_weight=dict(f.css_weight))
    if "text" not in out:
        issues.append(Issue(FONTS_TOML, lines.line(("families",)), "", "families needs a 'text' family (the "
                                                                     "default font)"))
    if issues:
        raise DataErrors(issues)
    return out


def family(name: str) -> Family:
    try:
        return families()[name]
    except KeyError:
        raise WizprintError(f"unknown font family '{name}' (families: {', '.join(families())})") from None


_broken: dict[str, str] = {}  # font files that could not be read, and why (so that each is read once)


@cache
def register(filename: str) -> str:
    """Register a TTF file from the fonts folder; return its reportlab name. A file that is missing, outside the
    fonts folder, too large or not a usable TrueType font is a :class:`DataErrors` naming fonts.toml's line."""
    if filename in _broken:
        raise _font_error(filename, _broken[filename])
    face_name = Path(filename).stem
    path = fonts_dir() / filename
    why = ""
    if not FONT_FILE.match(filename) or not inside(fonts_dir(), path):
        why = "is not a plain file name in the fonts folder"
    elif not path.is_file():
        why = "is missing"
    elif path.stat().st_size > MAX_FONT_BYTES:
        why = f"is larger than {MAX_FONT_BYTES // (1024 * 1024)} MiB"
    else:
        try:
            font = TTFont(face_name, str(path))
            # reportlab reads glyphs lazily: measure a text now, so a truncated file fails here and not in a build
            pdfmetrics.registerFont(font)
            pdfmetrics.stringWidth("AVWaz 0123456789 .,;:!?", face_name, 10.0)
        except Exception as exc:  # reportlab raises many kinds of errors on a broken font file
            why = f"is not a usable TrueType font ({one_line(str(exc) or type(exc).__name__, 100)})"
    if why:
        _broken[filename] = why
        raise _font_error(filename, why)
    return face_name


def _font_error(filename: str, why: str) -> DataErrors:
    line = 0
    try:
        text = (fonts_dir() / "fonts.toml").read_text(encoding="utf-8")
        line = next((i for i, ln in enumerate(text.splitlines(), 1) if filename in ln), 0)
    except (OSError, UnicodeDecodeError):
        pass
    return DataErrors([Issue(FONTS_TOML, line, "", f"font file {quote(filename)} {why}")])


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
