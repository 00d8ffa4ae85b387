"""A play area (a map or play mat) from ``layouts/<game>/map.toml`` (or ``map-layout.toml`` in a game folder):
sheets of paper, each drawn from a face of the game's ``layout.toml`` (the same elements as a card face, at the
sheet's size), laid out together on the table.

The map is written twice: as one SVG of the whole table (every sheet at its place and turn), and as a PDF with
an assembly page (the table in small, each sheet numbered) followed by one page per sheet at full size,
turned a quarter when that is how it fits the paper. Each sheet must fit the paper inside the printer's margin;
the file, the faces and every text are checked before anything is drawn, with one error per problem at its line.

A face drawn as a sheet sees the card variables of a back (``game``, ``style``, ``W``, ``H``...) and ``part``:
the sheet's own ``vars`` (``part.player``), so one face can draw four players' sheets.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor

from wizprint.cards.lines import TomlLines
from wizprint.cards.model import Game
from wizprint.cards.schema import (
    Anything,
    ListOf,
    Number,
    Str,
    Table,
    TableOf,
    Whole,
    check_data,
    field_name_key,
    safe_id_key,
    schema_issues,
)
from wizprint.errors import BuildError, DataErrors, Issue, quote
from wizprint.resources import layouts_dir

from .deckpdf import page_label
from .faces import FaceBuilder
from .fonts import family
from .impose import PAPERS
from .layout import GameLayout, colour_problem, load_layout, read_layout_file, shown_path
from .pdf import PdfPainter, new_canvas
from .scene import Group, Item, Paint, Rect, Scene
from .units import MM

MAX_SHEETS = 50


def _quarter(v: int) -> str | None:
    return None if v in (0, 90, 180, 270) else "must be 0, 90, 180 or 270 (degrees clockwise)"


_COLOUR = Str(20, then=colour_problem)
_LENGTH = Number(10, 2000)
_PAIR = ListOf(_LENGTH, most=2, least=2)
_POINT = ListOf(Number(0, 5000), most=2, least=2)
_LABEL = Str(200)
SHEET = Table({
    "face": Str(64, least=1),
    "size": _PAIR,
    "at": _POINT,
    "rotate": (Whole(0, 270, then=_quarter), 0),
    "label": (_LABEL, ""),
    "vars": (TableOf(Anything(), key=field_name_key, most=50), {}),
})
MAP_FILE = Table({"map": Table({
    "component": Str(64, least=1, then=safe_id_key),
    "title": (_LABEL, ""),
    "size": ListOf(Number(10, 5000), most=2, least=2),
    "background": (_COLOUR, "#ffffff"),
    "margin": (Number(3, 40), 6.0),
    "note": (Str(2000), ""),
    "sheets": ListOf(SHEET, most=MAX_SHEETS, least=1),
})})
"""The schema of ``map.toml``. ``rotate`` is the sheet's clockwise turn on the table (0, 90, 180 or 270 degrees),
``at`` the top-left corner of the sheet's footprint on the table once turned, in mm."""


def map_path(game: Game) -> Path:
    own = game.root / "map-layout.toml"
    return own if own.is_file() else layouts_dir() / game.id / "map.toml"


@dataclass(frozen=True)
class Sheet:
    label: str
    scene: Scene
    x: float  # the footprint's top-left on the table, mm
    y: float
    rotate: int

    @property
    def footprint(self) -> tuple[float, float]:
        w, h = self.scene.w, self.scene.h
        return (h, w) if self.rotate % 180 else (w, h)


@dataclass
class PlayMap:
    component: str
    title: str
    size: tuple[float, float]
    background: str
    margin: float
    note: str
    sheets: list[Sheet]

    def scene(self, key: str) -> Scene:
        """The whole table: every sheet at its place and turn."""
        w, h = self.size
        sc = Scene(w, h, 0.0, self.background, key=key)
        for i, s in enumerate(self.sheets):
            sc.add(_placed(s, i))
        return sc


def _placed(s: Sheet, i: int) -> Group:
    w, h = s.scene.w, s.scene.h
    fw, fh = s.footprint
    items: list[Item] = []
    if s.scene.background:
        items.append(Rect(0, 0, w, h, Paint(fill=s.scene.background)))
    items.extend(s.scene.items)
    inner = Group(tuple(items), tx=s.x + (fw - w) / 2, ty=s.y + (fh - h) / 2)
    return Group((inner,), rotate=float(s.rotate), cx=s.x + fw / 2, cy=s.y + fh / 2, id=f"sheet-{i + 1}")


