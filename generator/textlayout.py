"""Lay out rich text in a box: greedy line breaking (never between a word and an inline icon next to it), inline
icons, shrink to fit.

Sizes are in points, positions in millimetres relative to the top-left of the box. A text that does not fit at
``min_size`` raises :class:`~wizprint.errors.FitError`; the caller adds which card it was.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from wizprint.cards.markup import Frag, paragraphs
from wizprint.errors import FitError

from .fonts import Family, ascent, descent, family, width1
from .units import PT

ICON_EM = 1.12  # an inline icon's width and height, in ems
ICON_PAD = 0.06  # space each side of an inline icon, in ems
MAX_MARKUP = 100_000  # characters of one text
MAX_SIZE = 1000.0  # points: the largest text size (the shrinking loop takes at most MAX_SIZE / STEP steps)
STEP = 0.25  # points: how much a text shrinks at each try


class Run(NamedTuple):
    """Text or an icon placed on a line: ``x`` from the box's left, ``baseline`` from its top (mm). (A named
    tuple: a game's faces have thousands, made faster so.)"""

    x: float
    baseline: float
    text: str
    face: str
    size: float
    bold: bool = False
    italic: bool = False
    icon: str = ""
    w: float = 0.0  # width in mm


@dataclass
class TextLayout:
    size: float
    runs: list[Run] = field(default_factory=list)
    height: float = 0.0  # mm, of the laid-out text
    lines: int = 0
    family: str = "text"
    align: str = "left"  # how the lines sit in the box: left, center or right


@dataclass(frozen=True)
class _Word:
    frags: tuple[Frag, ...]
    w1: float  # width at size 1, in points
    glue: bool = False  # the space after this word does not break (a word and its inline icon stay on one line)
    icon: bool = False  # the word is an inline icon (with punctuation only)


def _icon_word(frags: list[Frag]) -> bool:
    """A word that is an inline icon, alone or with punctuation only (``:life:``, ``(:willpower:``, ``:d6:.``)."""
    return any(f.icon for f in frags) and not any(ch.isalnum() for f in frags for ch in f.text)


def _frag_w1(f: Frag, fam: Family) -> float:
    if f.icon:
        return ICON_EM + 2 * ICON_PAD
    return width1(f.text, fam.face(f.bold, f.italic))


