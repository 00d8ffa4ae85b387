"""Printed components described in ``layouts/<game>/components.toml`` (or ``components-layout.toml`` in a game
folder: a game's own ``components.toml`` may hold cards): boards with paper dials (cut-out wheels held behind
windows by a paper fastener) and round tokens with cut guides, showing an icon and/or a short text; a token set
with a back (``back_colour`` and ``back_icon`` / ``back_text``) is double-sided, its backs printed on facing pages
and placed for duplex like the cards' backs. The file is checked before use (shape, numbers
finite and in range, colours, icons, counts), with one error per problem at its line."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor

from wizprint.cards.lines import TomlLines
from wizprint.cards.markup import fragments
from wizprint.cards.model import Game
from wizprint.cards.schema import ListOf, Number, Rec, Str, Table, TableOf, Whole, check_data, schema_issues
from wizprint.errors import BuildError, DataErrors, FitError, Issue
from wizprint.resources import layouts_dir

from .deckpdf import Riders, page_label
from .icons import ICON_NAME, icon_problem
from .impose import DRAW_EDGE, PAPERS, Slot, mirror_slot
from .layout import colour_problem, read_layout_file, shown_path
from .pdf import PdfPainter, new_canvas
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import layout_text
from .units import MM

MAX_TOKENS = 10_000  # tokens of a game
NOTE_SIZE = 7.0  # pt, the note at the foot of a page of boards or tokens
NOTE_COLOUR = HexColor("#000000")


def _icon(value: str) -> str | None:
    return None if ICON_NAME.match(value) else "an icon name is lower-case letters, digits and '-' (at most 64)"


def _labelled(track: Rec) -> str | None:
    return None if len(track.labels) == track.slots else f"labels has {len(track.labels)} items, slots is {track.slots}"


def _going_up(numbers: list[int]) -> str | None:
    lo, hi = numbers
    return None if 0 <= hi - lo < 100 else f"numbers [{lo}, {hi}] must go up, by at most 99"


def _one_way(t: Rec) -> str | None:
    if not t.icon and not t.text:
        return "a token set needs an 'icon' or a 'text' (or both)"
    if t.back_colour is None and (t.back_icon or t.back_text):
        return "a double-sided token set needs a 'back_colour'"
    if t.back_colour is not None and not t.back_icon and not t.back_text:
        return "a double-sided token set needs a 'back_icon' or a 'back_text' (or both)"
    if (t.colours is None) == (t.colour is None):
        return "a token set has either 'colours' and 'per_colour', or 'colour' and 'count'"
    if t.colours is not None and t.per_colour is None:
        return "a token set with 'colours' needs 'per_colour'"
    if t.colour is not None and t.count is None:
        return "a token set with 'colour' needs 'count'"
    return None


def _tokens_in_all(comps: Rec) -> str | None:
    total = sum((t.per_colour or 0) * len(t.colours) if t.colours is not None else t.count or 0 for t in comps.tokens)
    return f"the token sets hold {total:,} tokens, more than {MAX_TOKENS:,}" if total > MAX_TOKENS else None


_COLOUR = Str(20, then=colour_problem)
_COLOURS = TableOf(_COLOUR, most=20, least=1)
_LABEL = Str(200)
_COORD = Number(0, 1000)
_PAIR = ListOf(Number(0, 1000, above=True), most=2, least=2)
_POINT = ListOf(_COORD, most=2, least=2)
_BOX = ListOf(_COORD, most=4, least=4)
DIAL_BOARDS = Table({
    "component": (_LABEL, ""), "size": _PAIR, "title": (_LABEL, ""), "colours": _COLOURS,
    "paper": (_COLOUR, "#f3ecdc"),
    # a level track on the board itself (optional: Relic's character sheets carry their own)
    "track": (Table({"box": _BOX, "slots": Whole(1, 50), "labels": ListOf(Str(20), most=50)}, then=_labelled), None),
    "slot": _BOX, "wheel_radius": Number(5, 60), "number_radius": Number(1, 60), "window": _PAIR,
    "dials": ListOf(Table({"name": _LABEL, "colour": _COLOUR, "centre": _POINT,
                           "numbers": ListOf(Whole(-999, 999), most=2, least=2, then=_going_up)}),
                    most=20, least=1),
})
_TOKEN_TEXT = Str(8)
TOKEN_SET = Table({
    "component": _LABEL, "diameter": Number(5, 100), "icon": (Str(64, then=_icon), None),
    "per_colour": (Whole(1, MAX_TOKENS), None), "colours": (_COLOURS, None),
    "count": (Whole(1, MAX_TOKENS), None), "colour": (_COLOUR, None),
    # a few characters printed big on the token (with or without an icon), and its colour
    "text": (_TOKEN_TEXT, None), "text_colour": (_COLOUR, "#ffffff"),
    # a double-sided token: its back's colour, icon and text (fronts and backs then print on facing pages)
    "back_colour": (_COLOUR, None), "back_icon": (Str(64, then=_icon), None), "back_text": (_TOKEN_TEXT, None),
    "back_text_colour": (_COLOUR, "#ffffff"),
}, then=_one_way)
COMPONENTS_FILE = Table({"dial_boards": (DIAL_BOARDS, None), "tokens": (ListOf(TOKEN_SET, most=100), [])},
                        then=_tokens_in_all)
"""The schema of ``layouts/<game>/components.toml``."""


def components_path(game: Game) -> Path:
    own = game.root / "components-layout.toml"
    return own if own.is_file() else layouts_dir() / game.id / "components.toml"


def load_components(game: Game) -> Mapping[str, Any]:
    """The components layout of a game, checked (DataErrors with one issue per problem at its line); {} when the
    game has none."""
    p = components_path(game)
    if not p.is_file():
        return {}
    shown = shown_path(game, p)
    data, text = read_layout_file(game, p)
    issues: list[Issue] = []
    lines = TomlLines(text)
    _, problems = check_data(COMPONENTS_FILE, data)
    if problems:
        raise DataErrors(schema_issues(problems, shown, lines))
    for i, t in enumerate(data.get("tokens", [])):
        for key in ("icon", "back_icon", "text", "back_text"):
            names = [t[key]] if key.endswith("icon") and t.get(key) else [
                f.icon for f in fragments(str(t.get(key) or "")) if f is not None and f.icon]
            for name in names:
                problem = icon_problem(name, game.id)
                if problem:
                    issues.append(Issue(shown, lines.line(("tokens", i, key)), "", f"tokens[{i + 1}].{key}: {problem}"))
    if issues:
        raise DataErrors(issues)
    return data


def check_components(game: Game, paper: str = "a4") -> list[Issue]:
    """Every problem that stops a game's boards and tokens from being built (for ``validate``): the file, then
    every text of the boards and wheels fitted and the boards' size against the paper."""
    try:
        comps = load_components(game)
    except DataErrors as exc:
        return list(exc.issues)
    p = components_path(game)
    issues: list[Issue] = []
    for i, t in enumerate(comps.get("tokens", [])):
        try:
            _token_faces(game, [t])
        except FitError as exc:
            line = TomlLines(p.read_text(encoding="utf-8")).line(("tokens", i))
            issues.append(Issue(shown_path(game, p), line, "", f"tokens[{i + 1}]: {exc}"))
    spec = comps.get("dial_boards")
    if spec is None:
        return issues
    shown = shown_path(game, p)
    line = TomlLines(p.read_text(encoding="utf-8")).line(("dial_boards",))
    try:
        _check_paper(spec, paper)
        for name, col in dict(spec["colours"]).items():
            dial_board_items(spec, name, col, game.id)
        for d in spec["dials"]:
            wheel_items(spec, d, f"{d['name']} dial")
    except (FitError, BuildError) as exc:
        return [*issues, Issue(shown, line, "", f"dial_boards: {exc}")]
    return issues