def load_map(game: Game, layout: GameLayout | None = None) -> PlayMap | None:
    """The map of a game with every sheet drawn (None when the game has none); DataErrors for any problem: the
    file's shape, a face that is not in the layout, a component that is not the game's, a sheet off the table,
    a text that does not fit."""
    p = map_path(game)
    if not p.is_file():
        return None
    shown = shown_path(game, p)
    data, text = read_layout_file(game, p)
    lines = TomlLines(text)
    m, problems = check_data(MAP_FILE, data)
    if problems:
        raise DataErrors(schema_issues(problems, shown, lines))
    spec = m.map
    layout = layout or load_layout(game)
    issues: list[Issue] = []
    comps = {c.id: c for c in game.decl.components}
    if spec.component not in comps:
        issues.append(Issue(shown, lines.line(("map", "component")), "",
                            f"component {quote(spec.component)} is not a component of the game (components: "
                            f"{', '.join(sorted(comps)) or 'none'})"))
    W, H = (float(v) for v in spec.size)
    fb = FaceBuilder(game, layout, 0.0)
    sheets: list[Sheet] = []
    for i, sh in enumerate(spec.sheets):
        at = lines.line(("map", "sheets", i))
        name = sh.label or f"sheet {i + 1}"
        face = layout.faces.get(sh.face)
        if face is None:
            issues.append(Issue(shown, at, "", f"sheet {i + 1}: face {quote(sh.face)} is not in {layout.file}"))
            continue
        size = (float(sh.size[0]), float(sh.size[1]))
        try:
            scene = fb.scene(face, None, f"map-{i + 1}", size=size, part=sh.vars, who=f"map {name}")
        except DataErrors as exc:
            issues.extend(exc.issues)
            continue
        s = Sheet(name, scene, float(sh.at[0]), float(sh.at[1]), int(sh.rotate))
        fw, fh = s.footprint
        if s.x + fw > W + 1e-6 or s.y + fh > H + 1e-6:
            issues.append(Issue(shown, at, "", f"sheet {i + 1} ({name}) reaches past the table's edge "
                                               f"({W:g} x {H:g} mm)"))
        sheets.append(s)
    if issues:
        raise DataErrors(issues)
    return PlayMap(spec.component, spec.title or game.name, (W, H), str(spec.background), float(spec.margin),
                   spec.note, sheets)


def _fits(sheet: Sheet, paper: tuple[float, float], margin: float) -> tuple[bool, bool]:
    """(fits, turned): whether the sheet fits the paper inside the margin, and whether it must be turned a
    quarter to fit (a landscape sheet on portrait paper)."""
    w, h = sheet.scene.w, sheet.scene.h
    aw, ah = paper[0] - 2 * margin, paper[1] - 2 * margin
    if w <= aw + 1e-6 and h <= ah + 1e-6:
        return True, False
    if h <= aw + 1e-6 and w <= ah + 1e-6:
        return True, True
    return False, False


def check_paper(pm: PlayMap, paper_name: str) -> None:
    paper = PAPERS[paper_name]
    for s in pm.sheets:
        if not _fits(s, paper, pm.margin)[0]:
            raise BuildError(f"map sheet {quote(s.label)} ({s.scene.w:g} x {s.scene.h:g} mm) does not fit "
                             f"{paper_name} paper inside a {pm.margin:g} mm margin")


def check_map(game: Game, paper: str = "a4") -> list[Issue]:
    """Everything that stops a game's map from being built (for ``validate``)."""
    try:
        pm = load_map(game)
        if pm is not None:
            check_paper(pm, paper)
    except DataErrors as exc:
        return list(exc.issues)
    except BuildError as exc:
        return [Issue(shown_path(game, map_path(game)), 0, "", str(exc))]
    return []


def map_pdf(pm: PlayMap, whole: Scene, paper_name: str, title: str) -> tuple[bytes, int]:
    """Page 1: how the sheets lie on the table; then each sheet at full size, its cut line marked by the page's
    TrimBox."""
    check_paper(pm, paper_name)
    paper = PAPERS[paper_name]
    pw, ph = paper
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * MM, ph * MM), title)
    painter = PdfPainter(c)
    face = family("text")
    bold, regular = face.face(bold=True), face.face()
    n = len(pm.sheets)
    # the assembly page
    c.setFont(bold, 15)
    c.drawCentredString(pw / 2 * MM, (ph - 20) * MM, f"{pm.title}")
    c.setFont(regular, 8.5)
    lines = [f"{n} sheets, printed at 100 % (no scaling), one per page after this one. Cut each along its edge",
             "and lay them out on the table as shown here."] + [ln for ln in pm.note.split("\n") if ln.strip()]
    for i, ln in enumerate(lines):
        c.drawCentredString(pw / 2 * MM, (ph - 29 - 4.6 * i) * MM, ln)
    top = ph - 29 - 4.6 * len(lines) - 4
    W, H = pm.size
    k = min((pw - 30) / W, (top - 16) / H)
    mx, my = (pw - W * k) / 2, 14.0 + (top - 16 - H * k) / 2
    c.saveState()
    c.translate(mx * MM, my * MM)
    c.scale(k, k)
    painter.place(whole, 0, 0)
    c.restoreState()
    c.setStrokeColor(HexColor("#ff2d55"))
    c.setFillColor(HexColor("#ff2d55"))
    c.setLineWidth(0.8)
    c.setFont(bold, 10)
    for i, s in enumerate(pm.sheets):
        fw, fh = s.footprint
        x0, y0 = mx + s.x * k, my + (H - s.y - fh) * k
        c.rect(x0 * MM, y0 * MM, fw * k * MM, fh * k * MM, stroke=1, fill=0)
        c.drawCentredString((x0 + fw * k / 2) * MM, (y0 + fh * k / 2 - 1.5) * MM, f"{i + 1}")
    c.showPage()
    # one page per sheet
    for i, s in enumerate(pm.sheets):
        turned = _fits(s, paper, pm.margin)[1]
        w, h = (s.scene.h, s.scene.w) if turned else (s.scene.w, s.scene.h)
        x0 = (pw - w) / 2
        y0 = (ph - h) / 2
        painter.place(s.scene, x0 * MM, y0 * MM, 90 if turned else 0)
        box = [x0 * MM, y0 * MM, (x0 + w) * MM, (y0 + h) * MM]
        c.setTrimBox(box)
        c.setBleedBox(box)
        page_label(c, f"{title} - sheet {i + 1} of {n}: {s.label} - cut along the sheet's edge",
                   [(x0, y0, x0 + w, y0 + h)], paper, size=7.0)
        c.showPage()
    c.save()
    return buf.getvalue(), 1 + n
