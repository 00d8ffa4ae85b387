"""Field specifications and value checking for the card database.

A field spec comes from a TOML table such as ``{ type = "int", min = 0, max = 12 }``. :func:`check` validates
a value against a spec and returns the normalised value (lists become tuples) and a list of problems.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .model import Effect, FieldSpec

TYPES = ("int", "str", "text", "enum", "bool", "list", "table", "effects", "ref")
_SPEC_KEYS = {"type", "label", "doc", "min", "max", "max_len", "min_len", "values", "item", "fields", "required",
              "ref", "default"}


class SpecError(ValueError):
    """A malformed field specification."""


def parse_spec(name: str, data: Any) -> FieldSpec:
    """Build a :class:`FieldSpec` from its TOML table."""
    if isinstance(data, str):
        data = {"type": data}
    if not isinstance(data, Mapping):
        raise SpecError(f"field '{name}': spec must be a table or a type name")
    unknown = set(data) - _SPEC_KEYS
    if unknown:
        raise SpecError(f"field '{name}': unknown spec key(s) {', '.join(sorted(unknown))}")
    ftype = data.get("type")
    if ftype not in TYPES:
        raise SpecError(f"field '{name}': type must be one of {', '.join(TYPES)}, not {ftype!r}")
    item = parse_spec(f"{name}[]", data["item"]) if "item" in data else None
    if ftype == "list" and item is None:
        raise SpecError(f"field '{name}': a list needs an 'item' spec")
    sub = tuple(parse_spec(k, v) for k, v in dict(data.get("fields", {})).items())
    values = tuple(str(v) for v in data.get("values", ()))
    if ftype == "enum" and not values:
        raise SpecError(f"field '{name}': an enum needs 'values'")
    return FieldSpec(
        name=name, type=ftype, label=str(data.get("label", "")), doc=str(data.get("doc", "")),
        min=data.get("min"), max=data.get("max"), max_len=data.get("max_len"), min_len=data.get("min_len"),
        values=values, item=item, fields=sub, required=tuple(data.get("required", ())),
        ref=str(data.get("ref", "")), default=data.get("default"),
    )


EffectChecker = Callable[[Any, str], tuple[tuple[Effect, ...], list[str]]]


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "a table"
    return type(value).__name__


def check(spec: FieldSpec, value: Any, where: str, effects: EffectChecker | None = None) -> tuple[Any, list[str]]:
    """Validate ``value`` against ``spec``; return (normalised value, problems)."""
    t = spec.type
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return value, [f"{where} must be an integer, not {_type_name(value)}"]
        probs = []
        if spec.min is not None and value < spec.min:
            probs.append(f"{where} = {value} is below the minimum {spec.min}")
        if spec.max is not None and value > spec.max:
            probs.append(f"{where} = {value} is above the maximum {spec.max}")
        return value, probs
    if t in ("str", "text", "ref"):
        if not isinstance(value, str):
            return value, [f"{where} must be a string, not {_type_name(value)}"]
        probs = []
        if spec.max_len is not None and len(value) > spec.max_len:
            probs.append(f"{where} is {len(value)} characters long, more than {spec.max_len}")
        if not value.strip() and spec.min_len != 0:
            probs.append(f"{where} is empty")
        return value, probs
    if t == "enum":
        if not isinstance(value, str):
            return value, [f"{where} must be one of {', '.join(spec.values)}, not {_type_name(value)}"]
        if value not in spec.values:
            return value, [f"{where} = {value!r} is not one of {', '.join(spec.values)}"]
        return value, []
    if t == "bool":
        if not isinstance(value, bool):
            return value, [f"{where} must be true or false, not {_type_name(value)}"]
        return value, []
    if t == "list":
        if not isinstance(value, (list, tuple)):
            return value, [f"{where} must be a list, not {_type_name(value)}"]
        probs = []
        if spec.min_len is not None and len(value) < spec.min_len:
            probs.append(f"{where} has {len(value)} items, fewer than {spec.min_len}")
        if spec.max_len is not None and len(value) > spec.max_len:
            probs.append(f"{where} has {len(value)} items, more than {spec.max_len}")
        out = []
        assert spec.item is not None
        for i, v in enumerate(value):
            nv, p = check(spec.item, v, f"{where}[{i + 1}]", effects)
            out.append(nv)
            probs.extend(p)
        return tuple(out), probs
    if t == "table":
        if not isinstance(value, Mapping):
            return value, [f"{where} must be a table, not {_type_name(value)}"]
        return check_table(spec.fields, spec.required, value, where, effects)
    if t == "effects":
        if effects is None:
            return value, [f"{where}: effects are not allowed here"]
        return effects(value, where)
    raise SpecError(f"unknown field type {t!r}")  # pragma: no cover - parse_spec rejects it


def check_table(specs: tuple[FieldSpec, ...], required: tuple[str, ...], value: Mapping[str, Any], where: str,
                effects: EffectChecker | None = None) -> tuple[dict[str, Any], list[str]]:
    by_name = {s.name: s for s in specs}
    probs: list[str] = []
    out: dict[str, Any] = {}
    for k, v in value.items():
        s = by_name.get(k)
        if s is None:
            probs.append(f"{where}: unknown key '{k}' (allowed: {', '.join(by_name) or 'none'})")
            continue
        nv, p = check(s, v, f"{where}.{k}", effects)
        out[k] = nv
        probs.extend(p)
    for r in required:
        if r not in value:
            probs.append(f"{where}: missing '{r}'")
    for s in specs:
        if s.name not in out and s.default is not None:
            out[s.name] = s.default
    return out, probs
