"""DriveThruCards' deck files: a PDF of CMYK card images, one card side a page, written to PDF/X-1a:2003's rules as
far as wizprint can follow them.

Each distinct face is rendered once at the service's dpi (generator/raster.py), turned into CMYK by
:func:`cmyk_image` and stored once (deflated, 8 bits a channel); each page places one of them over its whole
MediaBox, whose TrimBox is the card as cut and whose BleedBox is the page. The file is PDF 1.4 with no fonts, no
transparency and no RGB; its OutputIntent names the registered output condition of services.toml
(``CGATS TR 001``, U.S. Web Coated (SWOP)) without embedding an ICC profile, and its Info says
``GTS_PDFXVersion (PDF/X-1:2003)``. It has not been through a PDF/X validator (Acrobat's preflight): the docs say so.

The colours are converted without an ICC profile: black generation takes the grey out of every colour (the
darkest channel becomes K), and a colour whose total ink would pass the service's limit has its C, M and Y scaled
down to it. Colours shift a little from the screen's, as they do with any conversion for print.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from wizprint.errors import WizprintBug

from .servicefigures import Placement, Service

LUT_SIZE = 33  # points of the colour table along each of R, G and B (Pillow interpolates between them)
INK_MARGIN = 2.0  # percent kept below the ink limit, for the table's rounding to 8 bits a channel
DATE = "D:20000101000000Z"  # the creation date of every file (the same bytes for the same cards)


@cache
def _lut(ink: float) -> Any:
    from PIL import ImageFilter

    limit = (ink - INK_MARGIN) / 100.0

    def cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
        k = 1.0 - max(r, g, b)
        if k >= 1.0 - 1e-9:
            return 0.0, 0.0, 0.0, 1.0
        c, m, y = ((1.0 - v - k) / (1.0 - k) for v in (r, g, b))
        if c + m + y + k > limit:
            s = max(0.0, limit - k) / (c + m + y)
            c, m, y = c * s, m * s, y * s
        return c, m, y, k

    return ImageFilter.Color3DLUT.generate(LUT_SIZE, cmyk, channels=4, target_mode="CMYK")


def cmyk_image(image: Any, ink: float) -> Any:
    """An RGB image in CMYK, its total ink at most ``ink`` percent (see the module's doc)."""
    return image.convert("RGB").filter(_lut(ink))


def ink_percent(image: Any) -> float:
    """The most ink any pixel of a CMYK image lays down, in percent (the four channels added up)."""
    colours = image.getcolors(maxcolors=image.size[0] * image.size[1])
    return max((sum(c) for _n, c in colours), default=0) * 100.0 / 255.0


def _pdf_string(text: str) -> bytes:
    safe = text.encode("latin-1", "replace").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return b"(" + safe + b")"


def _num(v: float) -> bytes:
    return (f"{v:.4f}".rstrip("0").rstrip(".") or "0").encode("ascii")


def pdfx_deck(title: str, where: Placement, images: Mapping[str, Any], pages: Sequence[str], svc: Service) -> bytes:
    """The PDF of a deck: ``pages`` names, page by page, the image (of ``images``, CMYK) it shows; every page is
    the service's image size at its dpi, trimmed to its card size."""
    dpi = svc.dpi
    pw, ph = (px * 72.0 / dpi for px in where.size.image)
    tw, th = (v * 72.0 for v in where.size.trim)
    bx, by = (pw - tw) / 2, (ph - th) / 2
    objects: list[bytes] = []  # object n is objects[n - 1]

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    def stream(head: bytes, data: bytes) -> int:
        return add(b"<< " + head + b" /Length " + str(len(data)).encode() + b" >>\nstream\n" + data + b"\nendstream")

    image_ref: dict[str, int] = {}
    for key in dict.fromkeys(pages):
        im = images[key]
        if im.mode != "CMYK" or im.size != where.size.image:
            raise WizprintBug(f"a DriveThruCards page image is {im.mode} {im.size}")
        head = (b"/Type /XObject /Subtype /Image /Width " + str(im.size[0]).encode() + b" /Height "
                + str(im.size[1]).encode() + b" /ColorSpace /DeviceCMYK /BitsPerComponent 8 /Filter /FlateDecode")
        image_ref[key] = stream(head, zlib.compress(im.tobytes(), 6))
    pages_ref = len(objects) + 2 * len(pages) + 1  # the Pages object comes right after the pages
    page_refs = []
    media = b"[0 0 " + _num(pw) + b" " + _num(ph) + b"]"
    trim = b"[" + b" ".join(_num(v) for v in (bx, by, bx + tw, by + th)) + b"]"
    for key in pages:
        content = stream(b"", b"q " + _num(pw) + b" 0 0 " + _num(ph) + b" 0 0 cm /Im Do Q")
        page_refs.append(add(b"<< /Type /Page /Parent " + str(pages_ref).encode() + b" 0 R /MediaBox " + media
                             + b" /BleedBox " + media + b" /TrimBox " + trim + b" /Resources << /XObject << /Im "
                             + str(image_ref[key]).encode() + b" 0 R >> >> /Contents " + str(content).encode()
                             + b" 0 R >>"))
    if add(b"<< /Type /Pages /Count " + str(len(page_refs)).encode() + b" /Kids ["
           + b" ".join(f"{r} 0 R".encode() for r in page_refs) + b"] >>") != pages_ref:
        raise WizprintBug("the Pages object is not where its pages point")
    intent = add(b"<< /Type /OutputIntent /S /GTS_PDFX /OutputConditionIdentifier "
                 + _pdf_string(svc.output_condition) + b" /RegistryName (http://www.color.org) /Info "
                 + _pdf_string(svc.output_info) + b" >>")
    catalog = add(b"<< /Type /Catalog /Pages " + str(pages_ref).encode() + b" 0 R /OutputIntents ["
                  + str(intent).encode() + b" 0 R] >>")
    info = add(b"<< /Title " + _pdf_string(title) + b" /Creator (wizprint) /Producer (wizprint) /CreationDate ("
               + DATE.encode() + b") /ModDate (" + DATE.encode() + b") /Trapped /False /GTS_PDFXVersion "
               b"(PDF/X-1:2003) >>")
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{o:010d} 00000 n \n".encode() for o in offsets)
    doc_id = hashlib.md5(bytes(out)).hexdigest().encode()
    out += (b"trailer\n<< /Size " + str(len(objects) + 1).encode() + b" /Root " + str(catalog).encode()
            + b" 0 R /Info " + str(info).encode() + b" 0 R /ID [<" + doc_id + b"> <" + doc_id + b">] >>\nstartxref\n"
            + str(xref).encode() + b"\n%%EOF\n")
    return bytes(out)
