"""The printer's shortcuts, under one switch.

A shortcut is a quicker way to the same bytes, through its library's public API only:

- a face's PDF operators written in one piece and handed to reportlab's canvas through ``addLiteral`` and
  ``doForm`` (:mod:`.pdfops`), instead of one canvas call for each shape and text;
- what a :class:`~.faces.FaceBuilder` works out once and uses again: the values of an element's properties without
  templates, the values of templates that only read what is the same for a whole deck, and the item an element
  drew for the same values of its templates.

Each has a plain way beside it that gives the same bytes; ``tests/test_print_shortcuts.py`` builds every game both
ways and compares the files.

The switch is on unless the environment sets ``WIZPRINT_SHORTCUTS=0`` (read when this module is imported, so a
build's worker processes and any ``wizprint`` process it starts agree); :func:`disabled` turns it off for a while
in this process (the tests' plain way).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

_on = [os.environ.get("WIZPRINT_SHORTCUTS", "1") != "0"]


def enabled() -> bool:
    """Whether the printer takes its shortcuts (see the module's docstring)."""
    return _on[0]


@contextmanager
def disabled() -> Iterator[None]:
    """Every shortcut off while the block runs (in this process, and in the workers a build forks meanwhile)."""
    was = _on[0]
    _on[0] = False
    try:
        yield
    finally:
        _on[0] = was
