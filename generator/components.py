"""Printed components described in ``layouts/<game>/components.toml`` (or ``components-layout.toml`` in a game
folder: a game's own ``components.toml`` may hold cards): boards with paper dials (cut-out wheels held behind
windows by a paper fastener) and round tokens with cut guides. The file is checked before use (shape, numbers
finite and in range, colours, icons, counts), with one error per problem at its line."""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wizprint.cards.lines import TomlLines
from wizprint.cards.model import Game
from wizprint.cards.schema import ListOf, Number, Rec, Str, Table, TableOf, Whole, check_data, schema_issues
from wizprint.errors import BuildError, DataErrors, FitError, Issue
from wizprint.resources import layouts_dir

from .fonts import family
from .icons import ICON_NAME, icon_problem
from .impose import PAPERS
from .layout import colour_problem, read_layout_file, shown_path
from .pdf import PdfPainter, new_canvas
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Text
from .textlayout import layout_text
from .units import MM

MAX_TOKENS = 10_000  # tokens of a game


def _icon(value: str) -> str | None:
    return None if ICON_NAME.match(value) else "an icon name is lower-case letters, digits and '-' (at most 64)"


def _labelled(track: Rec) -> str | None:
    return None if len(track.labels) == track.slots else f"labels has {len(track.labels)} items, slots is {track.slots}"


def _going_up(numbers: list[int]) -> str | None:
    lo, hi = numbers
    return None if 0 <= hi - lo < 100 else f"numbers [{lo}, {hi}] must go up, by at most 99"


