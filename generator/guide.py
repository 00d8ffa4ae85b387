"""The print guide of a build, ``print-guide.pdf``: what to print, on what, how, and in which order to cut.

It is made after every other file of the build (a :class:`~wizprint.generator.producing.Summary`), from their
manifest entries: a cover with a 50 mm scale square and the note to print at 100 %; the component checklist (each
deck, record kind and component of the game, its count, the file and pages that print it, on one side or both and
on which edge); paper and card stock; cutting and assembly in order (both from ``layouts/guide.toml``); every file
of the build; and the duplex calibration sheet (generator/calibrate.py) on a sheet of its own.
"""

from __future__ import annotations

import io
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from wizprint.cards.model import Game
from wizprint.errors import FitError
from wizprint.resources import layouts_dir

from .calibrate import draw_calibration
from .drawing import Drawn
from .impose import PAPERS
from .pdf import PdfPainter, new_canvas
from .producing import LOW_INK_FOLDER, REGISTRY, BuildOptions, Made, Output, Plan, Summary, made, register
from .scene import Item, Paint, Poly, Rect, Text
from .textlayout import TextLayout, layout_text
from .units import MM

GUIDE = "print-guide.pdf"
MARGIN = 15.0  # mm of paper round the guide's text
FOOT = 10.0  # mm from the paper's foot to the footer's baseline box
SCALE = 50.0  # mm: the side of the scale square
INK = "#1a1a1a"
GREY = "#555555"  # 7.5:1 on white
ACCENT = "#3b2a5c"
ZEBRA = "#eeeeee"  # every other row of a table (INK on it: 15:1)
BODY = 9.5  # pt
SMALL = 8.5  # pt: tables
SIDES = {"long": "both sides, long edge", "short": "both sides, short edge"}  # the edge the printer flips on


@cache
def advice() -> Mapping[str, Mapping[str, str]]:
    """``layouts/guide.toml``: per producer, what its files are, the stock to print them on and how to cut them."""
    with open(layouts_dir() / "guide.toml", "rb") as f:
        data: dict[str, Any] = tomllib.load(f)
    return {name: {k: str(v) for k, v in spec.items()} for name, spec in data["producers"].items()}


def esc(text: str) -> str:
    """Plain text as wizprint markup (a name's ``*`` or ``:`` printed as it is)."""
    return re.sub(r"([\\*:])", r"\\\1", text)


def lay(markup: str, w: float, size: float, fam: str = "text", align: str = "left") -> TextLayout:
    """``markup`` laid out ``w`` mm wide at ``size`` pt, however long; a word wider than ``w`` (a long file name of
    a game folder of one's own) is cut into pieces that fit, one under the other."""
    try:
        return layout_text(markup, w, 5000.0, family_name=fam, size=size, align=align)
    except FitError:
        pass
    words = []
    for word in markup.split(" "):
        pieces: list[str] = []
        for unit in re.findall(r"\\.|.", word, flags=re.S):  # an escaped character stays whole
            if pieces and _fits(pieces[-1] + unit, w, size, fam):
                pieces[-1] += unit
            else:
                pieces.append(unit)
        words.append("\n".join(pieces))
    return layout_text(" ".join(words), w, 5000.0, family_name=fam, size=size, align=align)


def _fits(markup: str, w: float, size: float, fam: str) -> bool:
    try:
        layout_text(markup, w, 5000.0, family_name=fam, size=size)
    except FitError:
        return False
    return True


def _pages(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}-{last}"


# -- what the guide says --------------------------------------------------------------------------------------------
@dataclass
class Row:
    """A line of the component checklist."""

    component: str
    count: int
    file: str  # "" when this build did not make it
    pages: str
    sides: str


@dataclass
class Contents:
    """Everything the guide says about a build, worked out from its files' manifest entries."""

    rows: list[Row] = field(default_factory=list)
    files: list[tuple[str, str, str]] = field(default_factory=list)  # (file or folder, what it is, pages)
    producers: list[str] = field(default_factory=list)  # the printed producers whose files the build holds
    pages: int = 0  # pages of the printed PDFs, one ink
    low_ink: bool = False  # the build holds the low-ink set beside the full one
    all_low: bool = False  # the build's only set is in low ink


def _sides(o: Output, opts: BuildOptions, two_sided: bool) -> str:
    if not two_sided:
        return "one side"
    duplex = str(o.extra.get("duplex", opts.print.duplex))
    if duplex == "gutterfold" or opts.print.imposition == "gutterfold":
        return "one side, then fold"
    return SIDES.get(duplex, "one side (no backs)")


