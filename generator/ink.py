"""How much ink a build prints: every page of its PDFs rendered (pypdfium2, greyscale) and its mean darkness, 0 for
white paper to 1 for solid black. Summed over the pages it is the toner a build uses, in full-black page
equivalents (``benchmarks/ink.py`` prints it; the ``--low-ink`` test compares two builds by it)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium


def page_darkness(pdf: Path, dpi: float = 30) -> list[float]:
    """The mean darkness of each page of ``pdf``."""
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    try:
        for i in range(len(doc)):
            data = doc[i].render(scale=dpi / 72, grayscale=True).to_pil().convert("L").tobytes()
            out.append(1 - sum(data) / (255 * len(data)))
    finally:
        doc.close()
    return out


def ink(folder: Path, dpi: float = 30) -> tuple[float, int]:
    """Full-black page equivalents and pages over the PDFs of a built game folder (what a player prints)."""
    total, pages = 0.0, 0
    for pdf in sorted(folder.glob("*.pdf")):
        d = page_darkness(pdf, dpi)
        total += sum(d)
        pages += len(d)
    return total, pages
