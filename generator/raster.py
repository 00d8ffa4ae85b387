"""Faces as pixels, from the same drawing as the PDFs: each image is a PDF page the size of the image (a point a
pixel), on which the PDF back end (generator/pdf.py) places the drawn faces, scaled to their box; pypdfium2 renders
the page at 72 dpi, so that an image is exactly the size asked for. Card images for the print services, the card
sheets and tiles of Tabletop Simulator all come from here."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wizprint.errors import WizprintBug

from .contact import png_image
from .pdf import PdfPainter, new_canvas
from .scene import Scene
from .units import MM

if TYPE_CHECKING:
    from .servicefigures import Placement


@dataclass(frozen=True)
class Place:
    """A face on an image: the part of it shown (``box``: mm from its trim's top-left corner, y down; it may reach
    past the face's bleed, which then shows nothing) and where that part goes (``at``: x, y from the image's
    top-left corner, width and height, in pixels)."""

    scene: Scene
    box: tuple[float, float, float, float]
    at: tuple[int, int, int, int]


@dataclass(frozen=True)
class Page:
    """An image of ``size`` pixels holding ``places``; ``alpha``: with a transparent background (tokens)."""

    size: tuple[int, int]
    places: tuple[Place, ...]
    alpha: bool = False


def card_page(scene: Scene, where: Placement) -> Page:
    """A service's image of one card: the card centred on it at the service's dpi (see services.Placement)."""
    w, h = where.size.image
    return Page((w, h), (Place(scene, where.box, (0, 0, w, h)),))


def trim_page(scene: Scene, size: tuple[int, int], alpha: bool = False, bleed: bool = False) -> Page:
    """An image of a face's trim box (with ``bleed``: its bleed box) stretched to ``size`` pixels."""
    b = scene.bleed if bleed else 0.0
    return Page(size, (Place(scene, (-b, -b, scene.w + b, scene.h + b), (0, 0, size[0], size[1])),), alpha)


def pages_pdf(pages: Sequence[Page], title: str) -> bytes:
    """The PDF of ``pages``: a page a point for each pixel, each face placed (as a form, once per design) and
    scaled to its box, clipped to it."""
    if not pages:
        raise WizprintBug("no images to draw")
    buf = io.BytesIO()
    c = new_canvas(buf, pages[0].size, title)
    painter = PdfPainter(c)
    for pg in pages:
        pw, ph = pg.size
        c.setPageSize((pw, ph))
        for pl in pg.places:
            x, y, w, h = pl.at
            x0, y0, x1, y1 = pl.box
            if x1 <= x0 or y1 <= y0 or w <= 0 or h <= 0:
                raise WizprintBug(f"an empty box for a face: {pl.box}, {pl.at}")
            c.saveState()
            if (x, y, w, h) != (0, 0, pw, ph):
                path = c.beginPath()
                path.rect(x, ph - y - h, w, h)
                c.clipPath(path, stroke=0, fill=0)
            c.translate(x, ph - y - h)  # the box's lower-left corner
            c.scale(w / ((x1 - x0) * MM), h / ((y1 - y0) * MM))
            b = pl.scene.bleed
            painter.place(pl.scene, (-b - x0) * MM, (y1 - (pl.scene.h + b)) * MM)
            c.restoreState()
        c.showPage()
    c.save()
    return buf.getvalue()


def render(pages: Sequence[Page], title: str) -> list[Any]:
    """Each page as a Pillow image of its size: RGB, or RGBA for a page with ``alpha``."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pages_pdf(pages, title))
    out = []
    try:
        for i, pg in enumerate(pages):
            page = doc[i]
            try:
                kw: dict[str, Any] = {"fill_color": (255, 255, 255, 0)} if pg.alpha else {}
                image = page.render(scale=1, **kw).to_pil()
            finally:
                page.close()
            want = "RGBA" if pg.alpha else "RGB"
            if image.mode != want:
                image = image.convert(want)
            if image.size != pg.size:
                raise WizprintBug(f"an image rendered at {image.size}, not {pg.size}")
            out.append(image)
    finally:
        doc.close()
    return out


def png_bytes(image: Any, dpi: float | None = None) -> bytes:
    """An image as PNG bytes (with the pixel density ``dpi`` it prints at, when given)."""
    return png_image(image, dpi)
