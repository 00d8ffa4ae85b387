"""PDF back end (reportlab): draws scenes as form XObjects, each distinct face and icon once."""

from __future__ import annotations

import hashlib
import math
import re
from collections import OrderedDict
from functools import cache, cached_property, lru_cache
from typing import Any

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import isSeq
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFBase85Encode,
    PDFDictionary,
    PDFFormXObject,
    PDFName,
    PDFObject,
    PDFObjectReference,
    PDFPage,
    PDFResourceDictionary,
    PDFStream,
    PDFZCompress,
    xObjectName,
)
from reportlab.pdfbase.pdfdoc import format as pdf_format
from reportlab.pdfgen.canvas import Canvas

from .icons import CURRENT, Icon, load_icon
from .pdfops import _Operators, _plain, _Subset, colour
from .scene import Ellipse, Group, IconPlace, Item, Paint, Poly, Rect, Scene, Text
from .textlayout import icon_box
from .units import MM


class WizCanvas(Canvas):  # type: ignore[misc]
    """reportlab's canvas, taking the operators of a whole face at once (see :meth:`PdfPainter.form`)."""

    def add_operators(self, code: list[str], forms: list[str]) -> None:
        """Add operators to the page or form being drawn, as reportlab's drawing calls would have added them
        (each entry one of its code entries), and the forms they draw."""
        self._code.extend(code)
        self._formsinuse.extend(forms)

    @property
    def document(self) -> Any:
        return self._doc

    def add_form(self, name: str, box: tuple[float, float, float, float], code: list[str], forms: list[str]
                 ) -> None:
        """beginForm(name, *box), the code entries, endForm(), for code that changes no state of the canvas (so
        the form starts and ends with the fresh graphics state beginForm gives it): the same form object, made
        without saving and restoring the canvas's state around it."""
        form = _Form(*box, self._form_heads)
        form.compression = self._pageCompression
        form.setStreamList([self._preamble, *code])
        form.__dict__["_colorsUsed"] = {}  # _setColorSpace: a form's own colours, none
        form.ExtGState = None  # _setExtGState: a fresh graphics state sets none
        form.XObjects = self._doc.xobjDict(forms) if forms else None  # _setXObjects
        form.Annots = []  # _setAnnotations
        self._doc.inForm()
        self._doc.addForm(name, form)

    def endForm(self, **extra_attributes: Any) -> None:
        """reportlab's endForm, making a :class:`_Form` (the same object, written out faster)."""
        (name, lowerx, lowery, upperx, uppery) = self._formData
        (w, h) = self._pagesize
        if upperx is None:
            upperx = w
        if uppery is None:
            uppery = h
        form = _Form(lowerx, lowery, upperx, uppery, self._form_heads)
        form.compression = self._pageCompression
        form.setStreamList([self._preamble, *self._code])
        for k, v in extra_attributes.items():
            setattr(form, k, v)
        self._setColorSpace(form)
        self._setExtGState(form)
        self._setXObjects(form)
        self._setAnnotations(form)
        self._doc.addForm(name, form)
        self._restartAccumulators()
        self.pop_state_stack()

    @cached_property
    def _form_heads(self) -> dict[Any, tuple[bytes, bytes]]:
        return {}

    def showPage(self) -> None:
        """reportlab's showPage; the page it adds is written out by :class:`_Page` (the same bytes, faster)."""
        super().showPage()
        pages = self._doc.Pages.pages
        if pages and type(pages[-1]) is PDFPage:
            pages[-1].__class__ = _Page

    @cached_property
    def drawn(self) -> dict[int, tuple[Item, tuple[str, ...], tuple[str, ...]]]:
        """The code entries of each item drawn in this document, for :class:`_Operators`."""
        return {}

    @cached_property
    def subsets(self) -> dict[str, _Subset]:
        """Each font's subset codes in this document, for :class:`_Operators`."""
        return {}


