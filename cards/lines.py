"""Find the line of a record, a key or an effect in a TOML file (tomllib does not report positions)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_.-]+)\s*\]\]\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")
_WORD = re.compile(r"""\bword\s*=\s*["']""")


@dataclass
class RecordLines:
    start: int
    end: int
    keys: dict[str, int] = field(default_factory=dict)
    effects: list[int] = field(default_factory=list)


class LineMap:
    """Maps the n-th ``[[kind]]`` table of a file to its lines."""

    def __init__(self, text: str):
        self.records: dict[str, list[RecordLines]] = {}
        lines = text.splitlines()
        self.lines = lines
        current: RecordLines | None = None
        for no, line in enumerate(lines, start=1):
            m = _HEADER.match(line)
            if m:
                if current is not None:
                    current.end = no - 1
                current = RecordLines(no, len(lines))
                self.records.setdefault(m.group(1), []).append(current)
                continue
            if line.lstrip().startswith("[") and current is not None and not line.lstrip().startswith("[["):
                # a sub-table of the current record, e.g. [card.extra]: keep the record open
                continue
            if current is None:
                continue
            km = _KEY.match(line)
            if km and km.group(1) not in current.keys:
                current.keys[km.group(1)] = no
            for _ in _WORD.finditer(line):
                current.effects.append(no)

    def record(self, kind: str, index: int) -> RecordLines | None:
        recs = self.records.get(kind, [])
        return recs[index] if 0 <= index < len(recs) else None

    def find(self, kind: str, index: int, needle: str) -> int:
        """First line of the record that contains ``needle`` (0 when none does)."""
        r = self.record(kind, index)
        if r is None:
            return 0
        for no in range(r.start, r.end + 1):
            if needle in self.lines[no - 1]:
                return no
        return 0

    def line(self, kind: str, index: int, key: str | None = None, effect: int | None = None) -> int:
        """Best line for a record (``index`` counts from 0), one of its keys, or its n-th effect word."""
        r = self.record(kind, index)
        if r is None:
            return 0
        if effect is not None and 0 <= effect < len(r.effects):
            return r.effects[effect]
        if key is not None and key in r.keys:
            return r.keys[key]
        return r.start
