"""A fast reader for the plain SVG files that most icons are: ``<svg viewBox="0 0 W H">`` holding paths, circles,
ellipses, rectangles, lines, polygons and polylines (in groups or not) painted by presentation attributes.

It gives the same shapes as the general reader (svgelements, in :mod:`.icons`): the same segments (arcs as the
same number of cubic curves), fills, strokes and fill rules. Anything outside that subset (a transform, a style
sheet or ``style`` attribute, opacity, units, a ``<use>``, an entity, a colour it does not know...) makes
:func:`read_plain` return None, and the caller falls back to the general reader; so this is a shortcut, never a
second meaning of a file. Reading Relic's 291 icons this way takes a tenth of the time.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from .iconshapes import CURRENT, Icon, Seg, Shape

SVG_NS = "{http://www.w3.org/2000/svg}"
_SHAPES = {"path", "circle", "ellipse", "rect", "line", "polygon", "polyline"}
_PAINT = {"fill", "stroke", "stroke-width", "fill-rule"}  # inherited from groups
_IGNORED = {"id", "stroke-linejoin", "stroke-linecap", "stroke-miterlimit"}  # the back ends draw round joins and caps
_GEOMETRY = {"d", "cx", "cy", "r", "rx", "ry", "x", "y", "width", "height", "points", "x1", "y1", "x2", "y2"}
_ROOT = {"viewBox", "version", "id", "fill", "stroke", "stroke-width", "fill-rule"}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PLAIN_NUMBER = re.compile(r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$")
_HEX6 = re.compile(r"^#[0-9a-fA-F]{6}$")
_HEX3 = re.compile(r"^#[0-9a-fA-F]{3}$")
_NAMED = {"black": "#000000", "white": "#ffffff"}
_ARC_STEP = math.tau * 0.1  # the general reader's arc approximation: a cubic curve for each 36 degrees or part


class _NotPlain(Exception):
    """The file is outside the subset: read it with the general reader."""


def read_plain(data: bytes, name: str) -> Icon | None:
    """The icon in ``data``, or None when the file is outside the plain subset (or not well-formed: the general
    reader then reports the problem in its own words)."""
    if b"<!" in data.replace(b"<!--", b""):  # a DOCTYPE, an entity or CDATA: the general reader decides
        return None
    try:
        root = ET.fromstring(data)
        return _icon(root, name)
    except (_NotPlain, ET.ParseError, ValueError, OverflowError, ZeroDivisionError):
        return None


def _icon(root: ET.Element, name: str) -> Icon:
    if root.tag != SVG_NS + "svg" or set(root.attrib) - _ROOT:
        raise _NotPlain
    vb = [float(v) for v in root.attrib.get("viewBox", "").replace(",", " ").split()]
    if len(vb) != 4 or vb[0] != 0 or vb[1] != 0 or not (vb[2] > 0 and vb[3] > 0):
        raise _NotPlain
    shapes = list(_children(root, _paint({}, root)))
    return Icon(name, tuple(shapes), vb[2])


def _paint(inherited: dict[str, str], el: ET.Element) -> dict[str, str]:
    own = {k: v for k, v in el.attrib.items() if k in _PAINT}
    return {**inherited, **own} if own else inherited


def _children(parent: ET.Element, paint: dict[str, str]) -> Iterator[Shape]:
    for el in parent:
        if not isinstance(el.tag, str) or not el.tag.startswith(SVG_NS):
            raise _NotPlain
        tag = el.tag[len(SVG_NS):]
        if tag in ("title", "desc"):
            continue
        if tag == "g":
            if set(el.attrib) - _PAINT - _IGNORED:
                raise _NotPlain
            yield from _children(el, _paint(paint, el))
            continue
        if tag not in _SHAPES or set(el.attrib) - _PAINT - _IGNORED - _GEOMETRY or len(el):
            raise _NotPlain
        segs = _segments(tag, el.attrib)
        if segs:
            yield _shape(segs, _paint(paint, el))


def _colour(value: str | None) -> str | None:
    """A paint as the general reader gives it: "#rrggbb" (lower case), CURRENT or None; else not plain."""
    if value is None:
        return None
    v = value.strip()
    if v == "none":
        return None
    if v == CURRENT:
        return CURRENT
    if _HEX6.match(v):
        return v.lower()
    if _HEX3.match(v):
        return "#" + "".join(ch * 2 for ch in v[1:]).lower()
    if v in _NAMED:
        return _NAMED[v]
    raise _NotPlain


def _shape(segs: list[Seg], paint: dict[str, str]) -> Shape:
    raw_fill = paint.get("fill")
    fill = "#000000" if raw_fill is None else _colour(raw_fill)  # SVG's default fill is black
    stroke = _colour(paint.get("stroke"))
    sw = _number(paint.get("stroke-width", "1")) if stroke else 0.0
    rule = paint.get("fill-rule", "nonzero")
    if rule not in ("nonzero", "evenodd"):
        raise _NotPlain
    return Shape(tuple(segs), fill, stroke, sw, rule == "evenodd")


def _number(value: str | None) -> float:
    if value is None or not _PLAIN_NUMBER.match(value):
        raise _NotPlain
    return float(value)


def _segments(tag: str, a: dict[str, str]) -> list[Seg]:
    if tag == "path":
        return _path(a.get("d", ""))
    if tag in ("circle", "ellipse"):
        cx, cy = _number(a.get("cx", "0")), _number(a.get("cy", "0"))
        if tag == "circle":
            rx = ry = _number(a.get("r"))
        else:
            rx, ry = _number(a.get("rx")), _number(a.get("ry"))
        if not (rx > 0 and ry > 0):
            raise _NotPlain
        return _ellipse(cx, cy, rx, ry)
    if tag == "rect":
        return _rect(a)
    if tag == "line":
        x1, y1, x2, y2 = (_number(a.get(k, "0")) for k in ("x1", "y1", "x2", "y2"))
        return [Seg("M", ((x1, y1),)), Seg("L", ((x2, y2),))]
    nums = [float(v) for v in _NUMBER.findall(a.get("points", ""))]
    if len(nums) < 4 or len(nums) % 2 or _NUMBER.sub("", a.get("points", "")).strip(" ,\t\r\n"):
        raise _NotPlain
    pts = list(zip(nums[::2], nums[1::2]))
    segs = [Seg("M", (pts[0],))] + [Seg("L", (p,)) for p in pts[1:]]
    return [*segs, Seg("Z", ())] if tag == "polygon" else segs


def _rect(a: dict[str, str]) -> list[Seg]:
    x, y = _number(a.get("x", "0")), _number(a.get("y", "0"))
    w, h = _number(a.get("width")), _number(a.get("height"))
    if not (w > 0 and h > 0):
        raise _NotPlain
    rx_s, ry_s = a.get("rx"), a.get("ry")
    rx = _number(rx_s) if rx_s is not None else None
    ry = _number(ry_s) if ry_s is not None else None
    if rx is None and ry is None:
        return [Seg("M", ((x, y),)), Seg("L", ((x + w, y),)), Seg("L", ((x + w, y + h),)), Seg("L", ((x, y + h),)),
                Seg("Z", ())]
    rx = ry if rx is None else rx
    ry = rx if ry is None else ry
    assert rx is not None and ry is not None
    if not (rx > 0 and ry > 0) or rx > w / 2 or ry > h / 2:
        raise _NotPlain  # zero or clamped corners: the general reader's business
    segs = [Seg("M", ((x + rx, y),)), Seg("L", ((x + w - rx, y),))]
    segs += _arc_curves(x + w - rx, y + ry, rx, ry, -math.pi / 2, math.pi / 2, (x + w, y + ry))
    segs.append(Seg("L", ((x + w, y + h - ry),)))
    segs += _arc_curves(x + w - rx, y + h - ry, rx, ry, 0.0, math.pi / 2, (x + w - rx, y + h))
    segs.append(Seg("L", ((x + rx, y + h),)))
    segs += _arc_curves(x + rx, y + h - ry, rx, ry, math.pi / 2, math.pi / 2, (x, y + h - ry))
    segs.append(Seg("L", ((x, y + ry),)))
    segs += _arc_curves(x + rx, y + ry, rx, ry, math.pi, math.pi / 2, (x + rx, y))
    segs.append(Seg("Z", ()))
    return segs


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> list[Seg]:
    """Four quarter arcs from the rightmost point, clockwise on the page (y down), then a close."""
    segs = [Seg("M", ((cx + rx, cy),))]
    ends = [(cx, cy + ry), (cx - rx, cy), (cx, cy - ry), (cx + rx, cy)]
    for k, end in enumerate(ends):
        segs += _arc_curves(cx, cy, rx, ry, k * math.pi / 2, math.pi / 2, end)
    segs.append(Seg("Z", ()))
    return segs


def _arc_curves(cx: float, cy: float, rx: float, ry: float, t0: float, sweep: float, end: tuple[float, float],
                theta: float = 0.0) -> list[Seg]:
    """An elliptical arc (centre, radii, rotation ``theta``; from parameter ``t0`` through ``sweep`` radians) as
    cubic curves of at most 36 degrees each, ending exactly at ``end``."""
    n = math.ceil(abs(sweep) / _ARC_STEP)
    if n == 0:
        return []
    step = sweep / n
    alpha = math.sin(step) * (math.sqrt(4 + 3 * math.tan(step / 2) ** 2) - 1) / 3.0
    cos_t, sin_t = math.cos(theta), math.sin(theta)
    out: list[Seg] = []
    t = t0
    p0 = (cx + rx * math.cos(t) * cos_t - ry * math.sin(t) * sin_t,
          cy + rx * math.cos(t) * sin_t + ry * math.sin(t) * cos_t)
    for i in range(n):
        t1 = t + step
        d0 = (-rx * cos_t * math.sin(t) - ry * sin_t * math.cos(t),
              -rx * sin_t * math.sin(t) + ry * cos_t * math.cos(t))
        d1 = (-rx * cos_t * math.sin(t1) - ry * sin_t * math.cos(t1),
              -rx * sin_t * math.sin(t1) + ry * cos_t * math.cos(t1))
        p1 = end if i == n - 1 else (cx + rx * math.cos(t1) * cos_t - ry * math.sin(t1) * sin_t,
                                     cy + rx * math.cos(t1) * sin_t + ry * math.sin(t1) * cos_t)
        out.append(Seg("C", ((p0[0] + alpha * d0[0], p0[1] + alpha * d0[1]),
                             (p1[0] - alpha * d1[0], p1[1] - alpha * d1[1]), p1)))
        p0, t = p1, t1
    return out


def _svg_arc(p0: tuple[float, float], rx: float, ry: float, rotation: float, large: bool, sweep_flag: bool,
             p1: tuple[float, float]) -> list[Seg]:
    """An SVG arc command as cubic curves (SVG implementation notes, F.6.5 and F.6.6)."""
    if p0 == p1:
        return []
    if rx <= 0 or ry <= 0:
        raise _NotPlain  # a line by the SVG rules, left out by svgelements: the general reader decides
    # the general reader's arithmetic, step by step (an arc whose radius barely reaches across is sensitive to the
    # order of the operations), so that both readers make the same number of curves
    phi = math.radians(rotation)
    cosr, sinr = math.cos(phi), math.sin(phi)
    dx, dy = (p0[0] - p1[0]) / 2, (p0[1] - p1[1]) / 2
    x1, y1 = cosr * dx + sinr * dy, -sinr * dx + cosr * dy
    x1_sq, y1_sq = x1 * x1, y1 * y1
    rx_sq, ry_sq = rx * rx, ry * ry
    check = x1_sq / rx_sq + y1_sq / ry_sq
    if check > 1:
        rx, ry = rx * math.sqrt(check), ry * math.sqrt(check)
        rx_sq, ry_sq = rx * rx, ry * ry
    t1, t2 = rx_sq * y1_sq, ry_sq * x1_sq
    c = math.sqrt(abs((rx_sq * ry_sq - t1 - t2) / (t1 + t2)))
    if large == sweep_flag:
        c = -c
    cxp, cyp = c * rx * y1 / ry, -c * ry * x1 / rx
    cx = (cosr * cxp - sinr * cyp) + (p0[0] + p1[0]) / 2
    cy = (sinr * cxp + cosr * cyp) + (p0[1] + p1[1]) / 2
    ux, uy = (x1 - cxp) / rx, (y1 - cyp) / ry
    vx, vy = (-x1 - cxp) / rx, (-y1 - cyp) / ry
    start = math.atan2(uy, ux)
    cos_d = max(-1.0, min(1.0, (ux * vx + uy * vy) / math.sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy))))
    delta = math.degrees(math.acos(cos_d))
    if ux * vy - uy * vx < 0:
        delta = -delta
    delta %= 360
    if not sweep_flag:
        delta -= 360
    return _arc_curves(cx, cy, rx, ry, start, math.radians(delta), p1, phi)


_SEPARATORS = re.compile(r"[\s,]*")
_TOKENS = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_SPLIT = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def _arc_numbers(raw: str) -> list[float]:
    """The numbers of an arc command, whose flags are one character each and may run into the next number
    ("1 1 0 0110 10": flags 0 and 1, then 10)."""
    tokens: list[str] = _NUMBER.findall(raw)
    tokens.reverse()
    out: list[float] = []
    while tokens:
        if len(out) % 7 in (3, 4):
            t = tokens.pop()
            if t[0] not in "01":
                raise _NotPlain
            if len(t) > 1:
                tokens.append(t[1:])
            out.append(1.0 if t[0] == "1" else 0.0)
        else:
            out.append(float(tokens.pop()))
    return out


def _path(d: str) -> list[Seg]:
    """Path data as M, L, C and Z segments in absolute coordinates (quadratic curves and arcs as cubics)."""
    if not _SEPARATORS.fullmatch(_TOKENS.sub(" ", d)):  # nothing but commands, numbers and separators
        raise _NotPlain
    pieces = _SPLIT.split(d)  # text before the first command, then each command and its numbers
    if pieces[0].strip(" \t\r\n,"):
        raise _NotPlain  # numbers before the first command
    segs: list[Seg] = []
    add = segs.append
    cx = cy = sx = sy = 0.0  # the current point and the start of the subpath
    prev = ""  # the previous command (upper case), for S and T
    px = py = 0.0  # its last control point
    for k in range(1, len(pieces), 2):
        cmd = pieces[k]
        up = cmd.upper()
        nums = _arc_numbers(pieces[k + 1]) if up == "A" else [float(v) for v in _NUMBER.findall(pieces[k + 1])]
        n = _ARITY[up]
        if n == 0:
            if nums:
                raise _NotPlain
            add(Seg("Z", ()))
            cx, cy, prev = sx, sy, "Z"
            continue
        if not nums or len(nums) % n:
            raise _NotPlain
        rel = cmd != up
        for j in range(0, len(nums), n):
            ox, oy = (cx, cy) if rel else (0.0, 0.0)
            if up == "M":
                cx, cy = ox + nums[j], oy + nums[j + 1]
                if j == 0:
                    sx, sy = cx, cy
                    add(Seg("M", ((cx, cy),)))
                else:  # further pairs are lines
                    add(Seg("L", ((cx, cy),)))
            elif up == "L":
                cx, cy = ox + nums[j], oy + nums[j + 1]
                add(Seg("L", ((cx, cy),)))
            elif up == "H":
                cx = ox + nums[j]
                add(Seg("L", ((cx, cy),)))
            elif up == "V":
                cy = oy + nums[j]
                add(Seg("L", ((cx, cy),)))
            elif up == "C" or up == "S":
                if up == "C":
                    c1 = (ox + nums[j], oy + nums[j + 1])
                    j += 2
                else:
                    if prev in ("Q", "T"):
                        raise _NotPlain  # svgelements reflects a quadratic's control point here, the SVG rules not
                    c1 = (2 * cx - px, 2 * cy - py) if prev in ("C", "S") else (cx, cy)
                px, py = ox + nums[j], oy + nums[j + 1]
                cx, cy = ox + nums[j + 2], oy + nums[j + 3]
                add(Seg("C", (c1, (px, py), (cx, cy))))
            elif up == "Q" or up == "T":
                if up == "Q":
                    qx, qy = ox + nums[j], oy + nums[j + 1]
                    j += 2
                else:
                    if prev in ("C", "S"):
                        raise _NotPlain  # likewise a cubic's
                    qx, qy = (2 * cx - px, 2 * cy - py) if prev in ("Q", "T") else (cx, cy)
                x, y = ox + nums[j], oy + nums[j + 1]
                add(Seg("C", ((cx + 2 / 3 * (qx - cx), cy + 2 / 3 * (qy - cy)),
                              (x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y)), (x, y))))
                cx, cy, px, py = x, y, qx, qy
            else:  # A
                x, y = ox + nums[j + 5], oy + nums[j + 6]
                segs += _svg_arc((cx, cy), nums[j], nums[j + 1], nums[j + 2], nums[j + 3] == 1.0,
                                 nums[j + 4] == 1.0, (x, y))
                cx, cy = x, y
            prev = up
    if segs and segs[0].op != "M":
        raise _NotPlain
    return segs
