"""Numbers read from a user's file are finite.

TOML has ``nan`` and ``inf``, Python's JSON reads ``NaN``, ``Infinity`` and ``-Infinity``, and a number too large
for a float (``1e400``) reads as infinity in both. No value wizprint reads from a file may be any of them, so every
TOML and JSON file a user hands over (game folders, scenario files, saved games, manifests) is parsed by
:func:`loads_toml` or :func:`loads_json`, which refuse such a number with :class:`NonFinite`, naming its key.
"""

from __future__ import annotations

import json
import math
from typing import Any

import tomli

KeyPath = tuple[str | int, ...]


class NonFinite(ValueError):
    """A number in a file that is not finite: ``path`` is its key path, ``literal`` the text written."""

    def __init__(self, path: KeyPath, literal: str):
        self.path = path
        self.literal = literal
        super().__init__(f"{json_path(path) or '(the whole file)'}: {literal} is not a finite number")


class _Marker:
    """Stands for a number that is not finite while a file is parsed (found afterwards, with its key path)."""

    __slots__ = ("literal",)

    def __init__(self, literal: str):
        self.literal = literal


class _Parse:
    def __init__(self) -> None:
        self.found = False

    def number(self, text: str) -> Any:
        value = float(text)
        if math.isfinite(value):
            return value
        self.found = True
        return _Marker(text[:40])

    def constant(self, text: str) -> Any:  # JSON's NaN, Infinity, -Infinity
        self.found = True
        return _Marker(text)

    def check(self, data: Any) -> None:
        if self.found:
            path, marker = _first_marker(data)
            raise NonFinite(path, marker.literal)


def loads_toml(text: str) -> dict[str, Any]:
    """:func:`tomli.loads` that refuses a number that is not finite (:class:`NonFinite`)."""
    p = _Parse()
    data: dict[str, Any] = tomli.loads(text, parse_float=p.number)
    p.check(data)
    return data


def loads_json(text: str | bytes) -> Any:
    """:func:`json.loads` that refuses a number that is not finite (:class:`NonFinite`)."""
    p = _Parse()
    data = json.loads(text, parse_float=p.number, parse_constant=p.constant)
    p.check(data)
    return data


def _first_marker(data: Any) -> tuple[KeyPath, _Marker]:
    """The key path of the first marker in ``data`` (in the file's order; without recursion, however deep)."""
    stack: list[tuple[KeyPath, Any]] = [((), data)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, _Marker):
            return path, v
        if isinstance(v, dict):
            stack.extend(reversed([((*path, k), x) for k, x in v.items()]))
        elif isinstance(v, list):
            stack.extend(reversed([((*path, i), x) for i, x in enumerate(v)]))
    raise AssertionError("a marker was made but is not in the data")  # pragma: no cover


def json_path(path: KeyPath) -> str:
    """``("state", "hands", 1, 3)`` -> ``state.hands[1][3]`` (as a saved game's problems name their place)."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + str(part)
    return out
