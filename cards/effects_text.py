"""A readable one-line notation for effects, used in CSV cells and logs, that parses back to the same data.

>>> fmt([Effect("on_complete", {"then": (Effect("draw", {"n": 2}),)})])
'on_complete(then=[draw(n=2)])'
>>> parse('steal(what=item); quest_bonus(n=-1)')[1].params['n']
-1
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .model import Effect

_TOKEN = re.compile(r"""\s*(?:(?P<num>-?\d+(?:\.\d+)?)|(?P<str>"(?:[^"\\]|\\.)*")|(?P<name>[A-Za-z_][A-Za-z0-9_.+-]*)"""
                    r"""|(?P<p>[()\[\]=,;{}]))""")
_BARE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.+-]*$")
MAX_BRACKETS = 32  # ( [ { open at once: effects nested about 10 deep (a deeper text is a ParseError, never a
# RecursionError)
MAX_TEXT = 1_000_000  # characters of one effect text


def _val(v: Any) -> str:
    if isinstance(v, Effect):
        return fmt([v], nested=True)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        if _BARE.match(v) and v not in ("true", "false"):
            return v
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_val(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{" + ", ".join(f"{k}={_val(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"cannot write {type(v).__name__} in effect text")


def fmt(effects: Sequence[Effect], nested: bool = False) -> str:
    """Effects as text; a nested effect always has parentheses, so it reads back as an effect, not a word."""
    return "; ".join(e.word + ("(" + ", ".join(f"{k}={_val(v)}" for k, v in e.params.items()) + ")"
                               if e.params or nested else "") for e in effects)


class ParseError(ValueError):
    pass


class _Parser:
    def __init__(self, text: str):
        self.toks: list[tuple[str, str]] = []
        self.depth = 0
        pos = 0
        text = text.strip()
        if len(text) > MAX_TEXT:
            raise ParseError(f"the effect text is {len(text):,} characters long, more than {MAX_TEXT:,}")
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ParseError(f"unexpected text at {text[pos:pos + 12]!r}")
            kind = m.lastgroup or ""
            self.toks.append((kind, m.group(kind)))
            pos = m.end()
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i] if self.i < len(self.toks) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        t = self.peek()
        if value is not None and t[1] != value:
            raise ParseError(f"expected {value!r}, found {t[1][:20] or 'the end'!r}")
        self.i += 1
        if t[1] in ("(", "[", "{"):
            self.depth += 1
            if self.depth > MAX_BRACKETS:
                raise ParseError(f"effects nest too deeply (more than {MAX_BRACKETS} brackets open at once)")
        elif t[1] in (")", "]", "}"):
            self.depth -= 1
        return t

    def effects(self, stop: str = "end") -> list[dict[str, Any]]:
        out = [self.effect()]
        while self.peek()[1] == ";":
            self.take(";")
            if self.peek()[0] == "end":
                break
            out.append(self.effect())
        return out

    def effect(self) -> dict[str, Any]:
        kind, name = self.take()
        if kind != "name":
            raise ParseError(f"expected an effect word, found {name[:20] or 'the end'!r}")
        e: dict[str, Any] = {"word": name}
        if self.peek()[1] == "(":
            self.take("(")
            while self.peek()[1] != ")":
                k = self.take()
                if k[0] != "name":
                    raise ParseError(f"expected a parameter name, found {k[1][:20] or 'the end'!r}")
                self.take("=")
                e[k[1]] = self.value()
                if self.peek()[1] == ",":
                    self.take(",")
            self.take(")")
        return e

    def value(self) -> Any:
        kind, v = self.peek()
        if kind == "num":
            self.take()
            return float(v) if "." in v else int(v)
        if kind == "str":
            self.take()
            return re.sub(r"\\(.)", r"\1", v[1:-1])
        if v == "[":
            self.take("[")
            items = []
            while self.peek()[1] != "]":
                # a nested effect looks like name( ... ) or a bare name followed by , or ] inside an effects list
                if self.peek()[0] == "name" and self.i + 1 < len(self.toks) and self.toks[self.i + 1][1] == "(":
                    items.append(self.effect())
                else:
                    items.append(self.value())
                if self.peek()[1] == ",":
                    self.take(",")
            self.take("]")
            return items
        if v == "{":
            self.take("{")
            table: dict[str, Any] = {}
            while self.peek()[1] != "}":
                k = self.take()
                self.take("=")
                table[k[1]] = self.value()
                if self.peek()[1] == ",":
                    self.take(",")
            self.take("}")
            return table
        if kind == "name":
            self.take()
            if v in ("true", "false"):
                return v == "true"
            return v
        raise ParseError(f"unexpected {v[:20] or 'end of text'!r}")


def parse_raw(text: str) -> list[dict[str, Any]]:
    """Parse effect notation into TOML-shaped tables (``{"word": ..., ...}``), not yet checked."""
    if not text.strip():
        return []
    p = _Parser(text)
    out = p.effects()
    if p.peek()[0] != "end":
        raise ParseError(f"unexpected {p.peek()[1][:20]!r} after the effects")
    return out


def parse(text: str) -> list[Effect]:
    def conv(d: Mapping[str, Any]) -> Effect:
        params = {}
        for k, v in d.items():
            if k == "word":
                continue
            if isinstance(v, list) and v and isinstance(v[0], dict) and "word" in v[0]:
                params[k] = tuple(conv(x) for x in v)
            elif isinstance(v, list):
                params[k] = tuple(v)
            else:
                params[k] = v
        return Effect(d["word"], params)

    return [conv(d) for d in parse_raw(text)]
