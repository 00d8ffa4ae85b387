"""Field specifications and value checking for the card database, the limits every data file is held to, and the
small declarative checks (:class:`Table`, :class:`Str`, :class:`Number`...) that the schemas of ``game.toml``,
``vocabulary.toml`` and the layout files are written in.

A field spec comes from a TOML table such as ``{ type = "int", min = 0, max = 12 }``. :func:`check` validates
a value against a spec and returns the normalised value (lists become tuples) and a list of problems.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from wizprint.errors import Issue, quote

from .lines import TomlLines
from .model import Effect, FieldSpec

TYPES = ("int", "str", "text", "enum", "bool", "list", "table", "effects", "ref")
_SPEC_KEYS = {"type", "label", "doc", "min", "max", "max_len", "min_len", "values", "item", "fields", "required",
              "ref", "default"}

# -- limits: every count, size and depth a data file can ask for ---------------------------------------------
MAX_FILE_BYTES = 16 * 1024 * 1024  # one data file (TOML, CSV, SVG icon...)
MAX_FOLDER_BYTES = 64 * 1024 * 1024  # all the data files of a game folder together
MAX_DATA_FILES = 200  # *.toml files in a game folder
MAX_RECORDS = 10_000  # records (card designs and others) in a game
MAX_PHYSICAL_CARDS = 10_000  # cards of a game, copies counted
MAX_COPIES = 1_000  # copies of one card design
MAX_NAME_LEN = 200  # a record's name
MAX_TEXT_LEN = 5_000  # a record's rules text or flavour text
MAX_STR_LEN = 10_000  # any string field that declares no max_len
MAX_LIST_LEN = 1_000  # any list field that declares no max_len
MAX_EFFECT_DEPTH = 10  # effects inside effects inside effects...
MAX_SPEC_DEPTH = 6  # field specs inside field specs (list items, table fields)
MAX_DECLS = 500  # decks, types, kinds, components or fields declared in game.toml

SAFE_ID = re.compile(r"^(?!\.)[A-Za-z0-9._-]{1,64}$")
SAFE_ID_RULE = "1-64 letters, digits, '-', '_' or '.', not starting with a dot"
FIELD_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,63}$")
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def id_problem(value: Any, what: str = "id") -> str | None:
    """Why ``value`` cannot be an id that becomes part of a file name (None when it can)."""
    if not isinstance(value, str):
        return f"{what} must be a string, not {_type_name(value)}"
    if not SAFE_ID.match(value):
        return f"{what} {quote(value)} must be {SAFE_ID_RULE}"
    return None


def human_path(loc: tuple[str | int, ...]) -> str:
    """``("decks", 0, "count")`` -> ``decks[1].count`` (items counted from 1, as people count)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            out += ("." if out else "") + (part if FIELD_NAME.match(part) or SAFE_ID.match(part) else quote(part))
    return out


# -- declarative checks of data files ---------------------------------------------------------------------------
# A schema is a tree of small checks (Str, Whole, Number, Flag, OneOf, ListOf, TableOf, Table). ``check_data`` runs
# it over a file's data and gives the data back with defaults filled in (tables as :class:`Rec`, readable as
# attributes), and one (path, message) problem per thing that is wrong; :func:`schema_issues` puts each problem at
# the line of its key. pydantic does the same, but importing it and building its models took about 0.1 s, paid by
# every command that reads a game (a quarter of `wizprint validate`); these checks cost nothing to import and say
# each problem in the words the rest of wizprint uses.

Loc = tuple[str | int, ...]
Problems = list[tuple[Loc, str]]


def _shown_value(value: Any) -> str:
    return quote(value)


