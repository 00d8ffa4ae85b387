"""Write records as readable TOML (inline tables for effects), e.g. after importing a CSV."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            raise ValueError("TOML cannot hold NaN or infinity here")
        return repr(v)
    if isinstance(v, str):
        if "\n" in v:
            body = v.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
            return '"""\n' + body + '"""'
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def key(k: str) -> str:
    return k if _BARE.match(k) else json.dumps(k)


def records(kind: str, rows: list[Mapping[str, Any]], header: str = "") -> str:
    out = [f"# {line}" for line in header.splitlines()] + ([""] if header else [])
    for r in rows:
        out.append(f"[[{kind}]]")
        for k, v in r.items():
            out.append(f"{key(k)} = {value(v)}")
        out.append("")
    return "\n".join(out)
