"""State declared once: the fields of a game's state (and of its pending work) are dataclass fields, and the kernel
derives from their types what every game used to write four times: ``clone()``, ``to_json()`` and ``from_json()``.

A class decorated with :func:`declare` is a dataclass whose fields are of these types: ``int``, ``str``, ``bool``,
``float``, enums, :class:`~wizprint.solo.kernel.rng.Rng`, ``list``/``tuple``/``set``/``frozenset``/``dict`` of
those, ``X | None``, and other declared classes (frozen ones are values and are shared between clones; a declared
base class with subclasses is stored in JSON with the subclass's ``kind``). The JSON name of a field is its name, so
nothing can drift between the two. ``from_json`` checks every value against its declared type and reports each
problem with its JSON path (a saved game is untrusted input): exact types (a bool is not a number, ``1.0`` is not an
enum's ``1``), finite floats, whole numbers within 64 bits, tuples of their declared length, kinds that exist.
Declared objects nest at most :data:`MAX_DEPTH` deep, a value is never quoted whole in a message, and a load reports
at most :data:`MAX_ERRORS` lines (the last counting the rest).

Two roles take a field out of the copying and the JSON:

- :func:`shared`: the same object in every clone, never saved (the game's compiled card data);
- :func:`transient`: reset to its default in a clone, never saved (statistics, caches).

``clone()`` is generated code (one assignment per field, ``list.copy()`` for a list of values), so declaring a field
costs no more than writing its copy by hand.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field
from typing import Any, ClassVar, TypeVar, dataclass_transform

from wizprint.errors import EngineBug, EngineError, SaveError, more_line, quote

from .rng import MASK, Rng

ROLE = "wizprint.role"
ADDED = "wizprint.added"
_T = TypeVar("_T")
MAX_ERRORS = 50  # problem lines of one load: the first 49, then "... and N more problems"
MAX_DEPTH = 64  # declared objects nested in one another (a saved value deeper than this is refused)
_INT_KEY = re.compile(r"-?[0-9]{1,20}")


def shared(default: Any = None) -> Any:
    """A field whose object every clone shares and that is never saved (the compiled card data)."""
    return field(default=default, metadata={ROLE: "shared"}, compare=False, repr=False)


def transient(default: Any = None) -> Any:
    """A field reset to ``default`` in every clone and never saved (statistics, caches)."""
    return field(default=default, metadata={ROLE: "transient"}, compare=False, repr=False)


def added(default_factory: Callable[[], Any]) -> Any:
    """A saved field that games saved before it existed do not have: such a save loads with the field at
    ``default_factory()``, and the object's :attr:`Declared.missing` names it (a state mends it in ``upgrade``)."""
    return field(default_factory=default_factory, metadata={ADDED: True})


@dataclass_transform(eq_default=False)
def declare(cls: type[_T]) -> type[_T]:
    """Make ``cls`` a declared dataclass: its clone and JSON come from its field declarations."""
    return dataclass(eq=False)(cls)


@dataclass_transform(eq_default=True)
def value(cls: type[_T]) -> type[_T]:
    """A declared value: never changed once made, so clones share it (saved by its fields). Not a frozen dataclass,
    whose constructor is several times slower: log lines are made at every step."""
    cls._frozen = True  # type: ignore[attr-defined]
    return dataclass(eq=True)(cls)


class Declared:
    """Base of declared classes: ``clone``, ``to_json`` and ``from_json`` derived from the fields."""

    kind: ClassVar[str] = ""  # the name a subclass is saved under where its base class is declared
    missing: frozenset[str] = frozenset()  # after a load: the fields declared with :func:`added` the JSON lacked

    def clone(self: _D) -> _D:
        return compiled(type(self)).clone(self)  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        return compiled(type(self)).dump(self)

    @classmethod
    def load_json(cls: type[_D], payload: Any, path: str = "", **shared_values: Any) -> _D:
        """An instance from JSON, every value checked (raises :class:`SaveError` listing the problems); the
        keyword arguments give the shared fields."""
        errors = Problems()
        try:
            out = compiled(cls).load(payload, path or cls.__name__, errors, shared_values, 0)
        except RecursionError:
            errors.add(f"{path or cls.__name__}: nested too deeply")
        if errors:
            raise SaveError(errors.lines())
        return out  # type: ignore[no-any-return]