def contents(drawn: Drawn, opts: BuildOptions, outputs: Sequence[Output]) -> Contents:
    """The checklist, the files and the producers of the build whose files are ``outputs``."""
    game = drawn.game
    c = Contents()
    full = [o for o in outputs if not o.file.startswith(LOW_INK_FOLDER + "/")]
    c.low_ink = len(full) < len(outputs)
    c.all_low = any(o.extra.get("ink") == "low" for o in full)
    by_file = {o.file: o for o in full}
    made_by = {o.producer for o in full} | ({"tokens"} if any("tokens" in o.extra for o in full) else set())
    c.producers = [p for p in advice() if p in made_by]  # in the order of guide.toml
    c.pages = sum(o.pages for o in full if o.file.endswith(".pdf") and o.producer in REGISTRY
                  and REGISTRY[o.producer].printed)
    two_sided_tokens = any(s.get("back_colour") for s in drawn.components.get("tokens", ()) or ())
    # decks: in their host's file, a guest on the host's last sheet
    for d, deck in game.decl.decks.items():
        host = next((o for o in full if o.kind == "cards" and (o.extra.get("deck") == d
                                                                or d in o.extra.get("decks", {}))), None)
        count = game.physical_count(d)
        if host is None:
            c.rows.append(Row(esc(deck.name), count, "", "", ""))
            continue
        sides = _sides(host, opts, host.extra.get("duplex") != "off")
        if host.extra.get("deck") == d:
            pages = _pages(1, host.pages)
        else:
            last = 1 if sides.startswith("one side") else 2
            pages = f"{_pages(host.pages - last + 1, host.pages)} (last sheet)"
        c.rows.append(Row(esc(deck.name), count, host.file, pages, sides))
    # records printed as sheets (Relic's character and scenario sheets)
    for kind, rs in drawn.records.items():
        o = by_file.get(f"sheets-{kind}.pdf")
        name = esc(game.decl.kinds[kind].name) + "s"
        if o is None:
            c.rows.append(Row(name, len(rs.fronts), "", "", ""))
        else:
            c.rows.append(Row(name, len(rs.fronts), o.file, _pages(1, o.pages), _sides(o, opts, bool(rs.backs))))
    # the components of game.toml
    dial = drawn.components.get("dial_boards") or {}
    for comp in game.decl.components:
        o = None
        sides = "one side"
        if comp.kind == "sheet":
            o = by_file.get(f"sheet-{comp.id}.pdf")
            if o is not None and o.pages == 2:
                sides = "one side, or both sides of one sheet"
        elif comp.kind == "tokens":  # in tokens.pdf, or at the foot of a deck's last sheet
            o = next((f for f in full if f.file.endswith(".pdf") and comp.id in f.extra.get("tokens", {})), None)
            if o is not None and (two_sided_tokens or o.kind == "cards"):
                sides = _sides(o, opts, (o.kind == "cards" and o.extra.get("duplex") != "off") or two_sided_tokens)
        elif comp.kind == "board":
            if dial.get("component") == comp.id:
                o = by_file.get("boards-characters.pdf")
            elif drawn.playmap is not None and drawn.playmap.component == comp.id:
                o = by_file.get(f"{comp.id}.pdf")
            elif drawn.board is not None:
                o = by_file.get("board-poster.pdf")
        if o is None:
            c.rows.append(Row(esc(comp.name), comp.count, "", "", ""))
            continue
        pages = _pages(1, o.pages)
        if o.file in ("board-poster.pdf", f"{comp.id}.pdf") and comp.kind == "board" and o.pages > 1:
            pages = f"{_pages(2, o.pages)} (page 1: how they go together)"
        elif o.kind == "cards":  # tokens on the last sheet of a deck's file
            last = 1 if sides.startswith("one side") else 2
            pages = f"{_pages(o.pages - last + 1, o.pages)} (last sheet)"
        c.rows.append(Row(esc(comp.name), comp.count, o.file, pages, sides))
    # every file
    svg: dict[str, int] = {}
    for o in outputs:
        if o.kind == "svg":
            folder = o.file.rsplit("/", 1)[0] + "/" if "/" in o.file else o.file
            svg[folder] = svg.get(folder, 0) + 1
            continue
        if o.file.startswith(LOW_INK_FOLDER + "/"):
            continue
        c.files.append((o.file, _what(o, game), str(o.pages) if o.file.endswith(".pdf") else ""))
    if c.low_ink:
        low = [o for o in outputs if o.file.startswith(LOW_INK_FOLDER + "/")]
        c.files.append((LOW_INK_FOLDER + "/", "the same PDFs in low ink: " + ", ".join(
            o.file.removeprefix(LOW_INK_FOLDER + "/") for o in low), str(sum(o.pages for o in low))))
    for folder, n in svg.items():
        c.files.append((folder, f"{n} SVG file{'s' if n != 1 else ''}: each design on its own, to edit", ""))
    c.files.append((GUIDE, "this guide", ""))
    c.files.append(("manifest.json", "every file of the build, its pages and checksum", ""))
    return c


