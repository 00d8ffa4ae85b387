"""``wizprint preflight GAME --for SERVICE``: a print service's checks, card by card, before an order.

Two kinds of check, each problem naming the card (or the file) and what to change:

- on the drawn faces (:func:`drawn_problems`, run by every ``--for`` build before it makes a file): text outside
  the service's safe zone, a face drawn with less bleed than the service's image needs, a deck whose card size the
  service does not print (a warning: the deck is left out of the service's files);
- on the service's files (:func:`folder_problems`: those of the build folder, ``output/<game>/<service>/``, as they
  are now, edits included): an image of the wrong pixel size or under the service's dpi, an image in the wrong
  colour mode (RGB for MakePlayingCards, The Game Crafter and Tabletop Simulator; CMYK within the ink limit for
  DriveThruCards), a PDF page of the wrong size or without its trim box, a font not embedded, a deck of the wrong
  number of pages; and for Tabletop Simulator, saved objects whose card sheets break its limits (10 x 7 cards,
  4096 pixels) or disagree with their images.

The figures come from layouts/services.toml (generator/services.py), where each names its source.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizprint.errors import DataErrors, Issue, WizprintError, one_line, quote

from .drawing import Drawn
from .fonts import ascent, descent
from .scene import Group, Item, Scene, Text
from .servicefigures import (
    MM_PER_IN,
    CardSize,
    Placement,
    Service,
    figures,
    placement,
    service,
    service_decks,
    sizes_text,
)
from .textlayout import icon_box
from .units import PT

TARGETS = ("tts", "mpc", "tgc", "drivethrucards")  # what --for and preflight take
EPS = 0.005  # mm: a text this close to the safe zone's edge is inside it
MAX_IMAGE_BYTES = 200 * 1024 * 1024  # a file larger than this is not read


@dataclass
class Report:
    """What a preflight found: errors (the order would come out wrong) and warnings, and the files it read."""

    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    files: int = 0
    folder: Path | None = None


def target_name(sid: str) -> str:
    """The name of what ``--for sid`` makes files for."""
    return "Tabletop Simulator" if sid == "tts" else service(sid).name


# -- the drawn faces --------------------------------------------------------------------------------------------
def _transform(g: Group, x: float, y: float) -> tuple[float, float]:
    """A point of a group's children where the back ends draw it (as deckpdf._box turns a group's box)."""
    a = math.radians(g.rotate)
    cos, sin = math.cos(a), math.sin(a)
    dx, dy = (x - g.cx) * g.scale, (y - g.cy) * g.scale
    return g.cx + dx * cos - dy * sin + g.tx, g.cy + dx * sin + dy * cos + g.ty


def text_ink(items: Sequence[Item], frames: tuple[Group, ...] = ()
             ) -> Iterator[tuple[Text, float, float, float, float]]:
    """Each text item with the box its ink takes on the face (x0, y0, x1, y1 in mm): every run's letters from
    its baseline up by the face's ascent and down by its descent, every inline icon's square; in groups, where
    the group's turn and shift put it."""
    for it in items:
        if isinstance(it, Group):
            yield from text_ink(it.children, (it, *frames))
            continue
        if not isinstance(it, Text):
            continue
        xs: list[float] = []
        ys: list[float] = []
        for r in it.layout.runs:
            if r.icon:
                x, top, s = icon_box(r)
                boxes = (x, top, x + s, top + s)
            elif r.text.strip():
                lead = len(r.text) - len(r.text.lstrip())
                trail = len(r.text) - len(r.text.rstrip())
                shrink = r.w * (lead + trail) / max(1, len(r.text))  # spaces at either end draw nothing
                x0 = r.x + (r.w * lead / max(1, len(r.text)))
                boxes = (x0, r.baseline - ascent(r.face) * r.size * PT, x0 + r.w - shrink,
                         r.baseline + descent(r.face) * r.size * PT)
            else:
                continue
            for px, py in ((boxes[0], boxes[1]), (boxes[2], boxes[1]), (boxes[0], boxes[3]), (boxes[2], boxes[3])):
                qx, qy = it.x + px, it.y + py
                for g in frames:
                    qx, qy = _transform(g, qx, qy)
                xs.append(qx)
                ys.append(qy)
        if xs:
            yield it, min(xs), min(ys), max(xs), max(ys)


def _snippet(t: Text) -> str:
    words = " ".join("".join(r.text for r in t.layout.runs if not r.icon).split())
    return quote(words, 30) if words else "an inline icon"