class Problems(list[str]):
    """The problems found while loading: the first :data:`MAX_ERRORS` - 1 kept, the rest only counted."""

    more = 0

    def add(self, message: str) -> None:
        if len(self) < MAX_ERRORS - 1:
            self.append(message)
        else:
            self.more += 1

    def lines(self) -> list[str]:
        return [*self, more_line(self.more)] if self.more else list(self)


_D = TypeVar("_D", bound=Declared)


# -- codecs: how one declared type is copied, dumped and loaded --------------------------------------------------
class Codec:
    immutable = True

    def copy(self, expr: str, depth: int) -> str:
        """A Python expression that copies the value ``expr`` (used to generate ``clone``)."""
        return expr

    def dump_expr(self, expr: str, depth: int) -> str:
        """A Python expression that gives the JSON of the value ``expr`` (used to generate a class's ``dump``, as
        ``copy`` is used for its ``clone``)."""
        return expr

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        """The value ``v`` of JSON checked against the declared type (each problem added to ``errors`` with its
        path; a stand-in value returned for it); ``depth``: how many declared objects hold it."""
        raise NotImplementedError

    def quick(self, v: Any) -> Any:
        """``load(v)`` for the common plain case, without a path or an error list (a list's items are loaded
        this way, its path made only for an item that needs :meth:`load`); :data:`NOT_QUICK` when ``v`` is not
        that case. Must give what ``load`` gives wherever it does not return :data:`NOT_QUICK`."""
        return NOT_QUICK


NOT_QUICK: Any = object()  # Codec.quick's answer: ask load()


def _bad(errors: Problems, path: str, what: str, v: Any) -> None:
    errors.add(f"{path}: expected {what}, got {_preview(v)}")


def _preview(v: Any) -> str:
    """A short picture of a JSON value for a message (never a deep repr, never a 200,000-character line)."""
    if isinstance(v, dict):
        return f"an object of {len(v)} key{'s' if len(v) != 1 else ''}"
    if isinstance(v, list):
        return f"a list of {len(v)} item{'s' if len(v) != 1 else ''}"
    if isinstance(v, int) and not isinstance(v, bool) and v.bit_length() > 64:
        return f"a whole number of {v.bit_length()} bits"
    return quote(v, 40)


class _Int(Codec):
    def quick(self, v: Any) -> Any:
        return v if v.__class__ is int and -MASK <= v <= MASK else NOT_QUICK

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if isinstance(v, bool) or not isinstance(v, int):
            _bad(errors, path, "a whole number", v)
            return 0
        if abs(v) > MASK:
            _bad(errors, path, "a whole number of a sensible size", v)
            return 0
        return v


class _Float(Codec):
    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if isinstance(v, float) and math.isfinite(v):
            return v
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MASK:
            return float(v)
        _bad(errors, path, "a finite number", v)
        return 0.0


class _Str(Codec):
    def quick(self, v: Any) -> Any:
        return v if v.__class__ is str else NOT_QUICK

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if not isinstance(v, str):
            _bad(errors, path, "a string", v)
            return ""
        return v


class _Bool(Codec):
    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if not isinstance(v, bool):
            _bad(errors, path, "true or false", v)
            return False
        return v


class _None(Codec):
    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if v is not None:
            _bad(errors, path, "null", v)
        return None