def _what(o: Output, game: Game) -> str:
    e = o.extra
    if o.kind == "cards":
        decks = e.get("decks") or {e.get("deck", ""): e.get("cards", 0)}
        what = "; ".join(f"{game.decl.decks[d].name if d in game.decl.decks else d}: {n} cards"
                         for d, n in decks.items())
        if "backs" in e:  # copies with their own backs, each back's cards on sheets of their own
            what += " (" + ", ".join(f"{n} with the {b} back" for b, n in dict(e["backs"]).items()) + ")"
        if "tokens" in e:  # the game's tokens at the foot of its last sheet
            what += "; tokens: " + ", ".join(f"{n} {t}" for t, n in dict(e["tokens"]).items())
        return what
    if o.kind == "sheets" and "records" in e:
        return f"{e['records']} record sheets"
    if o.kind == "tokens":
        return "tokens: " + ", ".join(f"{n} {t}" for t, n in dict(e.get("tokens", {})).items())
    if o.kind == "board" and "tiles" in e:
        return f"the board in {e['tiles']} tiles, after its assembly map"
    if o.kind == "board" and "sheets" in e:
        return f"the play area in {e['sheets']} sheets, after how they lie"
    return {"sheets": "a reference sheet", "board": "a board" if o.file.endswith(".pdf") else "the whole board, "
            "to view or edit", "preview": "a contact sheet of a deck's designs", "csv": "the card list"}.get(o.kind,
                                                                                                      o.kind)


# -- laying the guide out -------------------------------------------------------------------------------------------
class _Flow:
    """Blocks of text laid top to bottom over pages."""

    def __init__(self, paper: tuple[float, float]):
        self.pw, self.ph = paper
        self.w = self.pw - 2 * MARGIN
        self.pages: list[list[Item]] = [[]]
        self.y = MARGIN

    def new_page(self) -> None:
        self.pages.append([])
        self.y = MARGIN

    def need(self, h: float) -> None:
        if self.y + h > self.ph - MARGIN - 4 and self.y > MARGIN + 0.1:
            self.new_page()

    def text(self, markup: str, size: float = BODY, fam: str = "text", colour: str = INK, x: float = 0.0,
             w: float | None = None, place: bool = True, keep: float = 0.0) -> Text:
        width = (self.w - x) if w is None else w
        laid = lay(markup, width, size, fam)
        t = Text(MARGIN + x, self.y, width, laid.height, laid, colour)
        if place:
            self.need(t.h + keep)
            t = Text(MARGIN + x, self.y, width, laid.height, laid, colour)
            self.pages[-1].append(t)
            self.y += t.h + size * 0.3528 * 0.7
        return t

    def heading(self, markup: str) -> None:
        self.y += 3.0
        self.text(markup, 14, "display", ACCENT, keep=12.0)
        self.pages[-1].append(Poly(((MARGIN, self.y - 1.2), (MARGIN + self.w, self.y - 1.2)),
                                   Paint(stroke=ACCENT, stroke_width=0.3), closed=False))
        self.y += 1.0

    def table(self, rows: list[list[str]], widths: list[float], size: float = SMALL) -> None:
        """A table, its first row the header (again at the top of each page it runs on to)."""
        header = self._row(rows[0], widths, size, True)
        body = [self._row(row, widths, size, False) for row in rows[1:]]
        self.need(max(t.h for t in header) + (max(t.h for t in body[0]) if body else 0.0) + 4.0)
        self._place(header, widths, True)
        for ri, cells in enumerate(body, 1):
            if self.y + max(t.h for t in cells) + 2.0 > self.ph - MARGIN - 4:
                self.new_page()
                self._place(header, widths, True)
            self._place(cells, widths, False, ri % 2 == 0)
        self.y += 2.5

    def _row(self, row: list[str], widths: list[float], size: float, bold: bool) -> list[Text]:
        total, pad = sum(widths), 1.0
        cells = []
        for value, part in zip(row, widths, strict=True):
            cw = self.w * part / total - 2 * pad
            laid = lay(f"**{value}**" if bold and value else value, cw, size)
            cells.append(Text(0, 0, cw, laid.height if value else size * 0.3528, laid, INK))
        return cells

    def _place(self, cells: list[Text], widths: list[float], header: bool, zebra: bool = False) -> None:
        """A row of laid-out cells at the flow's place (a header underlined, every other row shaded)."""
        total, pad = sum(widths), 1.0
        h = max(t.h for t in cells) + 2 * pad
        if zebra:
            self.pages[-1].append(Rect(MARGIN, self.y, self.w, h, Paint(fill=ZEBRA)))
        x = MARGIN
        for t, part in zip(cells, widths, strict=True):
            if t.layout.runs:
                self.pages[-1].append(Text(x + pad, self.y + pad, t.w, t.h, t.layout, INK))
            x += self.w * part / total
        self.y += h
        if header:
            self.pages[-1].append(Poly(((MARGIN, self.y), (MARGIN + self.w, self.y)),
                                       Paint(stroke=INK, stroke_width=0.25), closed=False))


