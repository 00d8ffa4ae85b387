"""Reference sheets: short documents (headings, paragraphs, bullet lists, tables) flowed into columns on A4 or
Letter pages, from ``layouts/<game>/sheets.toml``. Text is wizprint markup and may be a jinja2 template over the
game's data (``game``, ``cards``, ``by_type``)."""

from __future__ import annotations

import io
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from wizprint.cards.model import Game
from wizprint.errors import BuildError, DataErrors, FitError, Issue
from wizprint.resources import layouts_dir

from .impose import PAPERS
from .pdf import PdfPainter, new_canvas
from .scene import Item, Paint, Poly, Rect, Text
from .textlayout import layout_text
from .units import MM

MARGIN = 12.0
COL_GAP = 7.0
_env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True)


@dataclass
class SheetPage:
    items: list[Item] = field(default_factory=list)


def sheets_path(game: Game) -> Path:
    own = game.root / "sheets.toml"
    return own if own.is_file() else layouts_dir() / game.id / "sheets.toml"


def load_sheets(game: Game) -> dict[str, Mapping[str, Any]]:
    p = sheets_path(game)
    if not p.is_file():
        return {}
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataErrors([Issue(str(p), 0, "", f"malformed TOML: {exc}")]) from None
    return dict(data.get("sheets", {}))


def _ctx(game: Game) -> dict[str, Any]:
    by_type: dict[str, list[Any]] = {}
    for c in game.cards():
        by_type.setdefault(c.type, []).append(c)
    return {"game": game.decl, "cards": game.cards(), "by_type": by_type, "records": game.records,
            "text_of": game.text, "of_kind": game.of_kind}


def _render(s: Any, ctx: Mapping[str, Any]) -> str:
    return _env.from_string(str(s)).render(ctx).strip() if isinstance(s, str) else str(s)


class _Flow:
    def __init__(self, pw: float, ph: float, columns: int, top: float):
        self.pw, self.ph = pw, ph
        self.columns = columns
        self.colw = (pw - 2 * MARGIN - (columns - 1) * COL_GAP) / columns
        self.top0 = top
        self.pages: list[SheetPage] = [SheetPage()]
        self.col = 0
        self.y = top

    @property
    def x(self) -> float:
        return MARGIN + self.col * (self.colw + COL_GAP)

    def room(self) -> float:
        return self.ph - MARGIN - self.y

    def next_column(self) -> None:
        self.col += 1
        if self.col >= self.columns:
            self.col = 0
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
            raise FitError(f"a block {h:.0f} mm tall is taller than a column ({column:.0f} mm); split it")
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


def sheet_pdf(game: Game, sheet_id: str, spec: Mapping[str, Any], paper: str) -> tuple[bytes, int]:
    pw, ph = PAPERS[paper]
    ctx = _ctx(game)
    accent = str(spec.get("accent", "#5a3d7a"))
    size = float(spec.get("size", 9.0))
    title = _render(spec.get("title", game.name), ctx)
    flow = _Flow(pw, ph, int(spec.get("columns", 2)), MARGIN + 16)
    try:
        head = _text_g(title, pw - 2 * MARGIN, 20, "display")
        flow.add(_moved(head, MARGIN, MARGIN, accent))
        flow.add(Poly(((MARGIN, MARGIN + 12.5), (pw - MARGIN, MARGIN + 12.5)), Paint(stroke=accent, stroke_width=0.6),
                      closed=False))
        block_no = 0  # which block failed, for the error message
        for b in spec.get("blocks", []):
            block_no += 1
            _block(flow, b, ctx, size, accent, game.id)
    except FitError as exc:
        raise DataErrors([Issue(_shown(game), _block_line(game, sheet_id, block_no), sheet_id,
                                f"block {block_no}: {exc}")]) from None
    except jinja2.TemplateError as exc:
        raise DataErrors([Issue(_shown(game), _block_line(game, sheet_id, block_no), sheet_id,
                                f"block {block_no}: template error: {exc}")]) from None
    max_pages = int(spec.get("pages", 2))
    if len(flow.pages) > max_pages:
        raise BuildError(f"sheet '{sheet_id}' of {game.id} needs {len(flow.pages)} pages, its layout allows "
                         f"{max_pages}")
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


def _shown(game: Game) -> str:
    p = sheets_path(game)
    try:
        return "layouts/" + p.relative_to(layouts_dir()).as_posix()
    except ValueError:
        return str(p)


def _block_line(game: Game, sheet_id: str, block_no: int) -> int:
    """The line of the n-th ``[[sheets.<id>.blocks]]`` header in the sheets file."""
    from wizprint.cards.lines import LineMap

    return LineMap(sheets_path(game).read_text(encoding="utf-8")).line(f"sheets.{sheet_id}.blocks", block_no - 1)


def _block(flow: _Flow, b: Mapping[str, Any], ctx: Mapping[str, Any], size: float, accent: str, game: str) -> None:
    """Lay out one block. Text from ``text``/``items``/``rows`` is a template; lines that a ``template`` produced
    are used as they are (not rendered a second time)."""

    def _text(markup: str, w: float, size: float, fam: str = "text", align: str = "left") -> Text:
        return _text_g(markup, w, size, fam, align, game)

    kind = b.get("kind", "para")
    bsize = float(b.get("size", size))
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
        widths = list(b.get("widths", [1.0 / len(rows[0])] * len(rows[0])))
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
        raise BuildError(f"unknown sheet block kind {kind!r}")