def face_problems(scene: Scene, where: Placement, svc: Service, layout_file: str = "the layout") -> list[str]:
    """What keeps one face from printing right at the service: its texts outside the safe zone (the first few,
    each with how far to move it), too little bleed, no background to fill the bleed."""
    out: list[str] = []
    x0, y0, x1, y1 = where.safe_box
    w, h = where.card
    inside = f"{svc.name} keeps text {x0:.2f} mm inside the sides and {y0:.2f} mm inside the top and foot of a " \
             f"{w:g} x {h:g} mm card"
    for t, a, b, c, d in text_ink(scene.items):
        over = [(x0 - a, "left"), (y0 - b, "top"), (c - x1, "right"), (d - y1, "foot")]
        worst = max(over)
        if worst[0] > EPS:
            edge = {"left": a, "top": b, "right": w - c, "foot": h - d}[worst[1]]
            out.append(f"text {_snippet(t)} reaches {edge:.2f} mm from the {worst[1]} edge; {inside}: move it "
                       f"{worst[0]:.2f} mm further in ({layout_file})")
    if scene.bleed < where.bleed - 1e-6:
        out.append(f"missing bleed: the face is drawn with {scene.bleed:g} mm of bleed and {svc.owner} "
                   f"{where.size.image[0]} x {where.size.image[1]} px image needs {where.bleed:.2f} mm round it: build "
                   f"without --bleed, or with --bleed {math.ceil(where.bleed * 20 - 1e-9) / 20:g} or more")
    elif not scene.background:
        out.append("missing bleed: the face has no background colour to fill its bleed: give its face a "
                   "'background' in the layout")
    return out


def drawn_problems(drawn: Drawn, svc: Service) -> Report:
    """The checks on a game's drawn faces for a print service (see the module's doc)."""
    game = drawn.game
    report = Report()
    printed, left = service_decks(drawn, svc)
    layout_file = drawn.layout.file
    for d in left:
        w, h = drawn.layout.decks[d].size
        report.warnings.append(Issue(layout_file, 0, d, f"deck {quote(d)} ({w:g} x {h:g} mm cards) is left out: "
                                                        f"{svc.owner} card sizes in layouts/services.toml are "
                                                        f"{sizes_text(svc)}"))
    for d, where in printed:
        for c in game.cards(d):
            for problem in face_problems(drawn.fronts[d][c.id], where, svc, layout_file):
                report.errors.append(Issue(c.source.file, c.source.line, c.id, problem))
        for name, back in drawn.backs[d].items():
            for problem in face_problems(back, where, svc, layout_file):
                label = f"back of deck {quote(d)}" + (f" ({name})" if name else "")
                report.errors.append(Issue(layout_file, 0, label, problem))
    return report


def check_drawn(drawn: Drawn, svc: Service) -> list[Issue]:
    """The checks on the drawn faces, as a build runs them: errors raised together (:class:`DataErrors`, nothing
    is written); the warnings returned."""
    report = drawn_problems(drawn, svc)
    if report.errors:
        raise DataErrors([Issue(i.file, i.line, i.card, f"{svc.name} preflight: {i.message}")
                          for i in report.errors])
    return report.warnings


# -- the files ----------------------------------------------------------------------------------------------------
def _image(data: bytes) -> Any:
    from PIL import Image

    im = Image.open(io.BytesIO(data))
    return im


def check_png(data: bytes, name: str, svc: Service, size: CardSize) -> list[str]:
    """The problems of one card image for a service: its pixel size (and so its dpi), its colour mode."""
    try:
        im = _image(data)
    except (OSError, ValueError) as exc:
        return [f"is not an image wizprint can read ({one_line(str(exc), 120)})"]
    out = []
    want = size.image
    if im.size != want:
        dpi = im.size[0] / (want[0] / svc.dpi)
        same_shape = abs(im.size[0] * want[1] - im.size[1] * want[0]) <= max(want)
        if same_shape and im.size[0] < want[0]:
            out.append(f"image under {svc.dpi} dpi: {im.size[0]} x {im.size[1]} px prints at {dpi:.0f} dpi on a "
                       f"{size.name} card; make it {want[0]} x {want[1]} px (build it again with --for {svc.id})")
        else:
            out.append(f"wrong pixel size: {im.size[0]} x {im.size[1]} px; {svc.owner} {size.name} card is "
                       f"{want[0]} x {want[1]} px with bleed")
    if svc.colour == "rgb" and im.mode != "RGB":
        out.append(f"colour mode {im.mode}: {svc.name} takes RGB images" +
                   (" (CMYK images are rejected)" if im.mode == "CMYK" else "") + "; save it as RGB")
    return out


