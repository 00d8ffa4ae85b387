"""Write records as readable TOML (inline tables for effects), e.g. after importing a CSV.

Every string is escaped so that any text (quotes, backslashes, control characters, a line that looks like a TOML
table header) reads back as the same string, and a value nested deeper than :data:`MAX_DEPTH` is refused.

>>> print(records("card", [{"id": "A1", "text": "Two\\nlines"}]))
[[card]]
id = "A1"
text = \"\"\"
Two
lines\"\"\"
<BLANKLINE>
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

MAX_DEPTH = 32
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_SPECIAL = re.compile(r'[\\"\x00-\x1f\x7f]')
_SPECIAL_NOT_LF = re.compile(r'[\\"\x00-\x09\x0b-\x1f\x7f]')
_COMMENT_BAD = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
# a line of a multi-line string that a line-based reader (cards/lines.py) could take for a header or a key
_LOOKS_LIKE_TOML = re.compile(r"^\s*(\[|[A-Za-z0-9_-]+\s*=)", re.MULTILINE)


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def string(s: str) -> str:
    """A TOML basic string (one line)."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text holds a lone surrogate character, which TOML cannot hold") from None
    return '"' + _SPECIAL.sub(_escape, s) + '"'


def value(v: Any, depth: int = 0) -> str:
    if depth > MAX_DEPTH:
        raise ValueError(f"a value is nested more than {MAX_DEPTH} deep")
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError("TOML cannot hold NaN or infinity here")
        return repr(v)
    if isinstance(v, str):
        if "\n" in v and not _LOOKS_LIKE_TOML.search(v):
            # a multi-line string: newlines stay as they are, everything else special is escaped
            string(v)  # refuses a lone surrogate
            return '"""\n' + _SPECIAL_NOT_LF.sub(_escape, v) + '"""'
        return string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x, depth + 1) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{key(k)} = {value(x, depth + 1)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def key(k: str) -> str:
    return k if _BARE.match(k) else string(k)


@dataclass
class Written:
    """Where each record and each of its keys landed in the written text (1-based lines)."""

    text: str
    starts: list[int] = field(default_factory=list)
    keys: list[dict[str, int]] = field(default_factory=list)

    def locate(self, line: int) -> tuple[int, str | None] | None:
        """(record index, key or None) of a line of the text; None before the first record."""
        found = bisect.bisect_right(self.starts, line) - 1
        if found < 0:
            return None
        keyed = [(ln, k) for k, ln in self.keys[found].items() if ln <= line]
        return found, (max(keyed)[1] if keyed else None)


def write_records(kind: str, rows: list[Mapping[str, Any]], header: str = "") -> Written:
    """:func:`records`, and the line of every record and key."""
    out = [f"# {_COMMENT_BAD.sub('?', line)}" for line in header.splitlines()] + ([""] if header else [])
    written = Written("")
    line = len(out)  # lines so far
    for r in rows:
        out.append(f"[[{kind}]]")
        line += 1
        written.starts.append(line)
        lines: dict[str, int] = {}
        for k, v in r.items():
            text = f"{key(k)} = {value(v)}"
            lines[k] = line + 1
            line += text.count("\n") + 1
            out.append(text)
        written.keys.append(lines)
        out.append("")
        line += 1
    written.text = "\n".join(out)
    return written


def records(kind: str, rows: list[Mapping[str, Any]], header: str = "") -> str:
    return write_records(kind, rows, header).text