def _one_way(t: Rec) -> str | None:
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
    "track": Table({"box": _BOX, "slots": Whole(1, 50), "labels": ListOf(Str(20), most=50)}, then=_labelled),
    "slot": _BOX, "wheel_radius": Number(5, 60), "number_radius": Number(1, 60), "window": _PAIR,
    "dials": ListOf(Table({"name": _LABEL, "colour": _COLOUR, "centre": _POINT,
                           "numbers": ListOf(Whole(-999, 999), most=2, least=2, then=_going_up)}),
                    most=20, least=1),
})
TOKEN_SET = Table({
    "component": _LABEL, "diameter": Number(5, 100), "icon": Str(64, then=_icon),
    "per_colour": (Whole(1, MAX_TOKENS), None), "colours": (_COLOURS, None),
    "count": (Whole(1, MAX_TOKENS), None), "colour": (_COLOUR, None),
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
        problem = icon_problem(t["icon"], game.id)
        if problem:
            issues.append(Issue(shown, lines.line(("tokens", i, "icon")), "", f"tokens[{i + 1}].icon: {problem}"))
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
    spec = comps.get("dial_boards")
    if spec is None:
        return []
    p = components_path(game)
    shown = shown_path(game, p)
    line = TomlLines(p.read_text(encoding="utf-8")).line(("dial_boards",))
    try:
        _check_paper(spec, paper)
        for name, col in dict(spec["colours"]).items():
            dial_board_items(spec, name, col, game.id)
        for d in spec["dials"]:
            wheel_items(spec, d, f"{d['name']} dial")
    except (FitError, BuildError) as exc:
        return [Issue(shown, line, "", f"dial_boards: {exc}")]
    return []


def _check_paper(spec: Mapping[str, Any], paper_name: str) -> None:
    paper = PAPERS[paper_name]
    w, h = (float(v) for v in spec["size"])
    if w > paper[0] - 10 or h > paper[1] - 10:
        raise BuildError(f"a {w:g} x {h:g} mm board does not fit {paper_name} paper")
    cell = 2 * float(spec["wheel_radius"]) + 8
    if (paper[0] - 16) // cell < 1 or (paper[1] - 24) // (cell + 4) < 1:
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


def dial_board_items(spec: Mapping[str, Any], colour_name: str, colour: str, game: str) -> list[Item]:
    """A board page: colour band, level track, the sheet slot with its slits, and the dial windows to cut out."""
    w, h = (float(v) for v in spec["size"])
    paper = str(spec.get("paper", "#f3ecdc"))
    items: list[Item] = [Rect(0, 0, w, h, Paint(fill=colour), radius=3.0),
                         Rect(2.5, 2.5, w - 5, h - 5, Paint(fill=paper), radius=2.0)]
    tx, ty, tw, th = (float(v) for v in spec["track"]["box"])
    n = int(spec["track"]["slots"])
    labels = list(spec["track"]["labels"])
    sw = tw / n
    items.append(Rect(tx, ty, tw, th, Paint(fill="#ffffff", stroke=colour, stroke_width=0.5), radius=1.0))
    for i in range(n):
        x = tx + i * sw
        if i:
            items.append(Poly(((x, ty), (x, ty + th)), Paint(stroke=colour, stroke_width=0.3), closed=False))
        items.append(_text(f"**{labels[i]}**", x, ty + 0.8, sw, 4.6, "#231a12", 7.0))
        # the peg's slot: a short cut line
        items.append(Poly(((x + sw / 2 - 2.5, ty + th - 5), (x + sw / 2 + 2.5, ty + th - 5)),
                          Paint(stroke="#231a12", stroke_width=0.5, dash=(1.0, 0.8)), closed=False))
    items.append(_text("LEVEL", tx, ty + th + 0.2, 30, 4.0, colour, 6.0, align="left"))
    sx, sy, sw2, sh = (float(v) for v in spec["slot"])
    items.append(Rect(sx, sy, sw2, sh, Paint(fill="#ffffff", stroke=colour, stroke_width=0.4, dash=(2.0, 1.5)),
                      radius=1.5))
    for cx, cy in ((sx, sy), (sx + sw2, sy)):  # two slits hold the sheet's top corners
        d = 9.0 if cx == sx else -9.0
        items.append(Poly(((cx + d * 0.2, cy + 9.0), (cx + d, cy + 0.0 + 1.8)),
                          Paint(stroke="#000000", stroke_width=0.5), closed=False))
    items.append(_text(f"Slide a character sheet in here (cut the two corner slits)\n*{spec.get('title', '')} - "
                       f"{colour_name}*", sx + 10, sy + sh / 2 - 10, sw2 - 20, 20, "#8a7a5a", 9.0))
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
        items.append(_text("fastener", cx - 20, cy + 7.5, 40, 3.6, "#8a7a5a", 5.5))
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
    items.append(_text(label, R - 14, R + 3, 28, 4.0, "#444444", 5.5))
    return items


def dial_boards_pdf(game: Game, spec: Mapping[str, Any], paper_name: str) -> tuple[bytes, int]:
    paper = PAPERS[paper_name]
    _check_paper(spec, paper_name)
    w, h = (float(v) for v in spec["size"])
    buf = io.BytesIO()
    c = new_canvas(buf, (paper[0] * MM, paper[1] * MM), f"{game.name} - character boards")
    painter = PdfPainter(c)
    colours = dict(spec["colours"])
    pages = 0
    for name, col in colours.items():
        _centred_on_page(c, painter, dial_board_items(spec, name, col, game.id), w, h, paper)
        c.setFont(family("text").face(), 7)
        c.drawString(8 * MM, 5 * MM, f"{game.name} - {spec.get('title', 'board')} ({name}): cut along the outline; "
                                     "cut out the four windows and the two slits")
        c.showPage()
        pages += 1
    # the wheels: every board needs one of each dial
    R = float(spec["wheel_radius"])
    cell = 2 * R + 8
    cols = int((paper[0] - 16) // cell)
    rows = int((paper[1] - 24) // (cell + 4))
    wheels = [(d, f"{d['name']} dial - {name} board") for name in colours for d in spec["dials"]]
    per = cols * rows
    for p0 in range(0, len(wheels), per):
        chunk = wheels[p0:p0 + per]
        gx = (paper[0] - cols * cell) / 2
        for k, (d, label) in enumerate(chunk):
            r_, c_ = divmod(k, cols)
            x = gx + c_ * cell + 4
            ytop = 14 + r_ * (cell + 4)
            c.saveState()
            c.translate(x * MM, (paper[1] - ytop - 2 * R) * MM)
            painter.draw_items(wheel_items(spec, d, label), 2 * R)
            c.restoreState()
        c.setFont(family("text").face(), 7)
        c.drawString(8 * MM, 5 * MM, f"{game.name} - dial wheels: cut each circle; push a paper fastener through the "
                                     "board's hole and the wheel's centre, wheel behind the board")
        c.showPage()
        pages += 1
    c.save()
    return buf.getvalue(), pages


def tokens_pdf(game: Game, sets: list[Mapping[str, Any]], paper_name: str) -> tuple[bytes, int, dict[str, int]]:
    """Round tokens in a grid, each with 1 mm of bleed past a dashed circular cut guide."""
    paper = PAPERS[paper_name]
    tokens: list[tuple[float, str, str, str]] = []  # diameter, colour, icon, component
    counts: dict[str, int] = {}
    for s in sets:
        d = float(s["diameter"])
        if "colours" in s:
            for _name, col in dict(s["colours"]).items():
                tokens.extend((d, col, str(s["icon"]), str(s["component"])) for _ in range(int(s["per_colour"])))
        else:
            tokens.extend((d, str(s["colour"]), str(s["icon"]), str(s["component"])) for _ in range(int(s["count"])))
        counts[str(s["component"])] = sum(1 for t in tokens if t[3] == s["component"])
    buf = io.BytesIO()
    c = new_canvas(buf, (paper[0] * MM, paper[1] * MM), f"{game.name} - tokens")
    painter = PdfPainter(c)
    margin, gap = 10.0, 3.0
    pages = 0
    i = 0
    while i < len(tokens):
        y = margin
        items: list[Item] = []
        while i < len(tokens):
            d = tokens[i][0]
            row_h = d + gap
            if y + d > paper[1] - margin:
                break
            x = margin
            while i < len(tokens) and tokens[i][0] == d and x + d <= paper[0] - margin:
                _, col, icon, _comp = tokens[i]
                r = d / 2
                cx, cy = x + r, y + r
                items.append(Ellipse(cx, cy, r + 1.0, r + 1.0, Paint(fill=col)))
                items.append(Ellipse(cx, cy, r - 1.2, r - 1.2, Paint(stroke="#ffffff", stroke_width=0.35)))
                isz = d * 0.58
                items.append(IconPlace(icon, cx - isz / 2, cy - isz / 2, isz, "#ffffff", game.id))
                items.append(Ellipse(cx, cy, r, r, Paint(stroke="#000000", stroke_width=0.2, dash=(1.2, 0.8))))
                x += d + gap
                i += 1
            y += row_h
        if not items:  # a token wider or taller than the page: stop, never loop for ever
            raise BuildError(f"a token {tokens[i][0]:g} mm across does not fit {paper_name} paper")
        painter.draw_items(items, paper[1])
        c.setFont(family("text").face(), 7)
        c.drawString(margin * MM, 5 * MM, f"{game.name} - tokens: cut along the dashed circles "
                                          f"(page {pages + 1})")
        c.showPage()
        pages += 1
    c.save()
    return buf.getvalue(), pages, counts