class Rec(dict[str, Any]):
    """A checked table: its keys are also attributes (``rec.players.min``)."""

    def copy(self) -> Rec:  # a default table is copied as a Rec, keeping its attributes
        return Rec(self)

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Check:
    """One check of a value: ``run`` returns the value (normalised) and adds problems; ``then`` adds a test of the
    whole value that returns a problem (or None)."""

    def __init__(self, then: Callable[[Any], str | None] | None = None):
        self._then = then

    def run(self, value: Any, loc: Loc, out: Problems) -> Any:
        n = len(out)
        value = self.check(value, loc, out)
        if self._then is not None and len(out) == n:
            problem = self._then(value)
            if problem:
                out.append((loc, problem))
        return value

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        return value


class Anything(Check):
    pass


class Str(Check):
    """A string of at most ``most`` characters (at least ``least``), without control characters (\\t, \\n allowed)."""

    def __init__(self, most: int = MAX_STR_LEN, least: int = 0, then: Callable[[Any], str | None] | None = None):
        super().__init__(then)
        self.most, self.least = most, least

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if not isinstance(value, str):
            out.append((loc, f"must be text (a string), not {_shown_value(value)}"))
        elif len(value) > self.most:
            out.append((loc, f"is {len(value):,} characters long, more than {self.most:,}"))
        elif len(value) < self.least:
            out.append((loc, "must not be empty"))
        elif (bad := CONTROL.search(value)) is not None:
            out.append((loc, f"holds a control character (character {bad.start() + 1})"))
        return value


class Whole(Check):
    """A whole number from ``lo`` to ``hi`` (true and false are not numbers)."""

    def __init__(self, lo: int, hi: int, then: Callable[[Any], str | None] | None = None):
        super().__init__(then)
        self.lo, self.hi = lo, hi

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            out.append((loc, f"must be a whole number, not {_shown_value(value)}"))
        elif value < self.lo:
            out.append((loc, f"must be at least {self.lo}, not {value}"))
        elif value > self.hi:
            out.append((loc, f"must be at most {self.hi}, not {value}"))
        return value


class Number(Check):
    """A finite number from ``lo`` to ``hi`` (above ``lo`` when ``above``); given back as a float."""

    def __init__(self, lo: float, hi: float, above: bool = False, then: Callable[[Any], str | None] | None = None):
        super().__init__(then)
        self.lo, self.hi, self.above = lo, hi, above

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            out.append((loc, f"must be a number, not {_shown_value(value)}"))
            return value
        v = float(value)
        if not math.isfinite(v):
            out.append((loc, f"must be a finite number, not {_shown_value(value)}"))
        elif v < self.lo or (self.above and v <= self.lo):
            out.append((loc, f"must be {'more than' if self.above else 'at least'} {self.lo:g}, not {value:g}"))
        elif v > self.hi:
            out.append((loc, f"must be at most {self.hi:g}, not {value:g}"))
        return v


class Flag(Check):
    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if not isinstance(value, bool):
            out.append((loc, f"must be true or false, not {_shown_value(value)}"))
        return value


class OneOf(Check):
    def __init__(self, *values: str):
        super().__init__()
        self.values = values

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if not isinstance(value, str) or value not in self.values:
            out.append((loc, f"must be one of {', '.join(self.values)}, not {_shown_value(value)}"))
        return value


class ListOf(Check):
    """A list of ``least`` to ``most`` items, each checked by ``item``."""

    def __init__(self, item: Check, most: int = MAX_LIST_LEN, least: int = 0,
                 then: Callable[[Any], str | None] | None = None):
        super().__init__(then)
        self.item, self.most, self.least = item, most, least

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if not isinstance(value, list):
            out.append((loc, f"must be a list, not {_shown_value(value)}"))
            return value
        if not self.least <= len(value) <= self.most:
            size = f"{self.least:,}" if self.least == self.most else (
                f"at most {self.most:,}" if not self.least else f"{self.least:,} to {self.most:,}")
            out.append((loc, f"must have {size} item{'s' if self.most != 1 else ''}, not {len(value):,}"))
            return value
        return [self.item.run(v, (*loc, i), out) for i, v in enumerate(value)]


