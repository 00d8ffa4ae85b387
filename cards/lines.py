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


# -- any key of a TOML file, by its path ---------------------------------------------------------------------

Path = tuple[str | int, ...]
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _keys(text: str) -> list[str] | None:
    """The parts of a dotted key (``a."b c".d``); None when it is not one."""
    out: list[str] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return None
        if text[i] in "\"'":
            q = text[i]
            j = i + 1
            buf = []
            while j < n and text[j] != q:
                if q == '"' and text[j] == "\\" and j + 1 < n:
                    j += 1
                buf.append(text[j])
                j += 1
            if j >= n:
                return None
            out.append("".join(buf))
            i = j + 1
        else:
            m = _BARE_KEY.match(text, i)
            if not m:
                return None
            out.append(m.group(0))
            i = m.end()
        while i < n and text[i] in " \t":
            i += 1
        if i >= n:
            return out
        if text[i] != ".":
            return None
        i += 1


def _scan(text: str, ml: str, depth: int) -> tuple[str, int]:
    """Carry a value across lines: ``ml`` is the open multi-line string's quotes ('' when none), ``depth`` the
    count of open brackets. Returns the state at the end of ``text``."""
    i, n = 0, len(text)
    while i < n:
        if ml:
            j = text.find(ml, i)
            if j < 0:
                return ml, depth
            if ml == '"""':  # skip escaped quotes
                k, bs = j - 1, 0
                while k >= i and text[k] == "\\":
                    bs += 1
                    k -= 1
                if bs % 2:
                    i = j + 1
                    continue
            i = j + 3
            while i < n and text[i] == ml[0]:  # up to two more quotes belong to the string
                i += 1
            ml = ""
            continue
        ch = text[i]
        if ch == "#":
            return ml, depth
        if text.startswith('"""', i) or text.startswith("'''", i):
            ml = text[i:i + 3]
            i += 3
            continue
        if ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if ch == '"' and text[j] == "\\" else 1
            i = j + 1
            continue
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return ml, depth


class TomlLines:
    """The line of every table header and key of a TOML file, by path: ``("decks", 0, "count")`` is the
    ``count`` key of the first ``[[decks]]`` table. Keys inside inline tables and arrays are found at the line of
    the key that holds them. :meth:`line` gives the line of the longest known prefix of a path."""

    def __init__(self, text: str):
        self.paths: dict[Path, int] = {}
        arrays: dict[Path, int] = {}  # array-of-tables path -> index of its last table
        current: Path = ()
        ml, depth = "", 0
        for no, line in enumerate(text.splitlines(), start=1):
            if ml or depth:
                ml, depth = _scan(line, ml, depth)
                continue
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            if s.startswith("[["):
                end = s.find("]]")
                keys = _keys(s[2:end]) if end > 0 else None
                if keys:
                    full = (*self._concrete(keys[:-1], arrays), keys[-1])
                    idx = arrays.get(full, -1) + 1
                    arrays[full] = idx
                    current = (*full, idx)
                    self.paths.setdefault(full, no)
                    self.paths[current] = no
                continue
            if s.startswith("["):
                end = s.find("]")
                keys = _keys(s[1:end]) if end > 0 else None
                if keys:
                    current = self._concrete(keys, arrays)
                    self.paths.setdefault(current, no)
                continue
            eq = _key_end(s)
            if eq < 0:
                continue
            keys = _keys(s[:eq])
            if keys:
                self.paths.setdefault((*current, *keys), no)
            ml, depth = _scan(s[eq + 1:], "", 0)

    @staticmethod
    def _concrete(keys: list[str], arrays: dict[Path, int]) -> Path:
        out: list[str | int] = []
        for k in keys:
            out.append(k)
            t = tuple(out)
            if t in arrays:
                out.append(arrays[t])
        return tuple(out)

    def line(self, path: Path) -> int:
        """The line of ``path`` or of its longest prefix that the file names (0 when none)."""
        p = tuple(path)
        while p:
            no = self.paths.get(p)
            if no is not None:
                return no
            p = p[:-1]
        return 0


def _key_end(s: str) -> int:
    """The index of the ``=`` that ends the key of a ``key = value`` line (-1 when there is none)."""
    i, n = 0, len(s)
    while i < n:
        ch = s[i]
        if ch in "\"'":
            j = s.find(ch, i + 1)
            if j < 0:
                return -1
            i = j + 1
            continue
        if ch == "=":
            return i
        if ch == "#":
            return -1
        i += 1
    return -1