def _prepare(markup: str, fam_name: str) -> tuple[tuple[_Word, ...], ...]:
    fam = family(fam_name)
    out = []
    for para in paragraphs(markup):
        icons = [_icon_word(w) for w in para]
        out.append(tuple(_Word(tuple(w), sum(_frag_w1(f, fam) for f in w),
                               glue=i + 1 < len(para) and (icons[i] or icons[i + 1]), icon=icons[i])
                         for i, w in enumerate(para)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _measured(markup: str, fam_name: str) -> tuple[tuple[tuple[_Word, ...], ...], float, list[float]]:
    """_prepare's words, the widest word and each paragraph's words end to end, at size 1, worked out once for a
    text (the caller only reads them)."""
    paras = _prepare(markup, fam_name)
    widest = max((wd.w1 for para in paras for wd in para), default=0.0)
    return paras, widest, [sum(wd.w1 for wd in para) for para in paras]


def _units(para: tuple[_Word, ...], width_pt: float, size: float, space: float) -> list[list[_Word]]:
    """The words of a paragraph in unbreakable units: a word and the inline icons glued to it either side. A unit
    too wide for a line keeps each icon with the word after it only; a part still too wide falls apart into its
    words (which then break as usual)."""
    units: list[list[_Word]] = []
    cur: list[_Word] = []
    for w in para:
        cur.append(w)
        if not w.glue:
            units.append(cur)
            cur = []
    if cur:
        units.append(cur)

    def fits(u: list[_Word]) -> bool:
        return len(u) < 2 or sum(w.w1 for w in u) * size + space * (len(u) - 1) <= width_pt + 1e-6

    out: list[list[_Word]] = []
    for u in units:
        if fits(u):
            out.append(u)
            continue
        # too wide for one line: an icon keeps only the word after it ("wardens" | "(:cunning: Cunning 9)")
        parts: list[list[_Word]] = [[]]
        for w in u:
            if parts[-1] and w.icon:
                parts.append([])
            parts[-1].append(w)
        for part in parts:
            if fits(part):
                out.append(part)
            else:
                out.extend([w] for w in part)
    return out


def _break(paras: tuple[tuple[_Word, ...], ...], width_pt: float, size: float, space1: float
           ) -> list[list[list[_Word]]] | None:
    """Greedy line breaking at ``size``; None when a single word is wider than the box."""
    out = []
    space = space1 * size
    for para in paras:
        lines: list[list[_Word]] = [[]]
        cur = 0.0
        for unit in _units(para, width_pt, size, space):
            # one word: sum() of its width (0 + w1) is w1, and adding space * 0 (+0.0) to it changes nothing
            ww = unit[0].w1 * size if len(unit) == 1 else sum(w.w1 for w in unit) * size + space * (len(unit) - 1)
            if ww > width_pt + 1e-6:
                return None
            if lines[-1] and cur + space + ww > width_pt + 1e-6:
                lines.append(list(unit))
                cur = ww
            else:
                cur += (space if lines[-1] else 0.0) + ww
                lines[-1].extend(unit)
        out.append(lines)
    return out


def layout_text(markup: str, w: float, h: float, *, family_name: str = "text", size: float = 9.0,
                min_size: float | None = None, leading: float = 1.2, para_gap: float = 0.35, align: str = "left",
                valign: str = "top", max_lines: int | None = None) -> TextLayout:
    """Fit ``markup`` in a ``w`` × ``h`` mm box, shrinking from ``size`` to ``min_size`` pt in 0.25 pt steps.

    Every number must be finite and in range (a :class:`FitError` otherwise), so the shrinking always ends: at
    most ``MAX_SIZE / STEP`` tries, and tries that cannot fit (by a cheap lower bound on the height) are skipped
    without breaking lines."""
    _check_numbers(markup, w, h, size, min_size, leading, para_gap, max_lines)
    fam = family(family_name)
    paras, widest, para_w1 = _measured(markup, family_name)
    if not any(paras):
        return TextLayout(size=size, family=family_name)
    face = fam.face()
    asc, desc = ascent(face), descent(face)
    space1 = width1(" ", face)
    width_pt, height_pt = w / PT, h / PT
    floor = size if min_size is None else min_size
    s = size
    while True:
        last = s - STEP < floor - 1e-9
        if not last and _cannot_fit(s, widest, para_w1, width_pt, height_pt, asc, desc, leading, para_gap,
                                    max_lines):
            s -= STEP
            continue
        broken = _break(paras, width_pt, s, space1)
        if broken is not None and max_lines is not None and sum(len(p) for p in broken) > max_lines:
            broken_ok = False
        else:
            broken_ok = broken is not None
        if broken is not None and broken_ok:
            nlines = sum(len(p) for p in broken)
            total = (asc + desc) * s + (nlines - 1) * leading * s + (len(broken) - 1) * para_gap * s
            if total <= height_pt + 1e-6:
                return _place(broken, fam, s, asc, desc, leading, para_gap, space1, width_pt, height_pt, total,
                              align, valign, family_name)
        if last:
            why = ("a word is wider than the box" if broken is None else
                   f"it needs more than {max_lines} line{'s' if max_lines != 1 else ''}" if not broken_ok else
                   "the text is too long for the box")
            raise FitError(f"text does not fit its {w:.1f}x{h:.1f} mm box even at {floor:g} pt ({why})")
        s -= STEP


def _check_numbers(markup: str, w: float, h: float, size: float, min_size: float | None, leading: float,
                   para_gap: float, max_lines: int | None) -> None:
    """Numbers that would make fitting meaningless or endless are a :class:`FitError`."""
    if (len(markup) <= MAX_MARKUP and type(w) is float and type(h) is float and type(size) is float
            and type(leading) is float and type(para_gap) is float and 0.0 <= w <= 10_000.0
            and 0.0 <= h <= 10_000.0 and 0.1 <= size <= MAX_SIZE and 0.0 <= leading <= 100.0
            and 0.0 <= para_gap <= 100.0 and (min_size is None or (type(min_size) is float and
                                                                 0.1 <= min_size <= MAX_SIZE))
            and (max_lines is None or (type(max_lines) is int and max_lines >= 1))):
        return  # the usual case, decided at once: finite numbers in range (the checks below pass them all)
    if len(markup) > MAX_MARKUP:
        raise FitError(f"the text is {len(markup):,} characters long, more than {MAX_MARKUP:,}")
    for name, v, lo, hi in (("box width", w, 0.0, 10_000.0), ("box height", h, 0.0, 10_000.0),
                            ("text size", size, 0.1, MAX_SIZE), ("leading", leading, 0.0, 100.0),
                            ("paragraph gap", para_gap, 0.0, 100.0)):
        if not (isinstance(v, (int, float)) and math.isfinite(v) and lo <= v <= hi):
            raise FitError(f"{name} {v!r} must be a finite number from {lo:g} to {hi:g}")
    if min_size is not None and not (isinstance(min_size, (int, float)) and math.isfinite(min_size)
                                     and 0.1 <= min_size <= MAX_SIZE):
        raise FitError(f"minimum text size {min_size!r} must be a finite number from 0.1 to {MAX_SIZE:g}")
    if max_lines is not None and not (isinstance(max_lines, int) and max_lines >= 1):
        raise FitError(f"max_lines {max_lines!r} must be a whole number of at least 1")


def _cannot_fit(s: float, widest: float, para_w1: list[float], width_pt: float, height_pt: float, asc: float,
                desc: float, leading: float, para_gap: float, max_lines: int | None) -> bool:
    """True when the text surely does not fit at size ``s``: a word is wider than the box, or even lines filled
    to the brim (no spaces) need more height or lines than there are. Never true when it might fit."""
    if widest * s > width_pt + 1e-6:
        return True
    if width_pt <= 0:
        return False
    nlines = sum(max(1, math.ceil(pw * s / (width_pt + 1e-6) - 1e-9)) for pw in para_w1)
    if max_lines is not None and nlines > max_lines:
        return True
    least = (asc + desc) * s + (nlines - 1) * leading * s + (len(para_w1) - 1) * para_gap * s
    return least > height_pt + 1e-6


def _place(broken: list[list[list[_Word]]], fam: Family, s: float, asc: float, desc: float, leading: float,
           para_gap: float, space1: float, width_pt: float, height_pt: float, total: float, align: str, valign: str,
           family_name: str) -> TextLayout:
    top = 0.0
    if valign == "middle":
        top = (height_pt - total) / 2
    elif valign == "bottom":
        top = height_pt - total
    # The runs as _merge would join them, joined here as they are placed: the same numbers, worked out in the same
    # order, without making the runs that _merge would join (see _merge, which does the same on any list of runs).
    runs: list[Run] = []
    baseline = top + asc * s
    nlines = 0
    # the run being extended: x, baseline, texts, face, size, bold, italic, width (icon runs are never extended)
    cur: list[str] = []
    cx = cb = cw = 0.0
    cface = ""
    cbold = citalic = False
    spaces: dict[str, float] = {}
    for pi, para in enumerate(broken):
        if pi:
            baseline += para_gap * s
        for li, line in enumerate(para):
            if li or pi:
                baseline += leading * s
            nlines += 1
            lw = sum(w.w1 for w in line) * s + space1 * s * (len(line) - 1)
            x = 0.0
            if align == "center":
                x = (width_pt - lw) / 2
            elif align == "right":
                x = width_pt - lw
            bpt = baseline * PT
            for wi, word in enumerate(line):
                if wi:
                    x += space1 * s
                for f in word.frags:
                    if f.icon:
                        if cur:
                            runs.append(Run(cx, cb, "".join(cur), cface, s, cbold, citalic, "", cw))
                            cur = []
                        isz = ICON_EM * s
                        runs.append(Run(x=(x + ICON_PAD * s) * PT, baseline=bpt, text="", face="", size=isz,
                                        icon=f.icon, w=isz * PT, bold=f.bold, italic=f.italic))
                        x += (ICON_EM + 2 * ICON_PAD) * s
                        continue
                    face = fam.face(f.bold, f.italic)
                    fw = width1(f.text, face) * s
                    rx, rw = x * PT, fw * PT
                    x += fw
                    if cur and cface == face and cb == bpt:
                        gap = rx - (cx + cw)
                        if abs(gap) < 1e-6:
                            cur.append(f.text)
                            cw = cw + rw
                            continue
                        space_w = spaces.get(face)
                        if space_w is None:
                            space_w = spaces[face] = width1(" ", face) * s * PT
                        if abs(gap - space_w) < 1e-3:
                            cur.append(" ")
                            cur.append(f.text)
                            cw = cw + gap + rw
                            continue
                    if cur:
                        runs.append(Run(cx, cb, "".join(cur), cface, s, cbold, citalic, "", cw))
                    cur = [f.text]
                    cx, cb, cface, cbold, citalic, cw = rx, bpt, face, f.bold, f.italic, rw
    if cur:
        runs.append(Run(cx, cb, "".join(cur), cface, s, cbold, citalic, "", cw))
    return TextLayout(size=s, runs=runs, height=total * PT, lines=nlines, family=family_name, align=align)


def _merge(runs: list[Run]) -> list[Run]:
    """Join consecutive text runs of one face on one line (fewer PDF/SVG operators)."""
    out: list[Run] = []
    for r in runs:
        if out and not r.icon and not out[-1].icon and out[-1].face == r.face and out[-1].baseline == r.baseline:
            prev = out[-1]
            gap = r.x - (prev.x + prev.w)
            space_w = width1(" ", r.face) * r.size * PT
            if abs(gap) < 1e-6:
                out[-1] = Run(prev.x, prev.baseline, prev.text + r.text, prev.face, prev.size, prev.bold, prev.italic,
                              "", prev.w + r.w)
                continue
            if abs(gap - space_w) < 1e-3:
                out[-1] = Run(prev.x, prev.baseline, prev.text + " " + r.text, prev.face, prev.size, prev.bold,
                              prev.italic, "", prev.w + gap + r.w)
                continue
        out.append(r)
    return out


def icon_box(run: Run) -> tuple[float, float, float]:
    """(x, y_top, size) of an inline icon, in mm, relative to the text box."""
    size_mm = run.w
    # the icon sits on the line: its bottom a little below the baseline, like a capital with a descender
    y_top = run.baseline - size_mm * 0.80
    return run.x, y_top, size_mm
