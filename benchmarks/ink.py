"""Ink coverage of a build (see wizprint.generator.ink): the mean darkness of every printed page, summed.

Usage: python benchmarks/ink.py FOLDER [FOLDER ...]   (each a built game folder, e.g. output/relic)"""

from __future__ import annotations

import sys
from pathlib import Path

from results import recorded

from wizprint.generator.ink import ink


def main() -> None:
    for f in sys.argv[1:]:
        total, pages = ink(Path(f))
        print(f"{f}: {pages} pages, ink {total:.2f} black-page equivalents, mean darkness {total / pages:.3f}")


if __name__ == "__main__":
    with recorded("ink coverage"):
        main()
