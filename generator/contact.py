"""PNG contact sheets: every distinct face of a deck in a grid, cut from the deck's own PDF (rendered with
pypdfium2), so that a build draws each face once.

Each face is rendered from the page where the deck PDF placed its first copy, just its trim box (no bleed), and
turned upright when the sheet holds it turned; the faces then sit in reading order on a grey sheet."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from typing import Any

from .impose import Slot
from .units import MM

GAP = 3.0  # mm
SHEET_GREY = (217, 217, 217)
PNG_LEVEL = 1  # zlib level: the previews are flat colour, which the fastest level packs about as well as the default


def preload() -> None:
    """Import the renderer now (before the build's workers are forked, so that each need not import it)."""
    import pypdfium2  # noqa: F401
    from PIL import Image  # noqa: F401


def contact_png(pdf: bytes, where: Sequence[tuple[int, Slot]], size: tuple[float, float], dpi: float = 60.0,
                columns: int = 9) -> bytes:
    """A PNG of faces at ``dpi``: ``where`` gives, for each face in reading order, the page of ``pdf`` (counted from
    0) and the slot (trim box) where that face is placed; ``size`` is a face's trim size in mm, upright."""
    import pypdfium2 as pdfium
    from PIL import Image

    if not where:
        raise ValueError("no faces to show")
    w, h = size
    cols = min(columns, len(where))
    rows = (len(where) + cols - 1) // cols
    scale = dpi / 72.0
    px = MM * scale  # pixels per mm
    sheet = Image.new("RGB", (round((GAP + cols * (w + GAP)) * px), round((GAP + rows * (h + GAP)) * px)), SHEET_GREY)
    doc = pdfium.PdfDocument(pdf)
    try:
        pages: dict[int, pdfium.PdfPage] = {}
        for i, (pno, s) in enumerate(where):
            page = pages.get(pno)
            if page is None:
                page = pages[pno] = doc[pno]
            pw, ph = page.get_size()
            crop = (s.x * MM, s.y * MM, pw - (s.x + s.w) * MM, ph - (s.y + s.h) * MM)  # left, bottom, right, top
            face = page.render(scale=scale, crop=crop).to_pil()
            if s.rotate % 360:  # turned clockwise on the sheet: turn it back
                face = face.transpose({90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180,
                                       270: Image.Transpose.ROTATE_270}[s.rotate % 360])
            r, c = divmod(i, cols)
            sheet.paste(face, (round((GAP + c * (w + GAP)) * px), round((GAP + r * (h + GAP)) * px)))
        for page in pages.values():
            page.close()
    finally:
        doc.close()
    return png_rgb(sheet)


def contact_cells(png: bytes, count: int, dpi: float = 60.0, columns: int = 9) -> list[Any]:
    """The faces of a contact sheet made by :func:`contact_png` (``count`` of them, at ``dpi``), cut out again as
    images, in reading order."""
    import io

    from PIL import Image

    sheet = Image.open(io.BytesIO(png)).convert("RGB")
    cols = min(columns, count)
    rows = (count + cols - 1) // cols
    px = MM * dpi / 72.0
    w = (sheet.width / px - GAP) / cols - GAP
    h = (sheet.height / px - GAP) / rows - GAP
    out = []
    for i in range(count):
        r, c = divmod(i, cols)
        x, y = round((GAP + c * (w + GAP)) * px), round((GAP + r * (h + GAP)) * px)
        out.append(sheet.crop((x, y, x + round(w * px), y + round(h * px))))
    return out


def png_rgb(image: Any) -> bytes:
    """An RGB image as PNG bytes: see :func:`png_image`."""
    return png_image(image)


def png_image(image: Any, dpi: float | None = None) -> bytes:
    """An RGB or RGBA image as PNG bytes: 8 bits a channel, rows unfiltered, deflated at :data:`PNG_LEVEL`; with
    ``dpi``, the pixel density it prints at (a pHYs chunk). For pictures of flat colour this is three times faster
    than Pillow's writer (which tries five filters on every row) and a tenth smaller."""
    w, h = image.size
    channels = {"RGB": 3, "RGBA": 4}[image.mode]
    stride = channels * w
    data = memoryview(image.tobytes())
    # the rows, each after a 0 (the filter type "none"), deflated a block at a time through one small buffer: no
    # second copy of the picture (which cost more in fresh memory than in copying)
    block = max(1, (256 * 1024) // (stride + 1))
    rows = bytearray((stride + 1) * block)
    deflate = zlib.compressobj(PNG_LEVEL)
    parts: list[bytes] = []
    for first in range(0, h, block):
        n = min(block, h - first)
        for r in range(n):
            at = r * (stride + 1) + 1
            rows[at:at + stride] = data[(first + r) * stride:(first + r + 1) * stride]
        parts.append(deflate.compress(memoryview(rows)[:n * (stride + 1)]))
    parts.append(deflate.flush())
    idat = b"".join(parts)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2 if channels == 3 else 6, 0, 0, 0))
    if dpi is not None:  # pixels per metre, the unit PNG knows
        per_metre = round(dpi / 0.0254)
        head += chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1))
    return b"\x89PNG\r\n\x1a\n" + head + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
