"""The shipped icons, read once when wizprint is released: ``layouts/icons.cache`` holds, for the bytes of each
shipped icon file, the shapes the readers of :mod:`.icons` make of them, so that a build does not parse hundreds of
SVG files at every start (Relic's 291 icons: a tenth of ``build relic``).

An entry is found by a digest of the file's bytes, never by its name or path: a file that differs by one byte from
the shipped one (an icon a designer edited, any icon of a game folder) is read by the readers as before, and the
cache only ever gives what reading the same bytes gives. The file is written by ``python scripts/icon_cache.py``
(from the readers themselves) and checked by ``tests/test_icon_cache.py``: every shipped icon is in it, as read.

Format: a header line, then a zlib-deflated :mod:`marshal` of ``{digest: entry}``, each entry itself marshalled
(so that a build unpacks only the icons it draws) as ``(view box width, shapes)``, each shape ``(segments, fill,
stroke, stroke width, even-odd)`` and each segment ``(op, points)``: plain tuples, strings and floats (marshal's
oldest formats; the file is ours, shipped inside the package like its bytecode). A file that
cannot be read as such is ignored: the icons are then parsed as they were before the cache.
"""

from __future__ import annotations

import hashlib
import marshal
import zlib
from functools import cache
from pathlib import Path
from typing import Any

from wizprint.resources import layouts_dir

from .iconshapes import Icon, Seg, Shape

HEADER = b"wizprint icon cache 2\n"
CACHE_NAME = "icons.cache"
MAX_CACHE_BYTES = 16 * 1024 * 1024  # inflated: the shipped icons take about 1.2 MiB


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def cache_file() -> Path:
    return layouts_dir() / CACHE_NAME


@cache
def _entries() -> dict[bytes, bytes]:
    try:
        return decode(cache_file().read_bytes())
    except OSError:
        return {}


def decode(raw: bytes) -> dict[bytes, bytes]:
    """The entries of a cache file's bytes, each still marshalled ({} when they are not a cache)."""
    if not raw.startswith(HEADER):
        return {}
    try:
        inflate = zlib.decompressobj()
        body = inflate.decompress(raw[len(HEADER):], MAX_CACHE_BYTES)
        if inflate.unconsumed_tail:
            return {}
        entries = marshal.loads(body)
    except (zlib.error, ValueError, EOFError, TypeError):
        return {}
    return entries if isinstance(entries, dict) else {}


def cached_icon(data: bytes, name: str) -> Icon | None:
    """The icon the readers make of ``data`` when a shipped icon file has exactly these bytes, else None."""
    packed = _entries().get(digest(data))
    if packed is None:
        return None
    try:
        size, shapes = marshal.loads(packed)
        made = tuple(Shape(tuple(tuple.__new__(Seg, s) for s in segs), fill, stroke, width, evenodd)
                     for segs, fill, stroke, width, evenodd in shapes)
        return Icon(name, made, size)
    except (TypeError, ValueError, EOFError):  # not an entry as this version writes them: read the file instead
        return None


def entry(icon: Icon) -> tuple[float, tuple[Any, ...]]:
    """An icon as the cache holds it."""
    return icon.size, tuple((tuple((s.op, s.pts) for s in sh.segs), sh.fill, sh.stroke, sh.stroke_width, sh.evenodd)
                            for sh in icon.shapes)


def shipped_icon_files() -> list[Path]:
    """Every icon file shipped with wizprint (the shared icons and each game's own)."""
    return sorted(layouts_dir().glob("icons/*.svg")) + sorted(layouts_dir().glob("*/icons/*.svg"))


def cache_bytes(read: Any) -> bytes:
    """The cache file for the shipped icons; ``read(path)`` is the readers' icon of a file (the cache unused)."""
    entries = {digest(p.read_bytes()): marshal.dumps(entry(read(p)), 4) for p in shipped_icon_files()}
    return HEADER + zlib.compress(marshal.dumps(dict(sorted(entries.items())), 4), 9)