class _Enum(Codec):
    def __init__(self, cls: type[enum.Enum]):
        self.cls = cls
        self.members = {m.value: m for m in cls}
        self.types = {type(m.value) for m in cls}  # exactly: a bool is not a number, 1.0 is not 1

    def dump_expr(self, expr: str, depth: int) -> str:
        return f"{expr}.value"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        m = self.members.get(v) if type(v) in self.types else None
        if m is None:
            shown = ", ".join(repr(x) for x in list(self.members)[:12]) + (", ..." if len(self.members) > 12 else "")
            _bad(errors, path, f"one of {shown}", v)
            return next(iter(self.cls))
        return m


class _Rng(Codec):
    immutable = False

    def copy(self, expr: str, depth: int) -> str:
        return f"{expr}.copy()"

    def dump_expr(self, expr: str, depth: int) -> str:
        return f"{expr}.state"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MASK:
            _bad(errors, path, "a generator state (a whole number from 0 to 2**64-1)", v)
            return Rng(0)
        return Rng(v)


class _List(Codec):
    immutable = False

    def __init__(self, item: Codec):
        self.item = item

    def copy(self, expr: str, depth: int) -> str:
        if self.item.immutable:
            return f"{expr}.copy()"
        if isinstance(self.item, _List) and self.item.item.immutable:
            return f"[*map(list_copy, {expr})]"
        x = f"x{depth}"
        return f"[{self.item.copy(x, depth + 1)} for {x} in {expr}]"

    def dump_expr(self, expr: str, depth: int) -> str:
        if isinstance(self.item, (_Int, _Str, _Bool, _Float)):
            return f"list({expr})"
        x = f"x{depth}"
        return f"[{self.item.dump_expr(x, depth + 1)} for {x} in {expr}]"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if not isinstance(v, list):
            _bad(errors, path, "a list", v)
            return []
        item = self.item.load
        if type(self.item).quick is Codec.quick:
            return [item(x, f"{path}[{i}]", errors, depth) for i, x in enumerate(v)]
        quick = self.item.quick
        out = [quick(x) for x in v]
        if any(y is NOT_QUICK for y in out):
            out = [item(x, f"{path}[{i}]", errors, depth) if y is NOT_QUICK else y
                   for i, (x, y) in enumerate(zip(v, out))]
        return out


class _Set(_List):
    def __init__(self, item: Codec, frozen: bool):
        super().__init__(item)
        self.immutable = frozen

    def copy(self, expr: str, depth: int) -> str:
        return expr if self.immutable else f"set({expr})"

    def dump_expr(self, expr: str, depth: int) -> str:
        x = f"x{depth}"
        return f"sorted({self.item.dump_expr(x, depth + 1)} for {x} in {expr})"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        items = super().load(v, path, errors, depth)
        return frozenset(items) if self.immutable else set(items)


class _Tuple(Codec):
    def __init__(self, items: tuple[Codec, ...] | None, rest: Codec | None):
        self.items = items  # fixed positions, or
        self.rest = rest  # one type for every item (tuple[X, ...])
        parts = list(items or ()) + ([rest] if rest is not None else [])
        self.immutable = all(p.immutable for p in parts)

    def copy(self, expr: str, depth: int) -> str:
        if self.immutable:
            return expr
        x = f"x{depth}"
        if self.rest is not None:
            return f"tuple({self.rest.copy(x, depth + 1)} for {x} in {expr})"
        assert self.items is not None
        return "(" + "".join(f"{c.copy(f'{expr}[{i}]', depth + 1)}, " for i, c in enumerate(self.items)) + ")"

    def dump_expr(self, expr: str, depth: int) -> str:
        x = f"x{depth}"
        if self.rest is not None:
            return f"[{self.rest.dump_expr(x, depth + 1)} for {x} in {expr}]"
        assert self.items is not None
        # unpacked, so that a tuple of the wrong length fails as zip(strict=True) does
        names = [f"x{depth}_{i}" for i in range(len(self.items))]
        parts = ", ".join(c.dump_expr(n, depth + 1) for c, n in zip(self.items, names, strict=True))
        return f"[[{parts}] for ({', '.join(names)},) in ({expr},)][0]"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if not isinstance(v, list):
            _bad(errors, path, "a list", v)
            return ()
        if self.rest is not None:
            return tuple(self.rest.load(x, f"{path}[{i}]", errors, depth) for i, x in enumerate(v))
        assert self.items is not None
        if len(v) != len(self.items):
            _bad(errors, path, f"a list of {len(self.items)} items", v)
            return tuple(None for _ in self.items)
        return tuple(c.load(x, f"{path}[{i}]", errors, depth)
                     for i, (c, x) in enumerate(zip(self.items, v, strict=True)))