class _Form(PDFFormXObject):  # type: ignore[misc]
    """reportlab's form XObject, written out as reportlab writes it, with the dictionary of each kind of form (its
    box and the forms it uses) formatted once per document instead of once per form."""

    def __init__(self, lowerx: float, lowery: float, upperx: float, uppery: float,
                 heads: dict[Any, tuple[bytes, bytes]]):
        super().__init__(lowerx, lowery, upperx, uppery)
        self.heads = heads

    def setStreamList(self, data: Any) -> None:  # reportlab's name
        """As reportlab's: the operators joined by new lines, in PDFDocEncoding; ASCII without the eight control
        characters that encoding leaves out (the operators of a face) is its own encoding."""
        if isinstance(data, (list, tuple)):
            data = "\n".join(data)
        if isinstance(data, str) and data.isascii() and not _NOT_PDFDOC.search(data):
            self.stream = data.encode("ascii")
        else:
            super().setStreamList(data)

    def format(self, document: Any) -> bytes:
        if (self.BBox or self.Matrix or self.Annots or self.Contents or self.Resources or not self.stream
                or not self.compression or not self.hasImages):
            return bytes(super().format(document))
        xobjects = self.XObjects
        names = tuple(sorted(xobjects.dict)) if xobjects else ()
        key = (self.lowerx, self.lowery, self.upperx, self.uppery, names)
        head = self.heads.get(key)
        filters = [PDFBase85Encode, PDFZCompress] if rl_config.useA85 else [PDFZCompress]
        if head is None:
            # the dictionary as PDFFormXObject.format and PDFStream.format make it, its Length left open
            resources = PDFResourceDictionary()
            resources.basicFonts()
            resources.allProcs()
            if xobjects:
                resources.XObject = xobjects
            d = PDFDictionary({"Type": PDFName("XObject"), "Subtype": PDFName("Form"), "FormType": 1,
                               "BBox": PDFArray([self.lowerx, self.lowery, self.upperx, self.uppery]),
                               "Matrix": PDFArray([1, 0, 0, 1, 0, 0]), "Resources": resources,
                               "Filter": PDFArray([PDFName(f.pdfname) for f in filters]), "Length": _LENGTH})
            before, _, after = pdf_format(d, document).partition(_LENGTH)
            head = self.heads[key] = (before, after)
        if getattr(self, "shared", False):
            content = _encoded(self.stream, tuple(filters))
        else:
            content = self.stream
            for f in reversed(filters):
                content = f.encode(content)
        content = document.encrypt.encode(content)
        return b"".join((head[0], pdf_format(len(content), document), head[1], b"\nstream\n",
                         _pdfdoc(content, document), b"endstream\n"))


class _Page(PDFPage):  # type: ignore[misc]
    """reportlab's page object, whose dictionary is written out here as PDFCatalog.format and PDFDictionary.format
    write it, without their general machinery for the entries every page of ours has (references, the resources
    and their forms); every other entry is formatted by reportlab."""

    def check_format(self, document: Any) -> None:
        super().check_format(document)
        if type(self.Contents) is PDFStream:  # the page's operators: written out by _Stream
            self.Contents.__class__ = _Stream

    def format(self, document: Any) -> bytes:
        if self.Override_default_compilation or rl_config.pdfMultiLine:
            return bytes(super().format(document))
        self.check_format(document)
        d: dict[str, Any] = {}
        for k, v in self.__Defaults__.items():
            v = getattr(self, k, v)
            if v is not None:
                d[k] = v
        for k in self.__NoDefault__:
            v = getattr(self, k, None)
            if v is not None:
                d[k] = v
        for k in self.__Refs__:
            if k in d:
                d[k] = document.Reference(d[k])
        return _dictionary(d, document)


class _Stream(PDFStream):  # type: ignore[misc]
    """reportlab's stream of a page's operators, written out as PDFStream.format writes it."""

    def format(self, document: Any) -> bytes:
        d = self.dictionary.dict
        content, filters = self.content, self.filters
        if filters is None:
            filters = document.defaultStreamFilters
        if content is None or d or filters is None or rl_config.pdfMultiLine or isinstance(d, OrderedDict):
            return bytes(super().format(document))
        for f in reversed(filters):
            content = f.encode(content)
        content = document.encrypt.encode(content)
        head = _dictionary({"Filter": _Formatted(_filter_names(tuple(f.pdfname for f in filters))),
                            "Length": len(content)}, document)
        return head + b"\nstream\n" + _pdfdoc(content, document) + b"endstream\n"


@cache
def _filter_names(names: tuple[str, ...]) -> bytes:
    return bytes(pdf_format(PDFArray([PDFName(n) for n in names]), None))


