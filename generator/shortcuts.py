"""The printer's shortcuts, under one switch.

A shortcut is a quicker way to the same bytes: the PDF operators of a face written in one piece (:mod:`.pdfops`),
the simplest face templates run without jinja2's render (:mod:`.layout`), and the values, items and text layouts a
:class:`~.faces.FaceBuilder` works out once and uses again. Each goes through its library's public API only, and
each has a plain way beside it that gives the same bytes; ``tests/test_print_shortcuts.py`` builds every game both
ways and compares the files.

The switch is on unless the environment sets ``WIZPRINT_SHORTCUTS=0`` (read when this module is imported, so a
build's worker processes and any ``wizprint`` process it starts agree); :func:`disabled` turns it off for a while
in this process (the tests' plain way).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

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


class ByIdentity(Generic[K, V]):
    """A table of values worked out once for each object, found by the object itself rather than by its value (for
    objects that are costly to compare, or cannot be hashed): it holds every key, so no other object can take a
    key's place while the table lives."""

    __slots__ = ("table",)

    def __init__(self) -> None:
        self.table: dict[int, tuple[K, V]] = {}

    def get(self, key: K) -> V | None:
        got = self.table.get(id(key))
        return got[1] if got is not None else None

    def put(self, key: K, value: V) -> V:
        self.table[id(key)] = (key, value)
        return value

    def __contains__(self, key: object) -> bool:
        return id(key) in self.table
