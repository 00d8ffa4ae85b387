"""Edited copies of the shipped game folders, made the way a user edits them: records cut out of the card files (with
the counts in game.toml brought in line, so the folder still validates) and the [engine] module swapped."""

from __future__ import annotations

import re
import shutil
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wizprint.resources import cards_dir

_TABLE = re.compile(r"(?m)^\[\[(\w[\w-]*)\]\]\s*$")


def copy_game(game: str, into: Path, name: str | None = None) -> Path:
    """A copy of a shipped game's data folder."""
    dst = into / (name or game)
    shutil.copytree(cards_dir() / game, dst, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    return dst


def set_module(folder: Path, module: str) -> None:
    """The folder's [engine] module, replaced."""
    p = folder / "game.toml"
    text, n = re.subn(r'(?m)^module = ".*"$', f'module = "{module}"', p.read_text(encoding="utf-8"))
    assert n == 1
    p.write_text(text, encoding="utf-8")


def keep_records(folder: Path, keep: Callable[[str, dict[str, Any]], bool]) -> int:
    """Cut every record (``[[card]]``, ``[[space]]``...) for which ``keep(table name, record)`` is false out of the
    folder's data files, then set the counts of game.toml's decks, types and kinds to what is left; returns how many
    records were cut."""
    cut = 0
    for p in sorted(folder.glob("*.toml")):
        if p.name in ("game.toml", "vocabulary.toml"):
            continue
        text = p.read_text(encoding="utf-8")
        starts = [m.start() for m in _TABLE.finditer(text)]
        if not starts:
            continue
        parts = [text[: starts[0]]]
        for a, b in zip(starts, [*starts[1:], len(text)], strict=True):
            block = text[a:b]
            table = _TABLE.match(block)
            assert table is not None
            if keep(table.group(1), tomllib.loads(block)[table.group(1)][0]):
                parts.append(block)
            else:
                cut += 1
        p.write_text("".join(parts), encoding="utf-8")
    recount(folder)
    return cut


def recount(folder: Path) -> None:
    """Set the ``count`` of every deck, card type and record kind of game.toml to the cards (copies counted) and
    records the folder holds."""
    decl = tomllib.loads((folder / "game.toml").read_text(encoding="utf-8"))
    deck_of = {t["id"]: t.get("deck", "") for t in decl.get("types", [])}
    counts: dict[tuple[str, str], int] = {}
    for p in folder.glob("*.toml"):
        if p.name in ("game.toml", "vocabulary.toml"):
            continue
        for table, recs in tomllib.loads(p.read_text(encoding="utf-8")).items():
            if not isinstance(recs, list):
                continue
            for r in recs:
                if table == "card":
                    n = int(r.get("copies", 1))
                    counts[("types", r["type"])] = counts.get(("types", r["type"]), 0) + n
                    deck = r.get("deck") or deck_of.get(r["type"], "")
                    counts[("decks", deck)] = counts.get(("decks", deck), 0) + n
                else:
                    counts[("kinds", table)] = counts.get(("kinds", table), 0) + 1
    p = folder / "game.toml"
    lines = p.read_text(encoding="utf-8").splitlines()
    section: tuple[str, str] | None = None
    for i, ln in enumerate(lines):
        if m := re.match(r"^\[\[(decks|types)\]\]\s*$", ln):
            section = (m.group(1), "")
        elif m := re.match(r"^\[kinds\.([\w-]+)\]\s*$", ln):
            section = ("kinds", m.group(1))
        elif ln.startswith("["):
            section = None
        elif section is not None and (m := re.match(r'^id = "(.*)"$', ln)):
            section = (section[0], m.group(1))
        elif section is not None and re.match(r"^count = \d+$", ln):
            lines[i] = f"count = {counts.get(section, 0)}"
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