def _dictionary(d: dict[str, Any], document: Any) -> bytes:
    """PDFDictionary(d).format(document) with rl_config.pdfMultiLine off (keys sorted, six entries a line)."""
    entries = [_name(k) + b" " + _value(d[k], document) for k in sorted(d)]
    for i in reversed(range(6, len(entries), 6)):
        entries.insert(i, b"\n ")
    return b"<<\n" + b" ".join(entries) + b"\n>>"


@lru_cache(maxsize=8192)  # the names of a file's forms among them: bounded for a long-lived process
def _name(key: str) -> bytes:
    return bytes(pdf_format(PDFName(key), None))


def _value(v: Any, document: Any) -> bytes:
    """format(v, document) for an entry of a dictionary."""
    kind = type(v)
    if kind is PDFObjectReference:
        number = document.idToObjectNumberAndVersion.get(v.name)
        if number is not None:
            return f"{number[0]} {number[1]} R".encode("ascii")
    elif kind is PDFResourceDictionary and not hasattr(v, "__RefOnly__"):
        return _resources(v, document)
    elif kind is PDFDictionary and not isinstance(v.dict, OrderedDict) and not v.dict:
        return b"<<\n\n>>"
    return bytes(pdf_format(v, document))


def _resources(r: Any, document: Any) -> bytes:
    """PDFResourceDictionary.format: its non-empty tables, and its ProcSet."""
    d: dict[str, Any] = {}
    for name in r.dict_attributes:
        v = getattr(r, name)
        if isinstance(v, dict):
            if v:
                d[name] = PDFDictionary(v)
        else:
            d[name] = v
    procs = r.ProcSet
    if isSeq(procs):
        if procs:
            d["ProcSet"] = _ProcSet(procs)
    else:
        d["ProcSet"] = procs
    xobjects: Any = d.get("XObject")
    if type(xobjects) is PDFDictionary and not isinstance(xobjects.dict, OrderedDict) and xobjects.multiline is True:
        d["XObject"] = _Formatted(_dictionary(xobjects.dict, document))
    return _dictionary(d, document)


class _Formatted(PDFObject):  # type: ignore[misc]
    """Bytes already formatted."""

    def __init__(self, data: bytes):
        self.data = data

    def format(self, document: Any) -> bytes:
        return self.data


class _ProcSet(PDFObject):  # type: ignore[misc]
    """PDFArray(procs), formatted once per process for each list of procedure sets."""

    def __init__(self, procs: Any):
        self.procs = tuple(procs)

    def format(self, document: Any) -> bytes:
        return _procset(self.procs)


@cache
def _procset(procs: tuple[Any, ...]) -> bytes:
    return bytes(pdf_format(PDFArray(list(procs)), None))


_LENGTH = b"\x00Length\x00"


def _pdfdoc(content: Any, document: Any) -> bytes:
    """format(content, document): text in PDFDocEncoding, which is ASCII's own for ASCII without the eight control
    characters it leaves out (an ASCII85 stream)."""
    if isinstance(content, str) and content.isascii() and not _NOT_PDFDOC.search(content):
        return content.encode("ascii")
    return bytes(pdf_format(content, document))

_ENCODED: OrderedDict[tuple[bytes, tuple[Any, ...]], Any] = OrderedDict()  # stream and filters -> encoded
_ENCODED_BYTES = [0]  # the size of what _ENCODED holds
MAX_ENCODED = 32 * 1024 * 1024


def _encoded(stream: bytes, filters: tuple[Any, ...]) -> Any:
    """An icon form's stream through its filters (deflated, then ASCII85), as PDFStream.format does it; once per
    process for a stream that several files of a build hold (an icon's form in every deck that shows it). The
    filters are reportlab's, with no state: the same stream always gives the same bytes."""
    key = (stream, filters)
    got = _ENCODED.get(key)
    if got is not None:
        _ENCODED.move_to_end(key)
        return got
    content = stream
    for f in reversed(filters):
        content = f.encode(content)
    _ENCODED[key] = content
    _ENCODED_BYTES[0] += len(stream) + len(content)
    while _ENCODED_BYTES[0] > MAX_ENCODED and _ENCODED:
        (old, _), dropped = _ENCODED.popitem(last=False)
        _ENCODED_BYTES[0] -= len(old) + len(dropped)
    return content
_NOT_PDFDOC = re.compile("[\x18-\x1f]")  # the ASCII characters that PDFDocEncoding has no code for


