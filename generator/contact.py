"""PNG contact sheets: every distinct face of a deck in a grid, rendered with pypdfium2."""

from __future__ import annotations

import io

import pypdfium2 as pdfium

from .pdf import PdfPainter, new_canvas
from .scene import Scene
from .units import MM

GAP = 3.0  # mm


def contact_png(title: str, scenes: list[Scene], dpi: float = 60.0, columns: int = 9) -> bytes:
    """A PNG showing the faces at ``dpi``, trimmed (no bleed), in reading order."""
    if not scenes:
        raise ValueError("no faces to show")
    w, h = scenes[0].w, scenes[0].h
    cols = min(columns, len(scenes))
    rows = (len(scenes) + cols - 1) // cols
    pw, ph = GAP + cols * (w + GAP), GAP + rows * (h + GAP)
    buf = io.BytesIO()
    c = new_canvas(buf, (pw * MM, ph * MM), title)
    painter = PdfPainter(c)
    c.setFillColorRGB(0.85, 0.85, 0.85)
    c.rect(0, 0, pw * MM, ph * MM, stroke=0, fill=1)
    for i, sc in enumerate(scenes):
        r, col = divmod(i, cols)
        x = GAP + col * (w + GAP)
        y = ph - (GAP + r * (h + GAP)) - h
        c.saveState()
        p = c.beginPath()
        p.rect(x * MM, y * MM, sc.w * MM, sc.h * MM)
        c.clipPath(p, stroke=0, fill=0)
        painter.place(sc, (x - sc.bleed) * MM, (y - sc.bleed) * MM)
        c.restoreState()
    c.showPage()
    c.save()
    pdf = pdfium.PdfDocument(buf.getvalue())
    try:
        page = pdf[0]
        bitmap = page.render(scale=dpi / 72.0)
        img = bitmap.to_pil()
        out = io.BytesIO()
        img.save(out, format="PNG", optimize=False)
        return out.getvalue()
    finally:
        pdf.close()