class TableOf(Check):
    """A table whose keys are checked by ``key`` (a function giving a problem or None) and values by ``value``."""

    def __init__(self, value: Check, key: Callable[[str], str | None] | None = None, most: int = MAX_DECLS,
                 least: int = 0):
        super().__init__()
        self.value, self.key, self.most, self.least = value, key, most, least

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if not isinstance(value, Mapping):
            out.append((loc, f"must be a table, not {_shown_value(value)}"))
            return value
        if not self.least <= len(value) <= self.most:
            out.append((loc, f"must have {self.least:,} to {self.most:,} keys, not {len(value):,}"))
            return value
        result = {}
        for k, v in value.items():
            problem = self.key(k) if self.key is not None else None
            if problem:
                out.append(((*loc, k), problem))
                continue
            result[k] = self.value.run(v, (*loc, k), out)
        return result


REQUIRED = object()  # the default of a key that must be given


class Table(Check):
    """A table with known keys: ``fields`` maps each key to its check, or to (check, default); a key without a
    default is required. Unknown keys are problems."""

    def __init__(self, fields: Mapping[str, Check | tuple[Check, Any]],
                 then: Callable[[Any], str | None] | None = None):
        super().__init__(then)
        self.fields = {k: (v, REQUIRED) if isinstance(v, Check) else v for k, v in fields.items()}

    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if not isinstance(value, Mapping):
            out.append((loc, f"must be a table, not {_shown_value(value)}"))
            return value
        rec = Rec()
        for k in value:
            if k not in self.fields:
                out.append(((*loc, k), f"unknown key {quote(k)}"))
        for k, (check, default) in self.fields.items():
            if k in value:
                rec[k] = check.run(value[k], (*loc, k), out)
            elif default is REQUIRED:
                out.append(((*loc, k), f"missing {quote(k)}"))
            else:
                rec[k] = default.copy() if isinstance(default, (list, dict)) else default
        return rec


def check_data(schema: Check, data: Any) -> tuple[Any, Problems]:
    """Run a schema over a file's data: (the data with defaults, problems)."""
    out: Problems = []
    result = schema.run(data, (), out)
    return result, out


def schema_issues(problems: Problems, shown: str, lines: TomlLines | None, card: str = "") -> list[Issue]:
    """One :class:`Issue` per problem, at the line of its key: ``decks[1].count: must be a whole number``. A
    problem about an unknown or missing key is told of the table that holds it."""
    out = []
    for loc, message in problems:
        where = human_path(loc[:-1] if message.startswith(("unknown key", "missing")) else loc)
        out.append(Issue(shown, lines.line(loc) if lines is not None else 0, card,
                         f"{where}: {message}" if where else message))
    return out


def safe_id_key(value: str) -> str | None:
    return id_problem(value)


def field_name_key(value: str) -> str | None:
    if not FIELD_NAME.match(value):
        return f"name {quote(value)} must be a letter then up to 63 letters, digits, '_' or '-'"
    return None


class _SafeId(Check):
    def check(self, value: Any, loc: Loc, out: Problems) -> Any:
        if not isinstance(value, str):
            out.append((loc, f"must be text (a string), not {_shown_value(value)}"))
        elif (problem := id_problem(value)) is not None:
            out.append((loc, problem))
        return value


def SafeId() -> Check:  # reads like a type in a schema
    """An id that becomes part of a file name (:data:`SAFE_ID`)."""
    return _SafeId()


def Name() -> Check:
    return Str(MAX_NAME_LEN)


def Doc() -> Check:
    return Str(MAX_STR_LEN)


def Count() -> Check:
    return Whole(0, MAX_PHYSICAL_CARDS)


class SpecError(ValueError):
    """A malformed field specification."""