def _scale_square(flow: _Flow) -> None:
    """The 50 mm square, and the note beside it."""
    flow.need(SCALE + 4)
    x0, y0 = MARGIN, flow.y + 1
    flow.pages[-1].append(Rect(x0, y0, SCALE, SCALE, Paint(stroke=INK, stroke_width=0.35)))
    for k in range(1, 10):  # a centimetre scale along the top and left edges, inside the square
        tick = 2.5 if k % 2 == 0 else 1.5
        flow.pages[-1].append(Poly(((x0 + 5 * k, y0), (x0 + 5 * k, y0 + tick)), Paint(stroke=INK, stroke_width=0.2),
                                   closed=False))
        flow.pages[-1].append(Poly(((x0, y0 + 5 * k), (x0 + tick, y0 + 5 * k)), Paint(stroke=INK, stroke_width=0.2),
                                   closed=False))
    label = lay("**50 mm**", SCALE - 6, 11, align="center")
    flow.pages[-1].append(Text(x0 + 3, y0 + SCALE / 2 - label.height / 2, SCALE - 6, label.height, label, INK))
    note = ("**Print every file at 100 %** (*actual size*; never *fit to page* or *shrink to fit*). Printed right, "
            "this square measures 50 mm on each side: measure it before you print the rest. The files ask your "
            "print dialog for actual size, but some dialogs choose for you.")
    x = SCALE + 6
    t = flow.text(note, 10, x=x, place=False)
    flow.pages[-1].append(Text(MARGIN + x, y0 + 2, t.w, t.h, t.layout, INK))
    flow.y = y0 + max(SCALE, t.h + 2) + 4


