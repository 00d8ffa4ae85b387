"""Reference sheets: short documents (headings, paragraphs, bullet lists, tables) flowed into columns on A4 or
Letter pages, from ``layouts/<game>/sheets.toml``. Text is wizprint markup and may be a jinja2 template over the
game's data (``game``, ``cards``, ``by_type``), rendered in the sandbox
(:class:`~wizprint.cards.vocab.SafeEnvironment`).

The file is checked when loaded (its shape, every number finite and in range, colours, sheet ids that are
components of the game and safe in a file name, every template compiled in the sandbox), with one error per
problem at its line; :func:`check_sheets` also lays every sheet out, so ``validate`` finds what ``build`` would.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from wizprint.cards.lines import TomlLines
from wizprint.cards.model import Game
from wizprint.cards.schema import (
    Flag,
    ListOf,
    Number,
    OneOf,
    Rec,
    Str,
    Table,
    TableOf,
    Whole,
    check_data,
    safe_id_key,
    schema_issues,
)
from wizprint.cards.vocab import MAX_TEMPLATE_LEN, SafeEnvironment
from wizprint.errors import DataErrors, FitError, Issue, WizprintError, quote
from wizprint.resources import layouts_dir

from .impose import PAPERS
from .layout import colour_problem, read_layout_file, shown_path
from .pdf import PdfPainter, new_canvas
from .scene import Item, Paint, Poly, Rect, Text
from .textlayout import layout_text
from .units import MM

MARGIN = 12.0
COL_GAP = 7.0
MAX_BLOCKS = 2_000
MAX_ROWS = 1_000
MAX_COLUMNS = 20
SHEET_NAMES = ("game", "cards", "by_type", "records", "text_of", "of_kind")
_env = SafeEnvironment(known=SHEET_NAMES, trim_blocks=True, lstrip_blocks=True)
_templates: dict[str, jinja2.Template] = {}


# -- the schema of sheets.toml -------------------------------------------------------------------------------
def _is_template(s: str) -> bool:
    return "{{" in s or "{%" in s or "{#" in s


def _template_problem(value: str) -> str | None:
    if not _is_template(value):
        return None
    try:
        _compiled(value)
    except jinja2.TemplateSyntaxError as exc:
        return f"template error: {exc.message}"
    return None


def _block_complete(b: Rec) -> str | None:
    need = {"heading": ("text",), "para": ("text",), "bullets": ("items", "template"),
            "table": ("rows", "template")}.get(b.kind, ())
    if need and all(b[k] is None for k in need):
        return f"a {b.kind} block needs {' or '.join(repr(k) for k in need)}"
    if b.kind == "table" and b.rows:
        if len({len(r) for r in b.rows}) > 1:
            return "every row of a table needs the same number of cells"
        if b.widths and len(b.rows[0]) != len(b.widths):
            return f"every row needs {len(b.widths)} cells, one per width"
    return None


_MARKUP = Str(MAX_TEMPLATE_LEN, then=_template_problem)
BLOCK_FILE = Table({
    "kind": (OneOf("heading", "para", "bullets", "table", "rule", "column"), "para"),
    "text": (_MARKUP, None),
    "items": (ListOf(_MARKUP, most=MAX_ROWS), None),
    "template": (_MARKUP, None),
    "rows": (ListOf(ListOf(_MARKUP, most=MAX_COLUMNS, least=1), most=MAX_ROWS), None),
    "widths": (ListOf(Number(0, 100, above=True), most=MAX_COLUMNS, least=1), None),
    "header": (Flag(), True),
    "size": (Number(3, 60), None),
}, then=_block_complete)
SHEETS_FILE = Table({"sheets": (TableOf(Table({
    "title": (_MARKUP, None),
    "columns": (Whole(1, 6), 2),
    "pages": (Whole(1, 50), 2),
    "size": (Number(3, 60), 9.0),
    "min_size": (Number(6, 60), None),
    "accent": (Str(20, then=colour_problem), "#5a3d7a"),
    "blocks": (ListOf(BLOCK_FILE, most=MAX_BLOCKS), []),
}), key=safe_id_key), {})})
"""The schema of ``sheets.toml``."""


@dataclass
class SheetPage:
    items: list[Item] = field(default_factory=list)


def sheets_path(game: Game) -> Path:
    own = game.root / "sheets.toml"
    return own if own.is_file() else layouts_dir() / game.id / "sheets.toml"


def _shown(game: Game) -> str:
    return shown_path(game, sheets_path(game))


def _read(game: Game) -> tuple[dict[str, Any], str] | None:
    p = sheets_path(game)
    return read_layout_file(game, p) if p.is_file() else None


def load_sheets(game: Game) -> dict[str, Mapping[str, Any]]:
    """The sheets of a game, checked (DataErrors with one issue per problem, at its line)."""
    got = _read(game)
    if got is None:
        return {}
    data, text = got
    shown = _shown(game)
    lines = TomlLines(text)
    _, problems = check_data(SHEETS_FILE, data)
    if problems:
        raise DataErrors(schema_issues(problems, shown, lines))
    sheets: dict[str, Mapping[str, Any]] = dict(data.get("sheets", {}))
    known = {c.id for c in game.decl.components}
    issues = [Issue(shown, lines.line(("sheets", sid)), sid, f"sheet {quote(sid)} is not a component of the game "
                                                              f"(components: {', '.join(sorted(known)) or 'none'})")
              for sid in sheets if sid not in known]
    if issues:
        raise DataErrors(issues)
    return sheets


def _ctx(game: Game) -> dict[str, Any]:
    by_type: dict[str, list[Any]] = {}
    for c in game.cards():
        by_type.setdefault(c.type, []).append(c)
    return {"game": game.decl, "cards": game.cards(), "by_type": by_type, "records": tuple(game.records),
            "text_of": game.text, "of_kind": game.of_kind}


def _compiled(source: str) -> jinja2.Template:
    t = _templates.get(source)
    if t is None:
        t = _templates[source] = _env.from_string(source)
    return t


def _render(s: Any, ctx: Mapping[str, Any]) -> str:
    if not isinstance(s, str):
        return str(s)
    if not _is_template(s):  # plain text: what jinja2 would give back (its newlines made \n), without compiling it
        return s.replace("\r\n", "\n").replace("\r", "\n").strip()
    return _env.render(_compiled(s), ctx).strip()


class _Overflow(FitError):
    """The flow ran out of pages or columns."""


class _Flow:
    def __init__(self, pw: float, ph: float, columns: int, top: float, max_pages: int = 50):
        self.pw, self.ph = pw, ph
        self.columns = columns
        self.colw = (pw - 2 * MARGIN - (columns - 1) * COL_GAP) / columns
        self.top0 = top
        self.pages: list[SheetPage] = [SheetPage()]
        self.col = 0
        self.y = top
        self.max_pages = max_pages

    @property
    def x(self) -> float:
        return MARGIN + self.col * (self.colw + COL_GAP)

    def room(self) -> float:
        return self.ph - MARGIN - self.y

    def next_column(self) -> None:
        self.col += 1
        if self.col >= self.columns:
            self.col = 0
            if len(self.pages) >= self.max_pages:
                raise _Overflow(f"the sheet needs more than {self.max_pages} page{'s' if self.max_pages != 1 else ''}"
                                f", its layout allows {self.max_pages}")
            self.pages.append(SheetPage())
            self.y = MARGIN
        else:
            self.y = self.column_top()

    def column_top(self) -> float:
        return self.top0 if len(self.pages) == 1 else MARGIN

    def need(self, h: float) -> None:
        """Move to the next column unless ``h`` mm fit here; a block taller than a whole column is an error."""
        if h > self.ph - MARGIN - self.column_top() + 1e-6:
            column = self.ph - MARGIN - self.column_top()
            raise _Overflow(f"a block {h:.0f} mm tall is taller than a column ({column:.0f} mm); split it")
        if h > self.room() and self.y > self.column_top() + 0.1:
            self.next_column()

    def add(self, item: Item) -> None:
        self.pages[-1].items.append(item)


def _text_g(markup: str, w: float, size: float, fam: str = "text", align: str = "left", game: str | None = None
            ) -> Text:
    lay = layout_text(markup, w, 2000.0, family_name=fam, size=size, align=align)
    return Text(0, 0, w, lay.height, lay, "#1a1a1a", game)


def _moved(t: Text, x: float, y: float, colour: str = "#1a1a1a") -> Text:
    return Text(x, y, t.w, t.h, t.layout, colour, t.game)


def sheet_flow(game: Game, sheet_id: str, spec: Mapping[str, Any], paper: str) -> tuple[_Flow, str]:
    """Lay a sheet out on pages (every block's text fitted); DataErrors naming the block's line on a problem. A
    sheet with a ``min_size`` that does not fit its ``pages`` at its ``size`` (a Letter page is shorter than an A4
    one) is laid out again a quarter point smaller, its blocks' own sizes in proportion (never below 6 pt), until
    it fits or reaches ``min_size``."""
    size = float(spec.get("size", 9.0))
    floor = min(size, float(spec.get("min_size") or size))
    while True:
        try:
            return _sheet_flow(game, sheet_id, spec, paper, size)
        except _TooLong as exc:
            if size - 0.25 < floor - 1e-9:
                raise _sheet_error(game, sheet_id, exc.block_no, exc.message) from None
            size -= 0.25


class _TooLong(Exception):
    """A sheet that does not fit its pages (or a block taller than a column) at the size tried."""

    def __init__(self, block_no: int, message: str):
        super().__init__(message)
        self.block_no = block_no
        self.message = message


def _sheet_flow(game: Game, sheet_id: str, spec: Mapping[str, Any], paper: str, size: float) -> tuple[_Flow, str]:
    pw, ph = PAPERS[paper]
    ctx = _ctx(game)
    accent = str(spec.get("accent", "#5a3d7a"))
    scale = size / float(spec.get("size", 9.0))
    max_pages = int(spec.get("pages", 2))
    flow = _Flow(pw, ph, int(spec.get("columns", 2)), MARGIN + 16, max_pages)
    block_no = 0  # which block failed, for the error message
    title = ""
    try:
        title = _render(spec.get("title", game.name), ctx)
        head = _text_g(title, pw - 2 * MARGIN, 20, "display")
        flow.add(_moved(head, MARGIN, MARGIN, accent))
        flow.add(Poly(((MARGIN, MARGIN + 12.5), (pw - MARGIN, MARGIN + 12.5)), Paint(stroke=accent, stroke_width=0.6),
                      closed=False))
        for b in spec.get("blocks", []):
            block_no += 1
            _block(flow, b, ctx, size, accent, game.id, scale)
    except _Overflow as exc:
        raise _TooLong(block_no, str(exc)) from None
    except FitError as exc:
        raise _sheet_error(game, sheet_id, block_no, str(exc)) from None
    except jinja2.TemplateError as exc:
        raise _sheet_error(game, sheet_id, block_no, f"template error: {exc.message or exc}") from None
    except (ValueError, TypeError, LookupError, ArithmeticError, AttributeError) as exc:
        raise _sheet_error(game, sheet_id, block_no, str(exc) or type(exc).__name__) from None
    except DataErrors:
        raise
    except WizprintError as exc:
        raise _sheet_error(game, sheet_id, block_no, str(exc)) from None
    return flow, title


def _sheet_error(game: Game, sheet_id: str, block_no: int, message: str) -> DataErrors:
    where = f"block {block_no}: " if block_no else "title: "
    return DataErrors([Issue(_shown(game), _block_line(game, sheet_id, block_no), sheet_id, where + message)])


def sheet_pdf(game: Game, sheet_id: str, spec: Mapping[str, Any], paper: str) -> tuple[bytes, int]:
    flow, title = sheet_flow(game, sheet_id, spec, paper)
    pw, ph = PAPERS[paper]
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * MM, ph * MM), f"{game.name} - {title}")
    painter = PdfPainter(c)
    for n, page in enumerate(flow.pages, 1):
        painter.draw_items(page.items, ph)
        name = "" if game.name.lower() in title.lower() else f"{game.name} - "
        foot = _text_g(f"{name}{title} - page {n} of {len(flow.pages)} - version {game.decl.version} - wizprint",
                       pw - 2 * MARGIN, 6.5, align="center")
        painter.draw_items([_moved(foot, MARGIN, ph - MARGIN + 4, "#777777")], ph)
        c.showPage()
    c.save()
    return buf.getvalue(), len(flow.pages)


def check_sheets(game: Game, paper: str = "a4") -> list[Issue]:
    """Every problem that stops a game's sheets from being built (for ``validate``)."""
    try:
        sheets = load_sheets(game)
    except DataErrors as exc:
        return list(exc.issues)
    issues: list[Issue] = []
    for sid, spec in sheets.items():
        try:
            sheet_flow(game, sid, spec, paper)
        except DataErrors as exc:
            issues.extend(exc.issues)
    return issues


def _block_line(game: Game, sheet_id: str, block_no: int) -> int:
    """The line of the n-th ``[[sheets.<id>.blocks]]`` header in the sheets file (of the sheet for 0)."""
    try:
        lines = TomlLines(sheets_path(game).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return 0
    return lines.line(("sheets", sheet_id, "blocks", block_no - 1) if block_no else ("sheets", sheet_id))


def _block(flow: _Flow, b: Mapping[str, Any], ctx: Mapping[str, Any], size: float, accent: str, game: str,
           scale: float = 1.0) -> None:
    """Lay out one block. Text from ``text``/``items``/``rows`` is a template; lines that a ``template`` produced
    are used as they are (not rendered a second time)."""

    def _text(markup: str, w: float, size: float, fam: str = "text", align: str = "left") -> Text:
        return _text_g(markup, w, size, fam, align, game)

    kind = b.get("kind", "para")
    own = b.get("size")
    bsize = size if own is None else max(min(6.0, float(own)), float(own) * scale)
    w = flow.colw
    if kind == "heading":
        t = _text(_render(b["text"], ctx), w, bsize * 1.45, "display")
        flow.need(t.h + 2 + bsize * 1.3 * 0.3528 * 2)  # keep a heading with the start of what follows
        flow.y += 1.5
        flow.add(_moved(t, flow.x, flow.y, accent))
        flow.y += t.h + 1.2
    elif kind == "para":
        t = _text(_render(b["text"], ctx), w, bsize)
        flow.need(t.h)
        flow.add(_moved(t, flow.x, flow.y))
        flow.y += t.h + bsize * 0.3528 * 0.6
    elif kind == "bullets":
        if "items" in b:
            items = [_render(it, ctx) for it in b["items"]]
        else:
            items = [ln for ln in _render(b["template"], ctx).splitlines() if ln.strip()]
        ind = 3.2
        for it in items:
            t = _text(it, w - ind, bsize)
            flow.need(t.h)
            dot = _text("\u2022", ind, bsize)
            flow.add(_moved(dot, flow.x + 0.6, flow.y, accent))
            flow.add(_moved(t, flow.x + ind, flow.y))
            flow.y += t.h + bsize * 0.3528 * 0.35
        flow.y += bsize * 0.3528 * 0.4
    elif kind == "table":
        if "rows" in b:
            rows = [[_render(c, ctx) for c in row] for row in b["rows"]]
        else:
            rows = [[c.strip() for c in ln.split("|")] for ln in _render(b["template"], ctx).splitlines() if ln.strip()]
        if not rows:
            return
        ncols = len(rows[0])
        widths = list(b.get("widths", [1.0 / ncols] * ncols))
        for ri, row in enumerate(rows, 1):
            if len(row) != len(widths):
                raise ValueError(f"row {ri} of the table has {len(row)} cells, the table has {len(widths)} columns")
        total = sum(widths)
        header = bool(b.get("header", True))
        pad = 1.0
        for ri, row in enumerate(rows):
            cells = []
            for ci, cell in enumerate(row):
                cw = w * widths[ci] / total - 2 * pad
                md = cell
                if ri == 0 and header:
                    md = f"**{md}**" if md else md
                cells.append(_text(md, cw, bsize) if md else None)
            rh = max((t.h for t in cells if t is not None), default=bsize * 0.3528) + 2 * pad
            flow.need(rh)
            if ri == 0 and header:
                flow.add(Rect(flow.x, flow.y, w, rh, Paint(fill=accent, opacity=0.18)))
            elif ri % 2 == 0:
                flow.add(Rect(flow.x, flow.y, w, rh, Paint(fill="#000000", opacity=0.05)))
            x = flow.x
            for ci, cell_text in enumerate(cells):
                cw = w * widths[ci] / total
                if cell_text is not None:
                    flow.add(_moved(cell_text, x + pad, flow.y + pad))
                x += cw
            flow.y += rh
        flow.y += bsize * 0.3528 * 0.8
    elif kind == "rule":
        flow.add(Poly(((flow.x, flow.y + 1), (flow.x + w, flow.y + 1)), Paint(stroke=accent, stroke_width=0.3),
                      closed=False))
        flow.y += 2.5
    elif kind == "column":
        flow.next_column()
    else:
        raise ValueError(f"unknown sheet block kind {quote(kind)}")