def new_canvas(target: Any, pagesize: tuple[float, float], title: str, author: str = "wizprint",
               kind: type[Canvas] | None = None) -> Canvas:
    """A canvas that writes reproducible bytes (fixed ids and dates; SOURCE_DATE_EPOCH honoured): a
    :class:`WizCanvas` unless ``kind`` names another (reportlab's own ``Canvas``: the tests' long way round)."""
    from .fonts import family

    # start every page and form in an embedded font: reportlab's default (Helvetica) would be referenced unembedded
    c = (kind or WizCanvas)(target, pagesize=pagesize, invariant=1, pageCompression=1, pdfVersion=(1, 6),
                            initialFontName=family("text").face(), initialFontSize=9)
    c.setTitle(title)
    c.setAuthor(author)
    c.setCreator("wizprint")
    c.setProducer("wizprint (reportlab)")
    c.setSubject(title)
    return c


_PAINT_OPS = {(0, 0): "n", (1, 0): "S", (0, 1): "f", (1, 1): "B"}  # (stroke, fill): PDF's painting operator


@cache
def _uses_current(icon: Icon) -> bool:
    return any(s.fill == CURRENT or s.stroke == CURRENT for s in icon.shapes)


@cache
def _icon_operators(icon: Icon, col: str) -> str:
    """The content of an icon's form in ``col`` (for its currentColor parts): worked out once per process and
    placed in every PDF that uses the icon. The operators are those reportlab's path and colour calls write."""
    size = icon.size
    ops: list[str] = []
    for sh in icon.shapes:
        fill = col if sh.fill == CURRENT else sh.fill
        stroke = col if sh.stroke == CURRENT else sh.stroke
        if fill:
            c = colour(fill)
            ops.append(f"{fp_str(c.red, c.green, c.blue)} rg")
        if stroke:
            c = colour(stroke)
            ops.append(f"{fp_str(c.red, c.green, c.blue)} RG")
            ops.append(f"{fp_str(sh.stroke_width)} w")
            ops.append("1 j")
            ops.append("1 J")
        path = ["n"]
        for seg in sh.segs:
            if seg.op == "Z":
                path.append("h")
            else:
                coords = [v for x, y in seg.pts for v in (x, size - y)]
                path.append(f"{fp_str(coords)} {'c' if seg.op == 'C' else seg.op.lower()}")
        ops.append(" ".join(path))
        op = _PAINT_OPS[(1 if stroke else 0, 1 if fill else 0)]
        ops.append(op + "*" if sh.evenodd and fill else op)  # even-odd only where the icon asks for it
    return "\n".join(ops)