def guide_pdf(drawn: Drawn, opts: BuildOptions, outputs: Sequence[Output]) -> tuple[bytes, int]:
    """The guide's PDF and its pages."""
    game = drawn.game
    po = opts.print
    paper = PAPERS[po.paper]
    c = contents(drawn, opts, outputs)
    tips = advice()
    flow = _Flow(paper)
    # the cover
    flow.text(esc(game.name), 26, "display", ACCENT)
    flow.text("Print guide", 16, "display", INK)
    flow.text(f"Version {esc(game.decl.version)} - {po.paper.upper() if po.paper == 'a4' else 'Letter'} paper - "
              f"{game.decl.players_min}-{game.decl.players_max} players", 9, colour=GREY)
    flow.y += 2
    flow.text(esc(game.decl.description), BODY)
    flow.y += 2
    _scale_square(flow)
    both = "**both sides**" if any(r.sides.startswith("both") for r in c.rows) else ""
    summary = [f"**{c.pages} pages** to print" + (f", some of them on {both}" if both else "") + "."]
    if c.low_ink:
        summary.append(f"Each PDF is here twice: in full ink, and in the folder **{LOW_INK_FOLDER}/** in low ink, "
                       "with every large flood of colour printed as a light tint with an outline. The pages, cut "
                       "lines and marks are the same: print whichever set suits your printer, file by file.")
    elif c.all_low:
        summary.append("These PDFs are in low ink: every large flood of colour is a light tint with an outline.")
    flow.text(" ".join(summary), BODY)
    # the checklist
    flow.heading("Components")
    rows = [["Component", "Count", "File", "Pages", "Print on"]]
    for r in c.rows:
        rows.append([r.component, str(r.count), esc(r.file) if r.file else "*not in this build*", r.pages, r.sides])
    flow.table(rows, [0.36, 0.08, 0.21, 0.15, 0.20])
    # printing
    flow.heading("Printing")
    duplex = po.duplex
    if po.imposition == "gutterfold":
        flow.text("These files are laid out to fold (**gutterfold**): print every page on one side, fold each page "
                  "on its dashed line with the printed sides out, glue the halves together, then cut.")
    elif duplex in SIDES:
        flow.text(f"Files printed on **both sides** hold a page of fronts, then the page of their backs. Print them "
                  f"double-sided, flipping on the **{duplex} edge** (your print dialog may call it *{duplex}-edge "
                  f"binding*). If the backs come out shifted against the fronts, print the **calibration sheet** "
                  f"at the end of this guide on both sides of one sheet, read the shift it shows, and build again "
                  f"with *--back-offset X,Y*.")
    else:
        flow.text("This build has no backs (*--duplex off*): print every page on one side.")
    flow.text("Files printed on **one side** can go on any printer; a page of a board or map is at full size, so it "
              "too must be printed at 100 %.")
    # paper
    flow.heading("Paper and card stock")
    stock = [["For", "Print on"]] + [[tips[p]["what"], tips[p]["stock"]] for p in c.producers if "stock" in tips[p]]
    flow.table(stock, [0.28, 0.72], BODY - 0.5)
    # cutting
    flow.heading("Cutting and assembly, in order")
    steps = ["Measure the scale square on page 1 of this guide, printed: 50 mm."]
    if duplex in SIDES and po.imposition != "gutterfold":
        steps.append("Print the calibration sheet (the last two pages of this guide) on both sides of one sheet, "
                     "as the sheet itself explains.")
    steps += [tips[p]["cut"] for p in c.producers if "cut" in tips[p]]
    for n, step in enumerate(steps, 1):
        t = flow.text(step, BODY, x=6, place=False)
        flow.need(t.h)
        num = flow.text(f"**{n}.**", BODY, x=0, w=6, place=False)
        flow.pages[-1] += [Text(MARGIN, flow.y, 6, num.h, num.layout, ACCENT),
                           Text(MARGIN + 6, flow.y, t.w, t.h, t.layout, INK)]
        flow.y += t.h + BODY * 0.3528 * 0.7
    # every file
    flow.heading("Every file of this build")
    flow.table([["File", "What it is", "Pages"], *([esc(f), esc(w), p] for f, w, p in c.files)], [0.3, 0.6, 0.1])
    # the calibration sheet: on the two sides of one sheet, so from an odd page
    guide_pages = len(flow.pages)
    blank = duplex in SIDES and guide_pages % 2 == 1
    if blank:
        flow.new_page()
        flow.text("*This page is left blank, so that the calibration sheet's two pages print on the two sides of "
                  "one sheet.*", BODY, colour=GREY)
    buf = io.BytesIO()
    pw, ph = paper
    canvas = new_canvas(buf, (pw * MM, ph * MM), f"{game.name} - print guide")
    canvas.setTrimBox([0, 0, pw * MM, ph * MM])  # a document printed whole: its pages are trimmed to the paper
    canvas.setBleedBox([0, 0, pw * MM, ph * MM])
    painter = PdfPainter(canvas)
    total = len(flow.pages) + 2
    for n, items in enumerate(flow.pages, 1):
        painter.draw_items(items, ph)
        foot = lay(f"{esc(game.name)} - print guide - page {n} of {total} - version {esc(game.decl.version)}"
                   " - wizprint", pw - 2 * MARGIN, 7, align="center")
        painter.draw_items([Text(MARGIN, ph - FOOT - foot.height, pw - 2 * MARGIN, foot.height, foot, GREY)], ph)
        canvas.showPage()
    draw_calibration(canvas, po.paper, duplex if duplex in SIDES else "long", po.back_offset)
    canvas.save()
    return buf.getvalue(), total


@register("guide", "print-guide.pdf: what to print, on what and how, the cutting order and the calibration sheet")
def guide(drawn: Drawn, opts: BuildOptions) -> Plan:
    return Plan(summaries=[Summary((GUIDE,), partial(_guide_file, drawn, opts))])


def _guide_file(drawn: Drawn, opts: BuildOptions, outputs: list[Output]) -> list[Made]:
    data, pages = guide_pdf(drawn, opts, outputs)
    return [made(GUIDE, "guide", data, pages, paper=opts.print.paper)]