class _Dict(Codec):
    immutable = False

    def __init__(self, key: Codec, val: Codec):
        self.key = key
        self.val = val

    def copy(self, expr: str, depth: int) -> str:
        if self.val.immutable:
            return f"{expr}.copy()"
        k, x = f"k{depth}", f"x{depth}"
        return f"{{{k}: {self.val.copy(x, depth + 1)} for {k}, {x} in {expr}.items()}}"

    def dump_expr(self, expr: str, depth: int) -> str:
        k, x = f"k{depth}", f"x{depth}"
        key, val = self.key.dump_expr(k, depth + 1), self.val.dump_expr(x, depth + 1)
        return f"{{str({key}): {val} for {k}, {x} in {expr}.items()}}"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        if not isinstance(v, dict):
            _bad(errors, path, "an object", v)
            return {}
        out = {}
        for k, x in v.items():
            at = f"{path}.{_key(k)}"
            if isinstance(self.key, _Int):
                if not isinstance(k, str) or not _INT_KEY.fullmatch(k) or abs(int(k)) > MASK:
                    _bad(errors, at, "a whole-number key", k)
                    continue
                kk: Any = int(k)
            else:
                kk = self.key.load(k, f"{path} key", errors, depth)
            out[kk] = self.val.load(x, at, errors, depth)
        return out


def _key(k: Any) -> str:
    """A key of a JSON object as a part of a path (a long or odd key is quoted and cut)."""
    return k if isinstance(k, str) and len(k) <= 40 and k.isprintable() else quote(k, 40)


class _Optional(Codec):
    def __init__(self, inner: Codec):
        self.inner = inner
        self.immutable = inner.immutable

    def copy(self, expr: str, depth: int) -> str:
        if self.immutable:
            return expr
        return f"(None if {expr} is None else {self.inner.copy(expr, depth)})"

    def dump_expr(self, expr: str, depth: int) -> str:
        inner = self.inner.dump_expr(expr, depth)
        return expr if inner == expr else f"(None if {expr} is None else {inner})"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        return None if v is None else self.inner.load(v, path, errors, depth)


class _Obj(Codec):
    """A declared class (or a declared base whose subclasses are told apart by ``kind``)."""

    def __init__(self, cls: type[Declared]):
        self.cls = cls
        self.immutable = bool(cls.__dict__.get("_frozen", False))
        self.poly = bool(_kinds(cls)) and not cls.kind

    def copy(self, expr: str, depth: int) -> str:
        return expr if self.immutable else f"{expr}.clone()"

    def dump_expr(self, expr: str, depth: int) -> str:
        return f"dump_kind({expr})" if self.poly else f"dump_obj({expr})"

    def load(self, v: Any, path: str, errors: Problems, depth: int) -> Any:
        cls = self.cls
        if depth >= MAX_DEPTH:
            errors.add(f"{path}: nested too deeply (more than {MAX_DEPTH} objects in one another)")
            return None
        if self.poly:
            if not isinstance(v, dict) or not isinstance(v.get("kind"), str):
                _bad(errors, path, "an object with a 'kind'", v)
                return None
            kinds = _kinds(self.cls)
            found = kinds.get(v["kind"])
            if found is None:
                _bad(errors, f"{path}.kind", f"one of {', '.join(sorted(kinds))}", v["kind"])
                return None
            cls = found
            v = {k: x for k, x in v.items() if k != "kind"}
        return compiled(cls).load(v, path, errors, {}, depth + 1)


