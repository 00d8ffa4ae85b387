"""Ink coverage of a build: every printed PDF page rendered (pypdfium2, 30 dpi, greyscale) and its mean darkness
(0 white paper .. 1 solid black) summed over the pages: the toner a build uses, in full-black page equivalents.

Usage: python benchmarks/ink.py FOLDER [FOLDER ...]   (each a built game folder, e.g. output/relic)"""

from __future__ import annotations

import sys
from pathlib import Path

import pypdfium2 as pdfium

DPI = 30


def page_darkness(pdf: Path) -> list[float]:
    doc = pdfium.PdfDocument(str(pdf))
    out = []
    try:
        for i in range(len(doc)):
            img = doc[i].render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
            data = img.tobytes()
            out.append(1 - sum(data) / (255 * len(data)))
    finally:
        doc.close()
    return out


def ink(folder: Path) -> tuple[float, int]:
    """Full-black page equivalents and pages, over the PDFs a player prints (not the previews)."""
    total, pages = 0.0, 0
    for pdf in sorted(folder.glob("*.pdf")):
        d = page_darkness(pdf)
        total += sum(d)
        pages += len(d)
    return total, pages


def main() -> None:
    for f in sys.argv[1:]:
        total, pages = ink(Path(f))
        print(f"{f}: {pages} pages, ink {total:.2f} black-page equivalents, mean darkness {total / pages:.3f}")


if __name__ == "__main__":
    main()