def _check_paper(spec: Mapping[str, Any], paper_name: str) -> None:
    paper = PAPERS[paper_name]
    w, h = (float(v) for v in spec["size"])
    if w > paper[0] - 10 or h > paper[1] - 10:
        raise BuildError(f"a {w:g} x {h:g} mm board does not fit {paper_name} paper")
    cell = 2 * float(spec["wheel_radius"]) + 2 * WHEEL_BLEED + WHEEL_GAP
    if (paper[0] - 16 + WHEEL_GAP) // cell < 1 or (paper[1] - 8 - FOOT + WHEEL_GAP) // cell < 1:
        raise BuildError(f"a dial wheel of radius {float(spec['wheel_radius']):g} mm does not fit {paper_name} paper")


def _text(markup: str, x: float, y: float, w: float, h: float, colour: str, size: float, font: str = "text",
          align: str = "center", valign: str = "middle", game: str | None = None) -> Text:
    lay = layout_text(markup, w, h, family_name=font, size=size, align=align, valign=valign)
    return Text(x, y, w, h, lay, colour, game)


def _centred_on_page(c: Any, painter: PdfPainter, items: list[Item], w: float, h: float,
                     paper: tuple[float, float]) -> None:
    x0, y0 = (paper[0] - w) / 2, (paper[1] - h) / 2
    c.saveState()
    c.translate(x0 * MM, y0 * MM)
    painter.draw_items(items, h)
    c.restoreState()