def _kinds(base: type) -> dict[str, type[Declared]]:
    """Every subclass of ``base`` (at any depth) that names a ``kind``."""
    out: dict[str, type[Declared]] = {}
    todo: list[type] = list(base.__subclasses__())
    while todo:
        c = todo.pop()
        todo.extend(c.__subclasses__())
        k = c.__dict__.get("kind")
        if isinstance(k, str) and k:
            if k in out and out[k] is not c:
                raise EngineBug(f"two kinds of {base.__name__} are both named {k!r}")
            out[k] = c
    return out


_ATOMS: dict[Any, Codec] = {int: _Int(), float: _Float(), str: _Str(), bool: _Bool(), type(None): _None()}
_REGISTERED: dict[Any, Codec] = {}  # types the kernel's own modules declare a codec for
_HELPERS: dict[str, Any] = {}  # the functions their generated expressions call, by name


def register_codec(tp: Any, codec: Codec, helpers: Mapping[str, Any]) -> None:
    """Declare how the kernel saves a type of its own that is not a declared class (the log's lines); ``helpers``
    are the functions its ``copy``/``dump_expr`` expressions call."""
    _REGISTERED[tp] = codec
    _HELPERS.update(helpers)


def codec_for(tp: Any, where: str) -> Codec:
    """The codec of a declared type (raises :class:`TypeError` for a type the kernel cannot save)."""
    if tp in _ATOMS:
        return _ATOMS[tp]
    got = _REGISTERED.get(tp)
    if got is not None:
        return got
    if tp is Rng:
        return _Rng()
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return _Enum(tp)
    if isinstance(tp, type) and issubclass(tp, Declared):
        return _Obj(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            return _Optional(codec_for(rest[0], where))
        raise TypeError(f"{where}: a union other than 'X | None' cannot be declared ({tp})")
    if origin is list:
        return _List(codec_for(args[0], where))
    if origin in (set, frozenset):
        return _Set(codec_for(args[0], where), origin is frozenset)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _Tuple(None, codec_for(args[0], where))
        return _Tuple(tuple(codec_for(a, where) for a in args), None)
    if origin is dict:
        key = codec_for(args[0], where)
        if not isinstance(key, (_Str, _Int, _Enum)):
            raise TypeError(f"{where}: dictionary keys must be strings, whole numbers or enums ({tp})")
        return _Dict(key, codec_for(args[1], where))
    raise TypeError(f"{where}: the kernel cannot declare a field of type {tp!r}")


# -- a compiled declaration -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class FieldInfo:
    name: str
    role: str  # "" (saved and copied), "shared" or "transient"
    codec: Codec
    default: Callable[[], Any]
    added: bool = False  # a save without it loads with its default (see :func:`added`)


class Compiled:
    """What the kernel derived from one declared class."""

    def __init__(self, cls: type[Declared]):
        self.cls = cls
        hints = typing.get_type_hints(cls)
        infos: list[FieldInfo] = []
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            role = str(f.metadata.get(ROLE, ""))
            codec = codec_for(hints[f.name], f"{cls.__name__}.{f.name}") if not role else Codec()
            if f.default_factory is not MISSING:
                default: Callable[[], Any] = f.default_factory
            elif f.default is not MISSING:
                default = _constant(f.default)
            else:
                default = _no_default(cls, f.name)
            infos.append(FieldInfo(f.name, role, codec, default, bool(f.metadata.get(ADDED))))
        self.fields = tuple(infos)
        self.saved = tuple(i for i in infos if not i.role)
        self.clone: Callable[[Any], Any] = self._make_clone()
        self.dump: Callable[[Any], dict[str, Any]] = self._make_dump()

    def _make_clone(self) -> Callable[[Any], Any]:
        lines = ["def clone(self):", "    if self.__class__ is not cls:",
                 "        return compiled(self.__class__).clone(self)", "    new = object.__new__(cls)"]
        env: dict[str, Any] = {"cls": self.cls, "compiled": compiled, "list_copy": list.copy}
        for i, f in enumerate(self.fields):
            if f.role == "transient":
                if f.default() is None:
                    lines.append(f"    new.{f.name} = None")
                else:
                    env[f"d{i}"] = f.default
                    lines.append(f"    new.{f.name} = d{i}()")
            elif f.role == "shared":
                lines.append(f"    new.{f.name} = self.{f.name}")
            else:
                lines.append(f"    new.{f.name} = {f.codec.copy(f'self.{f.name}', 0)}")
        lines.append("    return new")
        # the generated code comes from the class declaration (code), never from data
        exec("\n".join(lines), env)
        fn: Callable[[Any], Any] = env["clone"]
        return fn

    def _make_dump(self) -> Callable[[Any], dict[str, Any]]:
        """The JSON of an instance, generated from the declaration as ``clone`` is: one dictionary display with an
        expression per saved field, in the order they are declared (no call per value but one per object)."""
        env: dict[str, Any] = {"dump_obj": _dump_obj, "dump_kind": _dump_kind, **_HELPERS}
        body = ", ".join(f"{f.name!r}: {f.codec.dump_expr(f'obj.{f.name}', 0)}" for f in self.saved)
        # the generated code comes from the class declaration (code), never from data
        exec(f"def dump(obj):\n    return {{{body}}}", env)
        fn: Callable[[Any], dict[str, Any]] = env["dump"]
        return fn

    def load(self, data: Any, path: str, errors: Problems, shared_values: Mapping[str, Any], depth: int) -> Any:
        obj = object.__new__(self.cls)
        if not isinstance(data, dict):
            _bad(errors, path, "an object", data)
            data = {}
        known = {f.name for f in self.saved}
        for key in data:
            if key not in known:
                errors.add(f"{path}: unknown key {quote(key, 40)}")
        for f in self.fields:
            if f.role == "shared":
                object.__setattr__(obj, f.name, shared_values.get(f.name, f.default()))
            elif f.role == "transient":
                object.__setattr__(obj, f.name, f.default())
            elif f.name in data:
                object.__setattr__(obj, f.name, f.codec.load(data[f.name], f"{path}.{f.name}", errors, depth))
            else:
                if f.added:
                    object.__setattr__(obj, "missing", obj.missing | {f.name})
                else:
                    errors.add(f"{path}.{f.name}: missing")
                object.__setattr__(obj, f.name, f.default())
        return obj


_DUMPS: dict[type, Callable[[Any], dict[str, Any]]] = {}  # each compiled class's dump, by class (own class only)


def _dump_obj(v: Any) -> dict[str, Any]:
    """The JSON of a declared object (of its own class: a subclass saves its own fields)."""
    fn = _DUMPS.get(v.__class__)
    return fn(v) if fn is not None else compiled(type(v)).dump(v)


def _dump_kind(v: Any) -> dict[str, Any]:
    """The JSON of an object whose declared base has kinds: its kind first, then its fields."""
    return {"kind": type(v).kind, **_dump_obj(v)}


def _constant(v: Any) -> Callable[[], Any]:
    def get() -> Any:
        return v

    return get


def _no_default(cls: type, name: str) -> Callable[[], Any]:
    def fail() -> Any:
        raise EngineError(f"{cls.__name__}.{name} has no default")

    return fail


def compiled(cls: type[Declared]) -> Compiled:
    """The derived clone/JSON of a declared class (made on first use, when every type it names exists)."""
    got = cls.__dict__.get("_kernel_compiled")
    if got is None:
        got = Compiled(cls)
        type.__setattr__(cls, "_kernel_compiled", got)
        type.__setattr__(cls, "clone", got.clone)  # later clones call the generated code directly
        _DUMPS[cls] = got.dump
    assert isinstance(got, Compiled)
    return got