class PdfPainter:
    """Draws scenes on one canvas; forms are keyed by scene key so each design is defined once."""

    def __init__(self, canvas: Canvas):
        self.c = canvas
        self.forms: dict[str, str] = {}
        self.icon_forms: dict[tuple[str, str, str | None], str] = {}
        self.defined: dict[int, Item] = {}  # the items whose icons have forms (by id; the items kept alive)

    # -- forms ------------------------------------------------------------------------------------------------
    def form(self, scene: Scene) -> str:
        """The form name of a scene's face (bleed box), defining it on first use."""
        name = self.forms.get(scene.key)
        if name is not None:
            return name
        name = "F" + hashlib.sha1(scene.key.encode("utf-8")).hexdigest()[:12]
        # icon forms used by this scene must exist before the scene's form is opened
        self._define_icons(scene.items, scene)
        b = scene.bleed
        c = self.c
        box = (0, 0, (scene.w + 2 * b) * MM, (scene.h + 2 * b) * MM)
        if isinstance(c, WizCanvas) and _plain(scene.items):
            ops = _Operators(c.document, self._icon_form, c.subsets, c.drawn)
            ops.scene(scene)
            c.add_form(name, box, ops.code, ops.forms)
        else:
            c.beginForm(name, *box)
            self.draw_scene(scene)
            c.endForm()
        self.forms[scene.key] = name
        return name

    def _define_icons(self, items: list[Item] | tuple[Item, ...], scene: Scene) -> None:
        defined = self.defined
        for it in items:
            if id(it) in defined and defined[id(it)] is it:  # an item of an earlier face: its icons are defined
                continue
            defined[id(it)] = it
            if isinstance(it, IconPlace):
                self._icon_form(it.name, it.color, it.game)
            elif isinstance(it, Text):
                for r in it.layout.runs:
                    if r.icon:
                        self._icon_form(r.icon, it.color, it.game)
            elif isinstance(it, Group):
                self._define_icons(it.children, scene)

    def _icon_form(self, name: str, col: str, game: str | None) -> str:
        icon = load_icon(name, game)
        key = (name, col if _uses_current(icon) else "", game)
        fname = self.icon_forms.get(key)
        if fname is None:
            fname = "I" + hashlib.sha1(repr(key).encode()).hexdigest()[:12]
            c = self.c
            c.beginForm(fname, 0, 0, icon.size, icon.size)
            c.addLiteral(_icon_operators(icon, key[1] or col))
            c.endForm(shared=True)  # the same form in every file that shows the icon (see _encoded)
            self.icon_forms[key] = fname
        return fname

    # -- drawing ----------------------------------------------------------------------------------------------
    def draw_scene(self, scene: Scene) -> None:
        """Draw a scene with its bleed box's lower-left corner at the current origin."""
        b = scene.bleed
        c = self.c
        c.saveState()
        if scene.background:
            c.setFillColor(colour(scene.background))
            c.rect(0, 0, (scene.w + 2 * b) * MM, (scene.h + 2 * b) * MM, stroke=0, fill=1)
        # trim-box coordinates: x right, y down, in mm, origin at the trim's top-left
        self._ox, self._oy = b * MM, (scene.h + b) * MM
        c.translate(self._ox, self._oy)
        for it in scene.items:
            self._item(it)
        c.restoreState()

    def draw_items(self, items: list[Item], height_mm: float) -> None:
        """Draw items whose coordinates are y-down mm from the top of a box of ``height_mm`` at the origin."""
        c = self.c
        self._define_icons(items, Scene(0, height_mm))
        c.saveState()
        c.translate(0, height_mm * MM)
        for it in items:
            self._item(it)
        c.restoreState()

    def _paint(self, p: Paint) -> tuple[int, int]:
        c = self.c
        if p.fill:
            c.setFillColor(colour(p.fill))
        if p.stroke and p.stroke_width > 0:
            c.setStrokeColor(colour(p.stroke))
            c.setLineWidth(p.stroke_width * MM)
            if p.dash:
                c.setDash([d * MM for d in p.dash])
        if p.opacity < 1:
            c.setFillAlpha(p.opacity)
            c.setStrokeAlpha(p.opacity)
        return (1 if p.fill else 0), (1 if p.stroke and p.stroke_width > 0 else 0)

    def _item(self, it: Item) -> None:
        c = self.c
        if isinstance(it, (Rect, Ellipse, Poly)):
            # A shape sets the colours and line width it paints with, so it needs no saved state of its own;
            # a dash or an opacity would outlast it, so those are drawn inside a saved state.
            scoped = bool(it.paint.dash) or it.paint.opacity < 1
            if scoped:
                c.saveState()
            fill, stroke = self._paint(it.paint)
            if isinstance(it, Rect):
                if fill or stroke:
                    if it.radius > 0:
                        c.roundRect(it.x * MM, -(it.y + it.h) * MM, it.w * MM, it.h * MM, it.radius * MM,
                                    stroke=stroke, fill=fill)
                    else:
                        c.rect(it.x * MM, -(it.y + it.h) * MM, it.w * MM, it.h * MM, stroke=stroke, fill=fill)
            elif isinstance(it, Ellipse):
                c.ellipse((it.cx - it.rx) * MM, -(it.cy + it.ry) * MM, (it.cx + it.rx) * MM, -(it.cy - it.ry) * MM,
                          stroke=stroke, fill=fill)
            else:
                p = c.beginPath()
                for i, (x, y) in enumerate(it.points):
                    (p.moveTo if i == 0 else p.lineTo)(x * MM, -y * MM)
                if it.closed:
                    p.close()
                c.drawPath(p, fill=fill if it.closed else 0, stroke=stroke)
            if scoped:
                c.restoreState()
        elif isinstance(it, Text):
            c.setFillColor(colour(it.color))
            t: Any = None  # one text object for the runs between inline icons
            font: tuple[str, float] | None = None
            for r in it.layout.runs:
                if r.icon:
                    if t is not None:
                        c.drawText(t)
                        t = None
                    ix, iy, isz = icon_box(r)
                    self._place_icon(r.icon, it.x + ix, it.y + iy, isz, it.color, it.game)  # keeps the colour
                    continue
                if t is None:
                    t, font = c.beginText(), None
                if font != (r.face, r.size):
                    font = (r.face, r.size)
                    t.setFont(r.face, r.size)
                t.setTextOrigin((it.x + r.x) * MM, -(it.y + r.baseline) * MM)
                t.textLine(r.text)
            if t is not None:
                c.drawText(t)
        elif isinstance(it, IconPlace):
            self._place_icon(it.name, it.x, it.y, it.size, it.color, it.game)
        elif isinstance(it, Group):
            c.saveState()
            if it.tx or it.ty:
                c.translate(it.tx * MM, -it.ty * MM)
            if it.rotate or it.scale != 1:
                c.translate(it.cx * MM, -it.cy * MM)
                if it.rotate:
                    c.rotate(-it.rotate)
                if it.scale != 1:
                    c.scale(it.scale, it.scale)
                c.translate(-it.cx * MM, it.cy * MM)
            for ch in it.children:
                self._item(ch)
            c.restoreState()

    def _place_icon(self, name: str, x: float, y: float, size: float, col: str, game: str | None) -> None:
        fname = self._icon_form(name, col, game)
        icon = load_icon(name, game)
        c = self.c
        c.saveState()
        c.translate(x * MM, -(y + size) * MM)
        k = size * MM / icon.size
        c.scale(k, k)
        c.doForm(fname)
        c.restoreState()

    def place(self, scene: Scene, x_pt: float, y_pt: float, rotate: float = 0.0,
              clip: tuple[float, float, float, float] | None = None) -> None:
        """Place a scene's form with its bleed box's lower-left corner at (x, y), rotated about its centre
        (degrees clockwise); with ``clip`` (x, y, width, height in points), inside that box only."""
        name = self.form(scene)
        c = self.c
        wb, hb = (scene.w + 2 * scene.bleed) * MM, (scene.h + 2 * scene.bleed) * MM
        if isinstance(c, WizCanvas) and not rotate % 360:  # the operators of the calls below, written directly
            do = f"/{xObjectName(name)} Do"
            if clip is None:  # saveState, translate (after "q": nothing to merge with), doForm, restoreState
                c.add_operators(["q", f"{fp_str(1, 0, 0, 1, x_pt, y_pt)} cm", do, "Q"], [name])
            else:
                c.add_operators(["q", f"n {fp_str(clip)} re W* n", "q", f"{fp_str(1, 0, 0, 1, x_pt, y_pt)} cm", do,
                                 "Q", "Q"], [name])
            return
        if isinstance(c, WizCanvas):
            ops = _Operators(c.document, self._icon_form, c.subsets)
            code = ops.code
            if clip is not None:
                code.append("q")
                code.append(f"n {fp_str(clip)} re W* n")
            code.append("q")
            if rotate % 360:
                fw, fh = (hb, wb) if rotate % 180 else (wb, hb)
                ops.translate(x_pt + fw / 2, y_pt + fh / 2)
                theta = -rotate
                cos, sin = math.cos(theta * math.pi / 180), math.sin(theta * math.pi / 180)
                ops.transform(cos, sin, -sin, cos, 0, 0)
                ops.translate(-wb / 2, -hb / 2)
            else:
                ops.translate(x_pt, y_pt)
            code.append(f"/{xObjectName(name)} Do")
            ops.forms.append(name)
            code.append("Q")
            if clip is not None:
                code.append("Q")
            c.add_operators(code, ops.forms)
            return
        if clip is not None:
            c.saveState()
            p = c.beginPath()
            p.rect(*clip)
            c.clipPath(p, stroke=0, fill=0)
            self.place(scene, x_pt, y_pt, rotate)
            c.restoreState()
            return
        c.saveState()
        if rotate % 360:
            # (x, y) is the lower-left of the rotated footprint on the page
            fw, fh = (hb, wb) if rotate % 180 else (wb, hb)
            c.translate(x_pt + fw / 2, y_pt + fh / 2)
            c.rotate(-rotate)
            c.translate(-wb / 2, -hb / 2)
        else:
            c.translate(x_pt, y_pt)
        c.doForm(name)
        c.restoreState()