MUTED = "#6b5e4e"  # notes on a board's paper (5:1 on it)


def dial_board_items(spec: Mapping[str, Any], colour_name: str, colour: str, game: str) -> list[Item]:
    """A board page: colour band, level track, the sheet slot with its slits, and the dial windows to cut out."""
    w, h = (float(v) for v in spec["size"])
    paper = str(spec.get("paper", "#f3ecdc"))
    items: list[Item] = [Rect(0, 0, w, h, Paint(fill=colour), radius=3.0),
                         Rect(2.5, 2.5, w - 5, h - 5, Paint(fill=paper), radius=2.0)]
    if spec.get("track"):
        items.extend(_track_items(spec["track"], colour))
    sx, sy, sw2, sh = (float(v) for v in spec["slot"])
    items.append(Rect(sx, sy, sw2, sh, Paint(fill="#ffffff", stroke=colour, stroke_width=0.4, dash=(2.0, 1.5)),
                      radius=1.5))
    for cx, cy in ((sx, sy), (sx + sw2, sy)):  # two slits hold the sheet's top corners
        d = 9.0 if cx == sx else -9.0
        items.append(Poly(((cx + d * 0.2, cy + 9.0), (cx + d, cy + 0.0 + 1.8)),
                          Paint(stroke="#000000", stroke_width=0.5), closed=False))
    items.append(_text(f"Slide a character sheet in here (cut the two corner slits)\n*{spec.get('title', '')} - "
                       f"{colour_name}*", sx + 10, sy + sh / 2 - 10, sw2 - 20, 20, MUTED, 9.0))
    ww, wh = (float(v) for v in spec["window"])
    r_num = float(spec["number_radius"])
    for d in spec["dials"]:
        cx, cy = (float(v) for v in d["centre"])
        # the window above the centre, where the wheel's number shows; cut it out along the dashes
        items.append(Rect(cx - ww / 2, cy - r_num - wh / 2, ww, wh,
                          Paint(fill="#ffffff", stroke="#000000", stroke_width=0.4, dash=(1.2, 0.8)), radius=0.6))
        items.append(Ellipse(cx, cy, float(spec["wheel_radius"]), float(spec["wheel_radius"]),
                             Paint(stroke=d["colour"], stroke_width=0.6)))
        items.append(Ellipse(cx, cy, 1.2, 1.2, Paint(fill="#000000")))  # the fastener's hole
        items.append(_text(f"**{d['name']}**", cx - 20, cy + 3.0, 40, 5.0, d["colour"], 8.0))
        items.append(_text("fastener", cx - 20, cy + 7.5, 40, 3.6, MUTED, 6.0))
    return items


def _track_items(track: Mapping[str, Any], colour: str) -> list[Item]:
    """A level track on the board: a box of labelled slots, each with a short cut line for the peg."""
    tx, ty, tw, th = (float(v) for v in track["box"])
    n = int(track["slots"])
    labels = list(track["labels"])
    sw = tw / n
    items: list[Item] = [Rect(tx, ty, tw, th, Paint(fill="#ffffff", stroke=colour, stroke_width=0.5), radius=1.0)]
    for i in range(n):
        x = tx + i * sw
        if i:
            items.append(Poly(((x, ty), (x, ty + th)), Paint(stroke=colour, stroke_width=0.3), closed=False))
        items.append(_text(f"**{labels[i]}**", x, ty + 0.8, sw, 4.6, "#231a12", 7.0))
        # the peg's slot: a short cut line
        items.append(Poly(((x + sw / 2 - 2.5, ty + th - 5), (x + sw / 2 + 2.5, ty + th - 5)),
                          Paint(stroke="#231a12", stroke_width=0.5, dash=(1.0, 0.8)), closed=False))
    items.append(_text("LEVEL", tx, ty + th + 0.2, 30, 4.0, colour, 6.0, align="left"))
    return items


