"""Card pictures in tests: the icons a built card SVG draws, and whether a picture is a vendored, credited
game-icons.net icon.

A built card SVG holds its icons as ``<symbol id="icon-NAME">`` in ``<defs>``, drawn by ``<use>`` with a width in mm
(the card SVG's user unit). An icon drawn at least ``style.art_min_size`` mm wide is the card's art
(generator/artcheck.py); the symbol's body is what prints, so two names that hold one drawing are one picture."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from wizprint.generator.icons import icon_file
from wizprint.resources import layouts_dir

SVG = "{http://www.w3.org/2000/svg}"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


@dataclass(frozen=True)
class Drawn:
    name: str  # the icon's name (its symbol id without "icon-")
    width: float  # mm
    body: str  # the symbol's drawing, as the SVG holds it


def icons_in_svg(path: Path) -> list[Drawn]:
    """Every icon a card SVG draws, in drawing order."""
    root = ET.parse(path).getroot()
    symbols = {s.get("id"): "".join(ET.tostring(child, encoding="unicode") for child in s)
               for s in root.iter(f"{SVG}symbol")}
    drawn = []
    for use in root.iter(f"{SVG}use"):
        ref = (use.get(XLINK_HREF) or use.get("href") or "").removeprefix("#")
        if ref.startswith("icon-"):
            drawn.append(Drawn(ref.removeprefix("icon-"), float(use.get("width", "0")), symbols[ref]))
    return drawn


def art_in_svg(path: Path, least: float) -> list[Drawn]:
    """The icons a card SVG draws as art: at least ``least`` mm wide."""
    return [d for d in icons_in_svg(path) if d.width >= least - 1e-9]


def credited_names() -> set[str]:
    """The icon names that layouts/icons/CREDITS.md lists (a line each: ``- `name`: author``)."""
    text = (layouts_dir() / "icons" / "CREDITS.md").read_text(encoding="utf-8")
    return set(re.findall(r"^- `([a-z0-9-]+)`: \S", text, re.M))


def game_icon_problem(name: str, game: str) -> str | None:
    """Why ``name`` is not a picture vendored from game-icons.net and credited, as seen from ``game`` (the game's
    own icon folder comes first: a rule icon there of the same name would shadow it); None when it is."""
    path = icon_file(name, game)
    if path != layouts_dir() / "icons" / f"{name}.svg":
        return f"{name}: drawn from {path}, not layouts/icons/{name}.svg"
    text = path.read_text(encoding="utf-8")
    if not re.search(rf'<!-- "{re.escape(name)}" from game-icons\.net \(CC BY 3\.0\), via @iconify-json/game-icons '
                     r'\d+\.\d+\.\d+ -->', text) or 'viewBox="0 0 512 512"' not in text:
        return f"{name}: not a game-icons.net icon as vendored (its comment and view box)"
    if name not in credited_names():
        return f"{name}: not listed in layouts/icons/CREDITS.md"
    return None