def _pdf_objects(page: Any) -> Iterator[Any]:
    import pypdfium2.raw as raw

    for obj in page.get_objects(max_depth=15):
        yield obj, obj.type == raw.FPDF_PAGEOBJ_IMAGE, obj.type == raw.FPDF_PAGEOBJ_TEXT


def check_pdf(data: bytes, name: str, svc: Service, size: CardSize, cards: int | None) -> list[str]:
    """The problems of a DriveThruCards deck file: pages (two a card, the service's page size, a trim box the
    card's size), images (CMYK, the service's dpi, the ink limit), fonts (embedded)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        return [f"is not a PDF wizprint can read ({one_line(str(exc), 120)})"]
    out: list[str] = []
    seen_inks: dict[bytes, float] = {}
    fonts: set[str] = set()
    try:
        n = len(doc)
        if cards is not None and n != 2 * cards:
            out.append(f"{n} pages for {cards} cards: {svc.name} takes two pages a card (its back, then its front)")
        elif n % 2:
            out.append(f"{n} pages, an odd number: {svc.name} takes two pages a card (its back, then its front)")
        pw, ph = (px * 72.0 / svc.dpi for px in size.image)
        tw, th = (v * 72.0 for v in size.trim)
        for i in range(n):
            page = doc[i]
            try:
                w, h = page.get_size()
                if abs(w - pw) > 0.5 or abs(h - ph) > 0.5:
                    out.append(f"page {i + 1} is {w / 72:.3f} x {h / 72:.3f} in; {svc.owner} {size.name} card is "
                               f"laid out {pw / 72:g} x {ph / 72:g} in with its bleed")
                    continue
                trim = page.get_trimbox(fallback_ok=False)
                if trim is None:
                    out.append(f"page {i + 1} has no TrimBox: the card's cut ({tw / 72:g} x {th / 72:g} in)")
                elif abs((trim[2] - trim[0]) - tw) > 0.5 or abs((trim[3] - trim[1]) - th) > 0.5:
                    out.append(f"page {i + 1}'s TrimBox is {(trim[2] - trim[0]) / 72:.3f} x "
                               f"{(trim[3] - trim[1]) / 72:.3f} in, not the card's {tw / 72:g} x {th / 72:g} in")
                for obj, is_image, is_text in _pdf_objects(page):
                    if is_image:
                        out += _image_problems(obj, i + 1, svc, seen_inks)
                    elif is_text:
                        font = raw.FPDFTextObj_GetFont(obj.raw)
                        if font and not raw.FPDFFont_GetIsEmbedded(font):
                            fonts.add(_font_name(font))
            finally:
                page.close()
    finally:
        doc.close()
    if fonts:
        out.append(f"fonts not embedded: {', '.join(sorted(fonts))}: embed every font (or draw the text as "
                   f"outlines) before sending the file")
    return out


def _font_name(font: Any) -> str:
    import ctypes

    import pypdfium2.raw as raw

    n = raw.FPDFFont_GetBaseFontName(font, None, 0)
    buf = ctypes.create_string_buffer(max(1, n))
    raw.FPDFFont_GetBaseFontName(font, buf, n)
    return buf.value.decode("latin-1", "replace") or "a font without a name"


def _image_problems(obj: Any, page_no: int, svc: Service, seen: dict[bytes, float]) -> list[str]:
    import pypdfium2.raw as raw

    out: list[str] = []
    meta = obj.get_metadata()
    dpi = min(meta.horizontal_dpi, meta.vertical_dpi)
    if dpi < svc.dpi - 1:
        out.append(f"page {page_no}: an image at {dpi:.0f} dpi, under {svc.dpi} dpi: draw it with more pixels")
    if svc.colour == "cmyk":
        if meta.colorspace != raw.FPDF_COLORSPACE_DEVICECMYK:
            out.append(f"page {page_no}: an image in {_space_name(meta.colorspace)}, not DeviceCMYK: {svc.name} "
                       f"prints CMYK")
        elif svc.ink is not None:
            ink = _ink(obj, seen)
            if ink is not None and ink > svc.ink + 0.5:
                out.append(f"page {page_no}: {ink:.0f}% total ink, more than {svc.owner} {svc.ink:g}%: lighten "
                           f"its darkest colours")
    return out


def _space_name(space: int) -> str:
    import pypdfium2.raw as raw

    names = {raw.FPDF_COLORSPACE_DEVICERGB: "DeviceRGB", raw.FPDF_COLORSPACE_DEVICEGRAY: "DeviceGray",
             raw.FPDF_COLORSPACE_ICCBASED: "an ICC colour space", raw.FPDF_COLORSPACE_INDEXED: "an indexed colour "
             "space"}
    return names.get(space, "another colour space")


def _ink(obj: Any, seen: dict[bytes, float]) -> float | None:
    import hashlib

    from PIL import Image

    from .pdfx import ink_percent

    raw_data = bytes(obj.get_data(decode_simple=False))
    key = hashlib.sha1(raw_data).digest()
    if key in seen:
        return seen[key]
    filters = obj.get_filters()
    try:
        im: Any
        if filters and filters[-1] == "DCTDecode":
            im = Image.open(io.BytesIO(bytes(obj.get_data(decode_simple=True))))
        else:
            w, h = obj.get_px_size()
            im = Image.frombytes("CMYK", (w, h), bytes(obj.get_data(decode_simple=True)))
    except (OSError, ValueError):
        return None
    seen[key] = ink = ink_percent(im.convert("CMYK"))
    return ink


def check_tts(saved: Mapping[str, Any], name: str, image_size: Any) -> list[str]:
    """The problems of a Tabletop Simulator saved object: each custom deck's grid within 10 x 7, its images within
    4096 pixels and of a size its grid divides, its cards' ids on the sheet (not the hidden face's slot), its
    DeckIDs those of its cards. ``image_size(url)`` gives an image's (width, height, mode), or None when it cannot
    be found."""
    tts = figures().tts
    out: list[str] = []
    states = saved.get("ObjectStates")
    if not isinstance(states, list) or not states:
        return ["holds no ObjectStates"]
    for obj in _objects(states):
        decks = obj.get("CustomDeck")
        if not isinstance(decks, dict):
            continue
        nick = obj.get("Nickname") or obj.get("Name")
        for key, deck in decks.items():
            cols, rows = deck.get("NumWidth"), deck.get("NumHeight")
            if not (isinstance(cols, int) and isinstance(rows, int) and 1 <= cols <= tts.columns
                    and 1 <= rows <= tts.rows):
                out.append(f"{nick}: CustomDeck {key}: a grid of {cols} x {rows} cards; Tabletop Simulator takes at "
                           f"most {tts.columns} x {tts.rows}")
                continue
            for field_name in ("FaceURL", "BackURL"):
                url = deck.get(field_name)
                got = image_size(url) if isinstance(url, str) else None
                if got is None:
                    out.append(f"{nick}: CustomDeck {key}: {field_name} {quote(url)} is not an image wizprint finds")
                    continue
                w, h, mode = got
                if max(w, h) > tts.max_px:
                    out.append(f"{nick}: {field_name} is {w} x {h} px, more than {tts.max_px} px")
                if mode not in ("RGB", "RGBA"):
                    out.append(f"{nick}: {field_name} is {mode}: Tabletop Simulator takes RGB images")
                if (field_name == "FaceURL" or deck.get("UniqueBack")) and (w % cols or h % rows):
                    out.append(f"{nick}: {field_name} is {w} x {h} px, which a {cols} x {rows} grid does not divide")
        ids = [c.get("CardID") for c in obj.get("ContainedObjects", []) if isinstance(c, dict)]
        if obj.get("Name") == "DeckCustom" and ids != obj.get("DeckIDs"):
            out.append(f"{nick}: DeckIDs are not its cards' CardIDs")
        for cid in ids if obj.get("Name") == "DeckCustom" else [obj.get("CardID")]:
            if not isinstance(cid, int):
                continue
            deck = decks.get(str(cid // 100))
            if not isinstance(deck, dict):
                out.append(f"{nick}: card {cid} has no CustomDeck {cid // 100}")
                continue
            slots = int(deck.get("NumWidth", 0)) * int(deck.get("NumHeight", 0))
            if not 0 <= cid % 100 < slots - 1:
                out.append(f"{nick}: card {cid} is not on its {deck.get('NumWidth')} x {deck.get('NumHeight')} sheet "
                           f"(or is in the hidden face's slot)")
    return out


def _objects(states: list[Any]) -> Iterator[dict[str, Any]]:
    for s in states:
        if isinstance(s, dict):
            yield s
            contained = s.get("ContainedObjects")
            if isinstance(contained, list) and s.get("Name") != "DeckCustom":
                yield from _objects(contained)


# -- a preflight of a game --------------------------------------------------------------------------------------
def preflight(game_ref: str | Path, sid: str, parent: Path | None = None, bleed: float | None = None) -> Report:
    """The preflight of a game for ``sid`` (tts, mpc, tgc or drivethrucards): the faces drawn as ``wizprint build
    GAME --for SID`` draws them (with ``bleed``, or the bleed the service needs), then the files of the build
    folder ``parent/<game>/<sid>/`` (default ``output/``), if there is one."""
    from wizprint.cards.loader import load_game

    from .drawing import draw
    from .layout import load_layout

    if sid not in TARGETS:
        raise WizprintError(f"--for must be one of {', '.join(TARGETS)}, not {quote(sid)}")
    game = load_game(game_ref)
    layout = load_layout(game)
    report = Report()
    folder = (parent or Path("output")) / game.id / sid
    if sid != "tts":
        svc = service(sid)
        from .servicefigures import needed_bleed

        use = bleed if bleed is not None else needed_bleed(svc, [layout.decks[d].size for d in game.decl.decks])
        drawn = draw(game, layout, use, sheets=False)
        report = drawn_problems(drawn, svc)
    report.folder = folder
    if folder.is_dir():
        _folder_problems(game, sid, folder, report)
    else:
        report.warnings.append(Issue(str(folder), 0, "", f"no build here: its files were not checked ('wizprint "
                                                         f"build {game.id} --for {sid}' makes them)"))
    return report


def _read(path: Path) -> bytes | None:
    try:
        if path.stat().st_size > MAX_IMAGE_BYTES:
            return None
        return path.read_bytes()
    except OSError:
        return None


def _folder_problems(game: Any, sid: str, folder: Path, report: Report) -> None:
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink() and p != folder / "manifest.json")
    if sid == "tts":
        _tts_folder(folder, files, report)
        return
    svc = service(sid)
    from .layout import load_layout

    layout = load_layout(game)
    sizes = {d: placement(svc, layout.decks[d].size) for d in game.decl.decks}
    for p in files:
        rel = shown = str(p)
        if p.suffix.lower() in (".png", ".jpg", ".jpeg") and svc.files == "png":
            deck = p.parent.name
            where = sizes.get(deck) or next((w for d, w in sizes.items() if deck.startswith(f"{d}-") and w), None)
            if where is None:
                where = next((w for w in sizes.values() if w is not None), None)
            data = _read(p)
            report.files += 1
            if data is None or where is None:
                report.errors.append(Issue(shown, 0, "", "cannot be read"))
                continue
            report.errors += [Issue(shown, 0, "", m) for m in check_png(data, rel, svc, where.size)]
        elif p.suffix.lower() == ".pdf" and svc.files == "pdf":
            deck = p.stem
            where = sizes.get(deck)
            cards = sum(c.copies for c in game.cards(deck)) if deck in game.decl.decks else None
            data = _read(p)
            report.files += 1
            if data is None or where is None:
                report.errors.append(Issue(shown, 0, "", "cannot be read" if data is None else
                                           f"is not the file of a deck {svc.name} prints"))
                continue
            report.errors += [Issue(shown, 0, "", m) for m in check_pdf(data, rel, svc, where.size, cards)]


def _tts_folder(folder: Path, files: list[Path], report: Report) -> None:
    from urllib.parse import unquote, urlparse

    def image_size(url: str) -> tuple[int, int, str] | None:
        path = urlparse(url)
        name = Path(unquote(path.path)).name
        local = Path(unquote(path.path)) if path.scheme == "file" else folder / name
        if not local.is_file():
            local = folder / name  # the images beside the saved object (uploaded elsewhere)
        data = _read(local) if local.is_file() else None
        if data is None:
            return None
        try:
            im = _image(data)
        except (OSError, ValueError):
            return None
        return im.size[0], im.size[1], im.mode

    for p in files:
        if p.suffix.lower() != ".json":
            continue
        report.files += 1
        data = _read(p)
        try:
            saved = json.loads(data.decode("utf-8")) if data is not None else None
        except (UnicodeDecodeError, ValueError):
            saved = None
        if not isinstance(saved, dict):
            report.errors.append(Issue(str(p), 0, "", "is not a saved object (JSON) wizprint can read"))
            continue
        report.errors += [Issue(str(p), 0, "", m) for m in check_tts(saved, p.name, image_size)]


__all__ = ["MM_PER_IN", "TARGETS", "Report", "check_drawn", "check_pdf", "check_png", "check_tts", "drawn_problems",
           "preflight", "target_name", "text_ink"]
