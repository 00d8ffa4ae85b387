"""The shipped icon cache (layouts/icons.cache): it holds every shipped icon exactly as the readers read it, it is
found by the file's bytes only (an edited icon is read afresh), and a cache that cannot be read is ignored."""

from __future__ import annotations

import marshal
from pathlib import Path

import pytest

from wizprint.generator import iconcache
from wizprint.generator.iconcache import cached_icon, shipped_icon_files
from wizprint.generator.icons import Icon, read_icon_file

STALE = "layouts/icons.cache is out of date: run python scripts/icon_cache.py"


def _same(a: Icon, b: Icon) -> bool:
    return a.name == b.name and a.size == b.size and a.shapes == b.shapes


def test_every_shipped_icon_is_cached_as_the_readers_read_it() -> None:
    files = shipped_icon_files()
    assert len(files) > 300  # the shared icons and Relic's own
    for path in files:
        data = path.read_bytes()
        known = cached_icon(data, path.stem)
        assert known is not None, f"{path.name}: {STALE}"
        assert _same(known, read_icon_file(path, path.stem, cached=False)), f"{path.name}: {STALE}"
        assert _same(read_icon_file(path, path.stem), known)


def test_an_edited_icon_is_read_from_its_file_not_the_cache(tmp_path: Path) -> None:
    shipped = next(p for p in shipped_icon_files() if b'd="M' in p.read_bytes())
    data = shipped.read_bytes()
    edited = tmp_path / shipped.name
    edited.write_bytes(data.replace(b'd="M', b'd="M 1 1 L 2 2 Z M', 1))  # one more sub-path in front
    assert cached_icon(edited.read_bytes(), shipped.stem) is None
    fresh = read_icon_file(edited, shipped.stem)
    assert _same(fresh, read_icon_file(edited, shipped.stem, cached=False))
    original = read_icon_file(shipped, shipped.stem)
    assert fresh.shapes != original.shapes
    assert fresh.shapes[0].segs[:3] != original.shapes[0].segs[:3]
    assert [s.op for s in fresh.shapes[0].segs[:3]] == ["M", "L", "Z"]


@pytest.mark.parametrize("content", [b"", b"not a cache", iconcache.HEADER + b"garbage",
                                     iconcache.HEADER + __import__("zlib").compress(b"\x00" * 10)])
def test_a_cache_that_cannot_be_read_is_ignored(content: bytes, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "icons.cache"
    bad.write_bytes(content)
    monkeypatch.setattr(iconcache, "cache_file", lambda: bad)
    iconcache._entries.cache_clear()
    try:
        path = shipped_icon_files()[0]
        assert cached_icon(path.read_bytes(), path.stem) is None
        assert _same(read_icon_file(path, path.stem), read_icon_file(path, path.stem, cached=False))
    finally:
        iconcache._entries.cache_clear()


def test_the_cache_writer_reproduces_the_shipped_file() -> None:
    def unpacked(raw: bytes) -> dict[bytes, object]:
        return {k: marshal.loads(v) for k, v in iconcache.decode(raw).items()}

    shipped = unpacked(iconcache.cache_file().read_bytes())
    written = unpacked(iconcache.cache_bytes(lambda p: read_icon_file(Path(p), Path(p).stem, cached=False)))
    assert written and written == shipped, STALE  # no entry missing, none left over from a removed icon