def wheel_items(spec: Mapping[str, Any], dial: Mapping[str, Any], label: str) -> list[Item]:
    """A dial's paper wheel, centred at (R, R): numbers around it, each upright when turned under the window;
    turning the wheel clockwise raises the number in the window."""
    R = float(spec["wheel_radius"])
    r = float(spec["number_radius"])
    lo, hi = (int(v) for v in dial["numbers"])
    values = list(range(lo, hi + 1))
    step = 360.0 / len(values)
    items: list[Item] = [Ellipse(R, R, R + 1.0, R + 1.0, Paint(fill=dial["colour"])),  # 1 mm bleed past the cut
                         Ellipse(R, R, R, R, Paint(stroke="#000000", stroke_width=0.25, dash=(1.5, 1.0))),
                         Ellipse(R, R, r + 5.5, r + 5.5, Paint(fill="#ffffff")),
                         Ellipse(R, R, 1.2, 1.2, Paint(fill="#000000"))]
    for k, v in enumerate(values):
        t = _text(f"{v}", R - 4.5, R - r - 3.2, 9.0, 6.4, "#111111", 10.5, font="heavy")
        items.append(Group((t,), rotate=-k * step, cx=R, cy=R))
    items.append(_text(label, R - 14, R + 3, 28, 4.0, "#444444", 6.0))
    return items


BOARD_TOP = 7.0  # mm from the paper's top to a character board when its wheels share its page
WHEEL_GAP = 2.0  # mm between two wheels' bleed
WHEEL_BLEED = 1.0  # mm of colour past a wheel's cut circle
FOOT = 9.0  # mm at the foot of a page kept for its label