def _whole(data: Mapping[str, Any], key: str, name: str, lo: int | None = None) -> int | None:
    v = data.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or (lo is not None and v < lo):
        floor = f" of at least {lo}" if lo is not None else ""
        raise SpecError(f"field '{name}': {key} must be a whole number{floor}, not {quote(v)}")
    return v


def _text(data: Mapping[str, Any], key: str, name: str) -> str:
    v = data.get(key, "")
    if not isinstance(v, str) or len(v) > MAX_STR_LEN:
        raise SpecError(f"field '{name}': {key} must be a string of at most {MAX_STR_LEN:,} characters")
    return v


def _names(data: Mapping[str, Any], key: str, name: str, shortest: int = 1) -> tuple[str, ...]:
    v = data.get(key, ())
    if not isinstance(v, (list, tuple)) or len(v) > MAX_LIST_LEN or not all(
            isinstance(x, str) and shortest <= len(x) <= MAX_NAME_LEN and not CONTROL.search(x) for x in v):
        raise SpecError(f"field '{name}': {key} must be a list of at most {MAX_LIST_LEN:,} strings")
    return tuple(v)


def parse_spec(name: str, data: Any, depth: int = 0) -> FieldSpec:
    """Build a :class:`FieldSpec` from its TOML table (a type name is short for ``{ type = name }``)."""
    if depth > MAX_SPEC_DEPTH:
        raise SpecError(f"field '{name}': specs nest more than {MAX_SPEC_DEPTH} deep")
    if isinstance(data, str):
        data = {"type": data}
    if not isinstance(data, Mapping):
        raise SpecError(f"field '{name}': spec must be a table or a type name, not {_type_name(data)}")
    unknown = set(data) - _SPEC_KEYS
    if unknown:
        raise SpecError(f"field '{name}': unknown spec key(s) {quote(', '.join(sorted(map(str, unknown))))}")
    ftype = data.get("type")
    if ftype not in TYPES:
        raise SpecError(f"field '{name}': type must be one of {', '.join(TYPES)}, not {quote(ftype)}")
    item = parse_spec(f"{name}[]", data["item"], depth + 1) if "item" in data else None
    if ftype == "list" and item is None:
        raise SpecError(f"field '{name}': a list needs an 'item' spec")
    fields = data.get("fields", {})
    if not isinstance(fields, Mapping) or len(fields) > MAX_DECLS:
        raise SpecError(f"field '{name}': fields must be a table of field specs")
    for k in fields:
        if not FIELD_NAME.match(k):
            raise SpecError(f"field '{name}': sub-field name {quote(k)} must be a letter then letters, digits, _ or -")
    sub = tuple(parse_spec(k, v, depth + 1) for k, v in fields.items())
    values = _names(data, "values", name, shortest=0)
    if ftype == "enum" and not values:
        raise SpecError(f"field '{name}': an enum needs 'values'")
    lo, hi = _whole(data, "min", name), _whole(data, "max", name)
    if lo is not None and hi is not None and lo > hi:
        raise SpecError(f"field '{name}': min {lo} is above max {hi}")
    min_len, max_len = _whole(data, "min_len", name, 0), _whole(data, "max_len", name, 0)
    required = _names(data, "required", name)
    for r in required:
        if r not in fields:
            raise SpecError(f"field '{name}': required names {quote(r)}, which is not one of its fields")
    return FieldSpec(
        name=name, type=ftype, label=_text(data, "label", name), doc=_text(data, "doc", name),
        min=lo, max=hi, max_len=max_len, min_len=min_len,
        values=values, item=item, fields=sub, required=required,
        ref=_text(data, "ref", name), default=data.get("default"),
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
        most = spec.max_len if spec.max_len is not None else MAX_STR_LEN
        if len(value) > most:
            probs.append(f"{where} is {len(value):,} characters long, more than {most:,}")
        elif (bad := CONTROL.search(value)) is not None:
            probs.append(f"{where} holds a control character (character {bad.start() + 1})")
        if not value.strip() and spec.min_len != 0:
            probs.append(f"{where} is empty")
        return value, probs
    if t == "enum":
        if not isinstance(value, str):
            return value, [f"{where} must be one of {', '.join(spec.values)}, not {_type_name(value)}"]
        if value not in spec.values:
            return value, [f"{where} = {quote(value)} is not one of {', '.join(spec.values)}"]
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
        most = spec.max_len if spec.max_len is not None else MAX_LIST_LEN
        if len(value) > most:
            return value, [*probs, f"{where} has {len(value):,} items, more than {most:,}"]
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
    if len(value) > MAX_LIST_LEN:
        return out, [f"{where} has {len(value):,} keys, more than {MAX_LIST_LEN:,}"]
    for k, v in value.items():
        s = by_name.get(k)
        if s is None:
            probs.append(f"{where}: unknown key {quote(k)} (allowed: {', '.join(by_name) or 'none'})")
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


# -- game.toml ----------------------------------------------------------------------------------------------

def _vocabulary_file(value: str) -> str | None:
    if not SAFE_ID.match(value) or not value.endswith(".toml"):
        return f"must name a .toml file in the game folder ({SAFE_ID_RULE}), not {quote(value)}"
    return None


def _players_ordered(players: Rec) -> str | None:
    return f"min ({players.min}) is more than max ({players.max})" if players.min > players.max else None


def _backs_problem(backs: list[str]) -> str | None:
    """A deck's ``backs``: one back per copy of each card (copy 1 has the first), so at least two, each once."""
    if len(backs) < 2:
        return ("must list a back for each copy of a card, at least two (a deck whose cards all share one back "
                "has 'back')")
    seen: set[str] = set()
    for b in backs:
        if b in seen:
            return f"lists {quote(b)} twice (each copy has a back of its own)"
        seen.add(b)
    return None


_NAMES = ListOf(Str(64, least=1, then=field_name_key), most=MAX_DECLS)
_SHORT_ID = Str(64, least=1)

GAME_FILE = Table({
    "id": SafeId(),
    "name": Name(),
    "version": Str(64),
    "short": (Str(16), None),
    "players": (Table({"min": (Whole(1, 16), 2), "max": (Whole(1, 16), 2)}, then=_players_ordered),
                Rec(min=2, max=2)),
    "description": (Doc(), ""),
    "rulebook": (Doc(), ""),
    "fields": (TableOf(Anything(), key=field_name_key), {}),
    "decks": (ListOf(Table({"id": SafeId(), "name": Name(), "count": Count(), "back": (Name(), ""),
                            "backs": (ListOf(SafeId(), most=MAX_COPIES, then=_backs_problem), []),
                            "doc": (Doc(), "")}), most=MAX_DECLS), []),
    "types": (ListOf(Table({"id": _SHORT_ID, "name": Name(), "deck": _SHORT_ID, "code": (Str(16), ""),
                            "required": (_NAMES, []), "optional": (_NAMES, []), "effects": (Flag(), True),
                            "free_text": (Flag(), False), "count": (Count(), None), "doc": (Doc(), "")}),
                     most=MAX_DECLS), []),
    "kinds": (TableOf(Table({"name": (Name(), None), "required": (_NAMES, []), "optional": (_NAMES, []),
                             "effects": (Flag(), False), "count": (Count(), None), "doc": (Doc(), "")}),
                      key=safe_id_key), {}),
    "components": (ListOf(Table({"id": SafeId(), "name": Name(), "kind": _SHORT_ID,
                                 "count": (Whole(1, MAX_COPIES), 1), "doc": (Doc(), "")}), most=MAX_DECLS), []),
    "vocabulary": (Str(64, then=_vocabulary_file), "vocabulary.toml"),
    "engine": (Anything(), None),
})
"""The schema of ``game.toml`` (its ``[engine]`` table is checked by the loader)."""
