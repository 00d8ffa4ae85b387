"""Write ``layouts/icons.cache``: the shipped icons as their readers read them (see wizprint.generator.iconcache).
Run it after adding or changing a shipped icon: python scripts/icon_cache.py (tests/test_icon_cache.py fails until
the cache matches the icons)."""

from __future__ import annotations

from pathlib import Path

from wizprint.generator.iconcache import CACHE_NAME, cache_bytes, shipped_icon_files
from wizprint.generator.icons import read_icon_file


def main() -> None:
    data = cache_bytes(lambda p: read_icon_file(Path(p), Path(p).stem, cached=False))
    target = Path(__file__).resolve().parent.parent / "layouts" / CACHE_NAME  # the source tree's
    target.write_bytes(data)
    print(f"{target}: {len(shipped_icon_files())} icons, {len(data):,} bytes")


if __name__ == "__main__":
    main()