def wheels_under_board(spec: Mapping[str, Any], paper: tuple[float, float]) -> tuple[int, int] | None:
    """Whether a board's own wheels fit on its page, under it: (wheels per row, rows), or None."""
    h = float(spec["size"][1])
    d = 2 * float(spec["wheel_radius"]) + 2 * WHEEL_BLEED
    per_row = int((paper[0] - 16 + WHEEL_GAP) // (d + WHEEL_GAP))
    if per_row < 1:
        return None
    rows = -(-len(spec["dials"]) // per_row)
    if BOARD_TOP + h + 2 * WHEEL_GAP + rows * (d + WHEEL_GAP) - WHEEL_GAP > paper[1] - FOOT:
        return None
    return per_row, rows


def _wheel_at(c: Any, painter: PdfPainter, spec: Mapping[str, Any], dial: Mapping[str, Any], label: str,
              cx: float, cy: float) -> None:
    """Draw a wheel centred at (cx, cy) (mm from the page's lower-left corner)."""
    R = float(spec["wheel_radius"])
    c.saveState()
    c.translate((cx - R) * MM, (cy - R) * MM)
    painter.draw_items(wheel_items(spec, dial, label), 2 * R)
    c.restoreState()


def _wheel_rows(n: int, per_row: int, d: float, pw: float, top: float) -> list[tuple[float, float]]:
    """Centres of ``n`` wheels ``d`` mm across (bleed included), ``per_row`` a row, rows centred across the page,
    the first row's top at ``top`` (mm from the page's foot)."""
    out = []
    for k in range(n):
        r, col = divmod(k, per_row)
        in_row = min(per_row, n - r * per_row)
        left = (pw - (in_row * d + (in_row - 1) * WHEEL_GAP)) / 2
        out.append((left + col * (d + WHEEL_GAP) + d / 2, top - r * (d + WHEEL_GAP) - d / 2))
    return out


def dial_boards_pdf(game: Game, spec: Mapping[str, Any], paper_name: str) -> tuple[bytes, int]:
    """One page per board colour; each board's wheels under it on its page when they fit (Relic's four on A4 and
    on Letter), else every wheel on pages of their own after the boards, as many a page as fit."""
    paper = PAPERS[paper_name]
    pw, ph = paper
    _check_paper(spec, paper_name)
    w, h = (float(v) for v in spec["size"])
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * MM, ph * MM), f"{game.name} - character boards")
    painter = PdfPainter(c)
    colours = dict(spec["colours"])
    R = float(spec["wheel_radius"])
    d = 2 * R + 2 * WHEEL_BLEED
    under = wheels_under_board(spec, paper)
    pages = 0
    for name, col in colours.items():
        items = dial_board_items(spec, name, col, game.id)
        what = "cut along the outline; cut out the four windows and the two slits"
        if under is None:
            _centred_on_page(c, painter, items, w, h, paper)
            drawn = [((pw - w) / 2, (ph - h) / 2, (pw + w) / 2, (ph + h) / 2)]
        else:
            c.saveState()
            c.translate((pw - w) / 2 * MM, (ph - BOARD_TOP - h) * MM)
            painter.draw_items(items, h)
            c.restoreState()
            drawn = [((pw - w) / 2, ph - BOARD_TOP - h, (pw + w) / 2, ph - BOARD_TOP)]
            top = ph - BOARD_TOP - h - 2 * WHEEL_GAP
            for dial, (cx, cy) in zip(spec["dials"], _wheel_rows(len(spec["dials"]), under[0], d, pw, top)):
                _wheel_at(c, painter, spec, dial, f"{dial['name']} dial - {name} board", cx, cy)
                drawn.append((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2))
            what += "; cut out its wheels and fix each behind its window with a paper fastener"
        page_label(c, f"{game.name} - {spec.get('title', 'board')} ({name}): {what}", drawn, paper, size=NOTE_SIZE,
                   colour=NOTE_COLOUR)
        c.showPage()
        pages += 1
    if under is not None:
        c.save()
        return buf.getvalue(), pages
    # the wheels on pages of their own: every board needs one of each dial
    cols = max(1, int((pw - 16 + WHEEL_GAP) // (d + WHEEL_GAP)))
    rows = max(1, int((ph - 8 - FOOT + WHEEL_GAP) // (d + WHEEL_GAP)))
    wheels = [(dl, f"{dl['name']} dial - {name} board") for name in colours for dl in spec["dials"]]
    per = cols * rows
    for p0 in range(0, len(wheels), per):
        chunk = wheels[p0:p0 + per]
        drawn = []
        for (dl, label), (cx, cy) in zip(chunk, _wheel_rows(len(chunk), cols, d, pw, ph - 8)):
            _wheel_at(c, painter, spec, dl, label, cx, cy)
            drawn.append((cx - d / 2, cy - d / 2, cx + d / 2, cy + d / 2))
        page_label(c, f"{game.name} - dial wheels: cut each circle; push a paper fastener through the board's hole "
                   "and the wheel's centre, wheel behind the board", drawn, paper, size=NOTE_SIZE, colour=NOTE_COLOUR)
        c.showPage()
        pages += 1
    c.save()
    return buf.getvalue(), pages


def tokens_pdf(game: Game, sets: list[Mapping[str, Any]], paper_name: str, duplex: str = "long",
               back_offset: tuple[float, float] = (0.0, 0.0), layout: str = "duplex"
               ) -> tuple[bytes, int, dict[str, int]]:
    """Round tokens in a grid, each with 1 mm of bleed past a dashed circular cut guide. When a set is
    double-sided (``back_colour``), every page of fronts is followed by its page of backs, mirrored for duplex
    printing as the cards' backs are (``layout='gutterfold'``: fronts and backs on one page, across a fold)."""
    if any(s.get("back_colour") for s in sets):
        return _two_sided_tokens_pdf(game, sets, paper_name, duplex, back_offset, layout)
    paper = PAPERS[paper_name]
    tokens: list[tuple[float, str, str, str]] = []  # diameter, colour, icon, component
    counts: dict[str, int] = {}
    for s in sets:
        d = float(s["diameter"])
        if "colours" in s:
            for _name, col in dict(s["colours"]).items():
                tokens.extend((d, col, str(s.get("icon") or ""), str(s["component"]))
                              for _ in range(int(s["per_colour"])))
        else:
            tokens.extend((d, str(s["colour"]), str(s.get("icon") or ""), str(s["component"]))
                          for _ in range(int(s["count"])))
        counts[str(s["component"])] = sum(1 for t in tokens if t[3] == s["component"])
    try:
        pages = token_pages(paper, [t[0] for t in tokens], paper[1] - TOKEN_MARGIN, TOKEN_FOOT)
    except BuildError:
        raise BuildError(f"a token does not fit {paper_name} paper") from None
    buf = io.BytesIO()
    c = new_canvas(buf, (paper[0] * MM, paper[1] * MM), f"{game.name} - tokens")
    painter = PdfPainter(c)
    n = 0
    for pno, slots in enumerate(pages, start=1):
        items: list[Item] = []
        for (d, col, icon, _comp), sl in zip(tokens[n:n + len(slots)], slots):
            r = d / 2
            cx, cy = sl.x + r, paper[1] - (sl.y + r)  # y down from the page's top, as draw_items takes it
            items.append(Ellipse(cx, cy, r + TOKEN_BLEED, r + TOKEN_BLEED, Paint(fill=col)))
            items.append(Ellipse(cx, cy, r - 1.2, r - 1.2, Paint(stroke="#ffffff", stroke_width=0.35)))
            if icon:
                isz = d * 0.58
                items.append(IconPlace(icon, cx - isz / 2, cy - isz / 2, isz, "#ffffff", game.id))
            items.append(Ellipse(cx, cy, r, r, Paint(stroke="#000000", stroke_width=0.2, dash=(1.2, 0.8))))
        n += len(slots)
        painter.draw_items(items, paper[1])
        page_label(c, f"{game.name} - tokens: cut along the dashed circles (page {pno} of {len(pages)})",
                   _token_extents(slots), paper, size=NOTE_SIZE, colour=NOTE_COLOUR)
        c.showPage()
    c.save()
    return buf.getvalue(), len(pages), counts


TOKEN_MARGIN = 8.0  # mm from the paper's sides and top to a token's cut circle
TOKEN_FOOT = 10.0  # mm from the paper's foot (the page's label below)
TOKEN_GAP = 2.0  # mm between two tokens' cut circles: their 1 mm bleeds meet
TOKEN_BLEED = 1.0


def token_face(game: Game, d: float, colour: str, icon: str | None, text: str | None, text_colour: str,
               key: str) -> Scene:
    """One side of a round token, ``d`` mm across: a disc with 1 mm of bleed, a ring, its icon and/or its text
    (big, in the heavy face), and the dashed cut guide."""
    r = d / 2
    items: list[Item] = [Ellipse(r, r, r + TOKEN_BLEED, r + TOKEN_BLEED, Paint(fill=colour)),
                         Ellipse(r, r, r - 1.2, r - 1.2, Paint(stroke=text_colour, stroke_width=0.35))]
    if icon and text:
        isz = d * 0.3
        items.append(IconPlace(icon, r - isz / 2, d * 0.13, isz, text_colour, game.id))
        items.append(_text(text, 1.5, d * 0.42, d - 3.0, d * 0.42, text_colour, d * 0.95, font="heavy",
                           game=game.id))
    elif icon:
        isz = d * 0.58
        items.append(IconPlace(icon, r - isz / 2, r - isz / 2, isz, text_colour, game.id))
    elif text:
        items.append(_text(text, 1.5, d * 0.2, d - 3.0, d * 0.6, text_colour, d * 1.3, font="heavy", game=game.id))
    items.append(Ellipse(r, r, r, r, Paint(stroke="#000000", stroke_width=0.2, dash=(1.2, 0.8))))
    return Scene(d, d, TOKEN_BLEED, None, items, key=key)


def _token_faces(game: Game, sets: list[Mapping[str, Any]]) -> tuple[list[tuple[Scene, Scene | None, str]],
                                                                        dict[str, int]]:
    """Every physical token as (front, back or None, component), in the order of the sets."""
    out: list[tuple[Scene, Scene | None, str]] = []
    counts: dict[str, int] = {}
    for k, s in enumerate(sets):
        d = float(s["diameter"])
        comp = str(s["component"])
        colours = dict(s["colours"]) if "colours" in s else {"": str(s["colour"])}
        n = int(s["per_colour"]) if "colours" in s else int(s["count"])
        for name, col in colours.items():
            front = token_face(game, d, col, s.get("icon"), s.get("text"), str(s.get("text_colour", "#ffffff")),
                               f"{game.id}/token/{k}/{name}/front")
            back = None
            if s.get("back_colour"):
                back = token_face(game, d, str(s["back_colour"]), s.get("back_icon"), s.get("back_text"),
                                  str(s.get("back_text_colour", "#ffffff")), f"{game.id}/token/{k}/{name}/back")
            out.extend((front, back, comp) for _ in range(n))
            counts[comp] = counts.get(comp, 0) + n
    return out, counts


def token_riders(game: Game, sets: list[Mapping[str, Any]], paper_name: str) -> tuple[Riders, dict[str, int]]:
    """A game's tokens as riders on the empty rows of a sheet of cards (see deckpdf.Riders), and their counts by
    component: packed as on a page of tokens, from the top of the area down."""
    faces, counts = _token_faces(game, sets)
    diameters = [f.w for f, _, _ in faces]
    pw = PAPERS[paper_name][0]

    def pack(top: float, bottom: float) -> list[Slot]:
        try:
            pages = token_pages((pw, 0.0), diameters, top, bottom)
        except BuildError:
            return []
        return pages[0] if len(pages) == 1 else []

    return Riders([(f, b) for f, b, _ in faces], pack, "with the tokens"), counts


ROW_RISE = math.sqrt(3) / 2  # a honeycomb's rows are this many pitches apart


def _caps(d: float, pw: float) -> tuple[int, int]:
    """How many tokens ``d`` mm across a row holds between the page's margins: (a row, a row shifted half a
    pitch to nest in its hollows)."""
    pitch, width = d + TOKEN_GAP, pw - 2 * TOKEN_MARGIN
    return (max(0, math.floor((width - d) / pitch + 1e-9) + 1) if width >= d else 0,
            max(0, math.floor((width - d - pitch / 2) / pitch + 1e-9) + 1) if width >= d + pitch / 2 else 0)


def _row_counts(n: int, caps: tuple[int, int]) -> list[int]:
    """``n`` tokens in as few honeycomb rows as hold them (rows of caps[0] and caps[1] places in turn), as evenly
    as the rows' places allow: no row nearly empty, no token alone on a row when the others are full."""
    rows, room = 0, 0
    while room < n:
        room += caps[rows % 2]
        rows += 1
    counts = [0] * rows
    for _ in range(n):  # one token at a time to the emptiest row that has a place
        i = min((i for i in range(rows) if counts[i] < caps[i % 2]), key=lambda i: (counts[i], i))
        counts[i] += 1
    return counts


def _block_height(d: float, rows: int) -> float:
    return d + (rows - 1) * (d + TOKEN_GAP) * ROW_RISE if rows else 0.0


def _block(d: float, counts: list[int], pw: float, top: float) -> list[Slot]:
    """The slots of a honeycomb block of tokens ``d`` mm across, ``counts[i]`` on row i, its top at ``top`` (mm
    from the page's foot): each row on the middle places of its row of the lattice, the lattice centred across
    the page."""
    pitch = d + TOKEN_GAP
    caps = _caps(d, pw)
    extent = max((caps[0] - 1) * pitch, pitch / 2 + (caps[1] - 1) * pitch) + d
    left = (pw - extent) / 2
    slots = []
    for i, k in enumerate(counts):
        shift, cap = (pitch / 2, caps[1]) if i % 2 else (0.0, caps[0])
        first = (cap - k) // 2
        y = top - d - i * pitch * ROW_RISE
        slots += [Slot(left + shift + (first + j) * pitch, y, d, d) for j in range(k)]
    return slots


def _groups(diameters: list[float]) -> list[tuple[float, int]]:
    """The tokens as runs of one diameter, in order: (diameter, how many)."""
    out: list[tuple[float, int]] = []
    for d in diameters:
        if out and out[-1][0] == d:
            out[-1] = (d, out[-1][1] + 1)
        else:
            out.append((d, 1))
    return out


def _paginate(groups: list[tuple[float, int]], pw: float, height: float) -> list[list[tuple[float, list[int]]]]:
    """The tokens on as few pages as hold them, each page a list of blocks (diameter, tokens on each row) whose
    heights, with TOKEN_GAP between blocks, fit ``height``; a run of one diameter goes on to the next page where
    a page is full. BuildError for a token too big for the area."""
    pages: list[list[tuple[float, list[int]]]] = [[]]
    used = 0.0
    for d, n in groups:
        caps = _caps(d, pw)
        if caps[0] == 0 or d > height:
            raise BuildError(f"a token {d:g} mm across does not fit the paper")
        while n:
            gap = TOKEN_GAP if pages[-1] else 0.0
            rows = 0  # the most rows of this diameter that fit what is left of the page
            while rows < 10_000 and used + gap + _block_height(d, rows + 1) <= height + 1e-9:
                rows += 1
            if rows == 0:
                pages.append([])
                used = 0.0
                continue
            take = min(n, sum(caps[i % 2] for i in range(rows)))
            counts = _row_counts(take, caps)
            pages[-1].append((d, counts))
            used += gap + _block_height(d, len(counts))
            n -= take
    return [p for p in pages if p]


def _place_blocks(blocks: list[tuple[float, list[int]]], pw: float, top: float, bottom: float, spread: bool
                  ) -> list[Slot]:
    """A page's blocks from the top of the area [bottom, top] down, TOKEN_GAP apart; with ``spread``, the area's
    spare height shared out evenly above, between and below them."""
    heights = [_block_height(d, len(counts)) for d, counts in blocks]
    spare = max(0.0, (top - bottom) - sum(heights) - TOKEN_GAP * (len(blocks) - 1))
    step = spare / (len(blocks) + 1) if spread else 0.0
    y = top - step
    slots: list[Slot] = []
    for (d, counts), h in zip(blocks, heights):
        slots += _block(d, counts, pw, y)
        y -= h + TOKEN_GAP + step
    return slots


def token_pages(paper: tuple[float, float], diameters: list[float], top: float, bottom: float, spread: bool = True
                ) -> list[list[Slot]]:
    """Where the tokens go: each page's slots (trim boxes, PDF coordinates) in the area [bottom, top] (mm from the
    page's foot), in order, honeycombed in blocks of one diameter with rows as even as they can be. The tokens go
    on the fewest pages, spread evenly over them: the area's height is cut down as far as it can be without
    needing another page; with ``spread``, each page's blocks then share out its spare height. BuildError for a
    token too big for the area."""
    pw = paper[0]
    groups = _groups(diameters)
    height = top - bottom
    pages = _paginate(groups, pw, height)
    if len(pages) > 1:
        lo, hi = 0.0, height  # the lowest height that needs no more pages: a bisection to 0.5 mm
        while hi - lo > 0.5:
            mid = (lo + hi) / 2
            try:
                fits = len(_paginate(groups, pw, mid)) == len(pages)
            except BuildError:
                fits = False
            lo, hi = (lo, mid) if fits else (mid, hi)
        pages = _paginate(groups, pw, hi)
    return [_place_blocks(blocks, pw, top, bottom, spread) for blocks in pages]


def _token_extents(slots: list[Slot]) -> list[tuple[float, float, float, float]]:
    """What the tokens in ``slots`` cover of the page (their bleed included), for placing the page's label."""
    b = TOKEN_BLEED
    return [(s.x - b, s.y - b, s.x + s.w + b, s.y + s.h + b) for s in slots]


def _token_boxes(c: Any, slots: list[Slot]) -> None:
    x1, y1 = min(s.x for s in slots), min(s.y for s in slots)
    x2, y2 = max(s.x + s.w for s in slots), max(s.y + s.h for s in slots)
    c.setTrimBox([x1 * MM, y1 * MM, x2 * MM, y2 * MM])
    b = TOKEN_BLEED
    c.setBleedBox([(x1 - b) * MM, (y1 - b) * MM, (x2 + b) * MM, (y2 + b) * MM])


def _two_sided_tokens_pdf(game: Game, sets: list[Mapping[str, Any]], paper_name: str, duplex: str,
                          back_offset: tuple[float, float], layout: str) -> tuple[bytes, int, dict[str, int]]:
    paper = PAPERS[paper_name]
    pw, ph = paper
    faces, counts = _token_faces(game, sets)
    fold = layout == "gutterfold"
    gap = max(TOKEN_BLEED, 1.0) + 1.0
    top, bottom = ph - TOKEN_MARGIN, (ph / 2 + gap if fold else TOKEN_FOOT)
    try:
        pages = token_pages(paper, [f.w for f, _, _ in faces], top, bottom, spread=not fold)
    except BuildError:
        raise BuildError(f"a token does not fit {paper_name} paper") from None
    if fold:  # fronts close to the fold, so that each front and its back meet it at the same distance
        pages = [[Slot(s.x, s.y - (min(t.y for t in slots) - bottom), s.w, s.h) for s in slots] for slots in pages]
    flip = duplex if duplex in ("long", "short") else "long"
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * MM, ph * MM), f"{game.name} - tokens")
    painter = PdfPainter(c)
    b = TOKEN_BLEED
    n = 0
    out_pages = 0
    for pno, slots in enumerate(pages, start=1):
        chunk = faces[n:n + len(slots)]
        n += len(slots)
        for (front, _, _), s in zip(chunk, slots):
            painter.place(front, (s.x - b) * MM, (s.y - b) * MM)
        if fold:
            backs = [Slot(s.x, ph - s.y - s.h, s.w, s.h, 180) for s in slots]
        else:
            backs = [mirror_slot(s, paper, flip, back_offset) for s in slots]
            _token_boxes(c, slots)
            page_label(c, f"{game.name} - tokens, fronts (sheet {pno} of {len(pages)}): cut along the dashed circles "
                       "once the backs are printed", _token_extents(slots), paper, size=NOTE_SIZE, colour=NOTE_COLOUR)
            c.showPage()
            out_pages += 1
        for (front, back, _), s in zip(chunk, backs):
            painter.place(back or front, (s.x - b) * MM, (s.y - b) * MM, s.rotate)
        drawn = _token_extents(slots + backs if fold else backs)
        if fold:
            c.saveState()
            c.setStrokeColor(HexColor("#888888"))
            c.setLineWidth(0.5)
            c.setDash([4, 3])
            c.line(DRAW_EDGE * MM, ph / 2 * MM, (pw - DRAW_EDGE) * MM, ph / 2 * MM)
            c.restoreState()
            drawn.append((DRAW_EDGE, ph / 2, pw - DRAW_EDGE, ph / 2))
            _token_boxes(c, slots + backs)
            what = "fold on the dashed line, glue, then cut along the dashed circles"
        else:
            _token_boxes(c, backs)
            what = (f"backs ({flip}-edge duplex): print on the back of the fronts, then cut along the dashed "
                    "circles")
        page_label(c, f"{game.name} - tokens (sheet {pno} of {len(pages)}): {what}", drawn, paper, back=not fold,
                   size=NOTE_SIZE, colour=NOTE_COLOUR)
        c.showPage()
        out_pages += 1
    c.save()
    return buf.getvalue(), out_pages, counts
