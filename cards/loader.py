"""Load and validate a game's card database into typed records.

Every problem is reported as an :class:`~wizprint.errors.Issue` with file, line and record id; loading collects
all problems it can find and raises one :class:`~wizprint.errors.DataErrors` holding them.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wizprint.errors import DataErrors, Issue, WizprintError
from wizprint.resources import cards_dir

from .lines import LineMap
from .model import CardType, Component, Deck, EngineDecl, FieldSpec, Game, GameDecl, Kind, Record, Source
from .schema import SpecError, check, parse_spec
from .vocab import Vocabulary

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,11}$")
CARD_KEYS = {"id", "name", "type", "deck", "copies", "effects", "text", "flavor"}
RECORD_KEYS = {"id", "name", "effects", "text", "flavor"}
RESERVED_FILES = {"game.toml", "vocabulary.toml", "layout.toml", "sheets.toml"}
_TOML_POS = re.compile(r"\(at line (\d+), column (\d+)\)")


def display_path(path: Path) -> str:
    """A short path for messages: ``cards/<game>/<file>`` for shipped data, else relative to the cwd."""
    try:
        return "cards/" + path.resolve().relative_to(cards_dir().resolve()).as_posix()
    except ValueError:
        pass
    try:
        rel = os.path.relpath(path)
        return rel if not rel.startswith("..") else str(path)
    except ValueError:
        return str(path)


def read_toml(path: Path, issues: list[Issue]) -> dict[str, Any] | None:
    """Parse a TOML file; on a syntax error add an issue with its line and return None."""
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        issues.append(Issue(shown, 0, "", "is not UTF-8 text"))
        return None
    except OSError as exc:
        issues.append(Issue(shown, 0, "", f"cannot be read: {exc.strerror or exc}"))
        return None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        line = int(m.group(1)) if m else 0
        issues.append(Issue(shown, line, "", f"malformed TOML: {_TOML_POS.sub('', msg).strip()}"))
        return None


def resolve_game_dir(name_or_path: str) -> Path:
    """A game id (``covenant``) or a path to a game folder (or a file inside one).

    An argument is a path only if it contains a path separator or names a folder that holds a ``game.toml``;
    otherwise it is a game id, so a stray folder ``covenant/`` in the current directory does not hide the game.
    """
    text = str(name_or_path)
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    p = Path(text)
    if any(sep in text for sep in seps) or text in (".", "..") or (p / "game.toml").is_file():
        if p.is_file():
            p = p.parent
        if not (p / "game.toml").is_file():
            if not p.exists():
                raise WizprintError(f"{text}: no such game folder")
            raise WizprintError(f"{text}: not a game folder (no game.toml in {p})")
        return p
    builtin = cards_dir() / text
    if ID_PATTERN.match(text) and (builtin / "game.toml").is_file():
        return builtin
    from wizprint.resources import game_ids

    raise WizprintError(f"unknown game '{text}' (games: {', '.join(game_ids())}; a game folder is given as a path, "
                        f"e.g. ./{text})")


# -- the declaration ------------------------------------------------------------------------------------------

def _parse_decl(root: Path, data: Mapping[str, Any], issues: list[Issue]) -> GameDecl | None:
    path = root / "game.toml"
    shown = display_path(path)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()

    def line_of(needle: str) -> int:
        for i, ln in enumerate(lines, 1):
            if needle in ln:
                return i
        return 0

    def bad(needle: str, msg: str) -> None:
        issues.append(Issue(shown, line_of(needle), "", msg))

    for key in ("id", "name", "version"):
        if not isinstance(data.get(key), str):
            bad(key, f"game.toml needs a string '{key}'")
    if issues:
        return None
    fields: dict[str, FieldSpec] = {}
    for name, spec in dict(data.get("fields", {})).items():
        try:
            fields[name] = parse_spec(name, spec)
        except SpecError as exc:
            bad(f"fields.{name}", str(exc))
    decks: dict[str, Deck] = {}
    for d in data.get("decks", []):
        try:
            decks[d["id"]] = Deck(id=d["id"], name=d["name"], count=int(d["count"]), back=d.get("back", ""),
                                  doc=d.get("doc", ""))
        except (KeyError, TypeError, ValueError) as exc:
            bad("[[decks]]", f"deck declaration needs id, name and count ({exc})")
    types: dict[str, CardType] = {}
    for t in data.get("types", []):
        try:
            ct = CardType(id=t["id"], name=t["name"], deck=t["deck"], code=t.get("code", ""),
                          required=tuple(t.get("required", ())), optional=tuple(t.get("optional", ())),
                          effects=bool(t.get("effects", True)), free_text=bool(t.get("free_text", False)),
                          count=t.get("count"), doc=t.get("doc", ""))
        except (KeyError, TypeError) as exc:
            bad("[[types]]", f"type declaration needs id, name and deck ({exc})")
            continue
        if ct.deck not in decks:
            bad(f'"{ct.id}"', f"type '{ct.id}' names unknown deck '{ct.deck}'")
        for f in ct.required + ct.optional:
            if f not in fields:
                bad(f'"{ct.id}"', f"type '{ct.id}' uses undeclared field '{f}'")
        types[ct.id] = ct
    kinds: dict[str, Kind] = {}
    for kid, k in dict(data.get("kinds", {})).items():
        kinds[kid] = Kind(id=kid, name=k.get("name", kid), required=tuple(k.get("required", ())),
                          optional=tuple(k.get("optional", ())), effects=bool(k.get("effects", False)),
                          count=k.get("count"), doc=k.get("doc", ""))
        for f in kinds[kid].required + kinds[kid].optional:
            if f not in fields:
                bad(f"kinds.{kid}", f"kind '{kid}' uses undeclared field '{f}'")
    components = []
    for c in data.get("components", []):
        try:
            components.append(Component(id=c["id"], name=c["name"], kind=c["kind"], count=int(c.get("count", 1)),
                                        doc=c.get("doc", "")))
        except (KeyError, TypeError, ValueError) as exc:
            bad("[[components]]", f"component declaration needs id, name and kind ({exc})")
    players = data.get("players", {})
    engine = _parse_engine(data.get("engine"), kinds, bad)
    return GameDecl(
        id=data["id"], name=data["name"], version=data["version"], short=data.get("short", data["id"][:2].upper()),
        players_min=int(players.get("min", 2)), players_max=int(players.get("max", 2)),
        description=data.get("description", ""), rulebook=data.get("rulebook", ""), fields=fields, types=types,
        decks=decks, kinds=kinds, components=tuple(components),
        vocabulary_file=data.get("vocabulary", "vocabulary.toml"), engine=engine,
    )


ENGINE_KEYS = {"module", "players", "variants", "variant_kind", "step_cap", "search", "search_budget",
               "rollout_depth"}
_MODULE = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def _parse_engine(raw: Any, kinds: Mapping[str, Kind], bad: Any) -> EngineDecl | None:
    """The ``[engine]`` table (None when the game has no rules engine)."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        bad("engine", "'engine' must be a table: write [engine]")
        return None
    ok = True

    def fail(key: str, msg: str) -> None:
        nonlocal ok
        ok = False
        bad(key, f"[engine] {msg}")

    for key in raw:
        if key not in ENGINE_KEYS:
            fail(str(key), f"unknown key '{key}' (allowed: {', '.join(sorted(ENGINE_KEYS))})")

    def whole(key: str, default: int, lo: int, hi: int) -> int:
        v = raw.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            fail(key, f"{key} must be a whole number from {lo} to {hi:,}, not {v!r}")
            return default
        return v

    module = raw.get("module")
    if not isinstance(module, str) or not _MODULE.match(module):
        fail("module", "module must name an engine package of wizprint (lowercase letters, digits and _), "
                       f"not {module!r}")
        module = ""
    pmin = pmax = None
    players = raw.get("players")
    if players is not None:
        if not isinstance(players, Mapping) or set(players) - {"min", "max"}:
            fail("players", "players must be a table { min = N, max = M }")
        else:
            pmin = players.get("min")
            pmax = players.get("max")
            if not all(isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 16 for x in (pmin, pmax)) or (
                    pmin > pmax):  # type: ignore[operator]
                fail("players", "players needs whole numbers 1 <= min <= max <= 16")
                pmin = pmax = None
    variants = raw.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) and ID_PATTERN.match(v) for v in variants):
        fail("variants", "variants must be a list of short names (letters, digits, . _ + -)")
        variants = []
    vkind = raw.get("variant_kind", "")
    if not isinstance(vkind, str) or (vkind and vkind not in kinds):
        fail("variant_kind", f"variant_kind must name a record kind of this game, not {vkind!r}")
        vkind = ""
    search = raw.get("search", "tree")
    if search not in ("tree", "paired"):
        fail("search", f"search must be 'tree' or 'paired', not {search!r}")
        search = "tree"
    step_cap = whole("step_cap", 10_000, 10, 10_000_000)
    budget = whole("search_budget", 800, 1, 1_000_000)
    depth = whole("rollout_depth", 2000, 1, 1_000_000)
    if not ok:
        return None
    return EngineDecl(module=str(module), players_min=pmin, players_max=pmax, variants=tuple(variants),
                      variant_kind=vkind, step_cap=step_cap, search=str(search), search_budget=budget,
                      rollout_depth=depth)


# -- records --------------------------------------------------------------------------------------------------

def _parse_record(decl: GameDecl, vocab: Vocabulary, kind: str, raw: Any, index: int, shown: str, lm: LineMap,
                  issues: list[Issue]) -> Record | None:
    if not isinstance(raw, Mapping):
        issues.append(Issue(shown, lm.line(kind, index), "", f"[[{kind}]] entry must be a table"))
        return None
    rid = raw.get("id")
    label = str(rid) if isinstance(rid, str) else f"#{index + 1}"
    before = len(issues)

    def add(msg: str, key: str | None = None, needle: str | None = None) -> None:
        line = lm.find(kind, index, needle) if needle else 0
        issues.append(Issue(shown, line or lm.line(kind, index, key), label, msg))

    if not isinstance(rid, str):
        add("missing string 'id'", "id")
    elif not ID_PATTERN.match(rid):
        add(f"id {rid!r} must be 1-12 letters, digits or . _ + - (a short code printed on the card)", "id")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        add("missing 'name'", "name")
        name = ""
    if kind == "card":
        allowed_base = CARD_KEYS
        ctype = raw.get("type")
        tdecl = decl.types.get(ctype) if isinstance(ctype, str) else None
        if tdecl is None:
            add(f"type {ctype!r} is not one of {', '.join(decl.types)}" if ctype is not None
                else "missing 'type'", "type")
            return None
        required, optional = tdecl.required, tdecl.optional
        allow_effects, allow_text = tdecl.effects, tdecl.free_text
        deck = raw.get("deck", tdecl.deck)
        if deck != tdecl.deck:
            add(f"deck {deck!r} does not match type '{ctype}' (deck '{tdecl.deck}')", "deck")
        copies = raw.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
            add("copies must be a whole number of at least 1", "copies")
            copies = 1
    else:
        allowed_base = RECORD_KEYS
        kdecl = decl.kinds[kind]
        required, optional = kdecl.required, kdecl.optional
        allow_effects, allow_text = kdecl.effects, True
        ctype, deck, copies = "", "", 1
    allowed = allowed_base | set(required) | set(optional)
    for key in raw:
        if key not in allowed:
            add(f"unknown key '{key}' (allowed: {', '.join(sorted(allowed))})", key)
    for key in required:
        if key not in raw:
            add(f"missing field '{key}'", None)
    fields: dict[str, Any] = {}
    for key in (*required, *optional):
        if key in raw:
            value, probs = check(decl.fields[key], raw[key], key, vocab.check_effects)
            fields[key] = value
            for p in probs:
                add(p, key)
    effects: tuple[Any, ...] = ()
    if "effects" in raw:
        if not allow_effects:
            add("this type has no effects; use 'text'", "effects")
        else:
            effects, probs = vocab.check_effects(raw["effects"], "effects")
            for p in probs:
                m = re.search(r"word '([^']+)'", p)
                add(p, "effects", f'"{m.group(1)}"' if m else None)
    text = raw.get("text", "")
    if text and not allow_text:
        add("rules text is rendered from 'effects'; free 'text' is not allowed for this type", "text")
    if not isinstance(text, str):
        add("text must be a string", "text")
        text = ""
    flavor = raw.get("flavor", "")
    if not isinstance(flavor, str):
        add("flavor must be a string", "flavor")
        flavor = ""
    if len(issues) > before or not isinstance(rid, str):
        return None
    return Record(kind=kind, id=rid, name=name, type=ctype or "", deck=deck, copies=copies, fields=fields,
                  effects=effects, text=text, flavor=flavor, source=Source(shown, lm.line(kind, index)))


def load_game(name_or_path: str | Path, *, strict: bool = True) -> Game:
    """Load a game folder. Raises :class:`DataErrors` listing every problem found."""
    root = resolve_game_dir(str(name_or_path))
    issues: list[Issue] = []
    data = read_toml(root / "game.toml", issues)
    if data is None:
        raise DataErrors(issues)
    decl = _parse_decl(root, data, issues)
    if decl is None:
        raise DataErrors(issues)
    vpath = root / decl.vocabulary_file
    vdata = read_toml(vpath, issues) if vpath.is_file() else {}
    if vdata is None:
        raise DataErrors(issues)
    try:
        vocab = Vocabulary.from_data(decl.id, vdata)
    except SpecError as exc:
        raise DataErrors([*issues, Issue(display_path(vpath), 0, "", str(exc))]) from None
    for p in vocab.check_self():
        m = re.search(r"word '([^']+)'", p)
        line = 0
        if m and vpath.is_file():
            for i, ln in enumerate(vpath.read_text(encoding="utf-8").splitlines(), 1):
                if ln.strip().startswith(f"[words.{m.group(1)}"):
                    line = i
                    break
        issues.append(Issue(display_path(vpath), line, "", p))

    records: list[Record] = []
    present: list[tuple[str, str, str, int]] = []  # (kind, type, deck, copies) of every entry, valid or not
    files = sorted(p for p in root.glob("*.toml") if p.name not in RESERVED_FILES)
    kinds_allowed = {"card", *decl.kinds}
    for path in files:
        shown = display_path(path)
        raw = read_toml(path, issues)
        if raw is None:
            continue
        lm = LineMap(path.read_text(encoding="utf-8"))
        for kind, entries in raw.items():
            if kind not in kinds_allowed:
                expected = "]], [[".join(sorted(kinds_allowed))
                issues.append(Issue(shown, 0, "", f"unknown table '{kind}' (expected [[{expected}]])"))
                continue
            if not isinstance(entries, list):
                issues.append(Issue(shown, 0, "", f"'{kind}' must be an array of tables: write [[{kind}]]"))
                continue
            for i, entry in enumerate(entries):
                rec = _parse_record(decl, vocab, kind, entry, i, shown, lm, issues)
                if rec is not None:
                    records.append(rec)
                present.append(_presence(decl, kind, entry))
    vocab.names.update({r.id: r.name for r in records})
    unreadable = any(i.message.startswith(("malformed TOML", "is not UTF-8", "cannot be read")) for i in issues)
    _cross_check(decl, vocab, root, records, issues, present if not unreadable else None)
    if issues and strict:
        raise DataErrors(issues)
    return Game(decl=decl, root=root, vocabulary=vocab, records=records)


def _decl_line(root: Path, table: str, ident: str, key: str = "count") -> int:
    """The line of ``key`` in the ``[[table]]`` of game.toml whose id is ``ident`` (or of ``[kinds.ident]``)."""
    lines = (root / "game.toml").read_text(encoding="utf-8").splitlines()
    start = None
    for i, ln in enumerate(lines):
        s = ln.strip()
        if (s.startswith("id") and s.split("=", 1)[-1].strip().strip('"') == ident) or s == f"[{table}.{ident}]":
            start = i
            break
    if start is None:
        return 0
    for j in range(start, len(lines)):
        s = lines[j].strip()
        if j > start and s.startswith("["):
            break
        if s.startswith(key) and s[len(key):].lstrip().startswith("="):
            return j + 1
    return start + 1


def _presence(decl: GameDecl, kind: str, entry: Any) -> tuple[str, str, str, int]:
    """What an entry counts for, even when it has other problems (so one bad card is one error, not three)."""
    if not isinstance(entry, Mapping):
        return (kind, "", "", 0)
    ctype = entry.get("type") if kind == "card" else ""
    tdecl = decl.types.get(ctype) if isinstance(ctype, str) else None
    deck = entry.get("deck", tdecl.deck if tdecl else "")
    copies = entry.get("copies", 1)
    if isinstance(copies, bool) or not isinstance(copies, int) or copies < 1:
        copies = 1
    return (kind, ctype if isinstance(ctype, str) else "", deck if isinstance(deck, str) else "", copies)


def _cross_check(decl: GameDecl, vocab: Vocabulary, root: Path, records: list[Record], issues: list[Issue],
                 present: list[tuple[str, str, str, int]] | None) -> None:
    seen: dict[tuple[str, str], Record] = {}
    for r in records:
        key = (r.kind, r.id)
        if key in seen:
            first = seen[key].source
            issues.append(Issue(r.source.file, r.source.line, r.id, f"duplicate id '{r.id}' (first at {first})"))
        else:
            seen[key] = r
    ids = {r.id for r in records}
    for r in records:
        for fname, value in r.fields.items():
            spec = decl.fields[fname]
            for ref in _refs(spec, value):
                if ref not in ids:
                    issues.append(Issue(r.source.file, r.source.line, r.id, f"{fname} names unknown id '{ref}'"))
        for ref in _effect_refs(vocab, r.effects):
            if ref not in ids:
                issues.append(Issue(r.source.file, r.source.line, r.id, f"an effect names unknown id '{ref}'"))
    if present is None:
        return
    game_file = display_path(root / "game.toml")
    deck_counts: Counter[str] = Counter()
    type_counts: Counter[str] = Counter()
    for kind, ctype, deck, copies in present:
        if kind == "card":
            deck_counts[deck] += copies
            type_counts[ctype] += copies
    for d in decl.decks.values():
        if deck_counts[d.id] != d.count:
            issues.append(Issue(game_file, _decl_line(root, "decks", d.id), "",
                                f"deck '{d.id}' has {deck_counts[d.id]} cards, game.toml declares {d.count}"))
    for t in decl.types.values():
        if t.count is not None and type_counts[t.id] != t.count:
            issues.append(Issue(game_file, _decl_line(root, "types", t.id), "",
                                f"type '{t.id}' has {type_counts[t.id]} cards, game.toml declares {t.count}"))
    kind_counts = Counter(p[0] for p in present)
    for k in decl.kinds.values():
        if k.count is not None and kind_counts[k.id] != k.count:
            issues.append(Issue(game_file, _decl_line(root, "kinds", k.id), "",
                                f"there are {kind_counts[k.id]} '{k.id}' records, game.toml declares {k.count}"))


def _refs(spec: FieldSpec, value: Any) -> list[str]:
    if spec.type == "ref" and isinstance(value, str):
        return [value]
    if spec.type == "list" and spec.item is not None and isinstance(value, (list, tuple)):
        return [r for v in value for r in _refs(spec.item, v)]
    if spec.type == "table" and isinstance(value, Mapping):
        by = {s.name: s for s in spec.fields}
        return [r for k, v in value.items() if k in by for r in _refs(by[k], v)]
    return []


def _effect_refs(vocab: Vocabulary, effects: Any) -> list[str]:
    out: list[str] = []
    for e in effects:
        word = vocab.words.get(e.word)
        if word is None:
            continue
        for spec in word.params:
            v = e.params.get(spec.name)
            if v is None:
                continue
            if spec.type == "effects":
                out.extend(_effect_refs(vocab, v))
            else:
                out.extend(_refs(spec, v))
    return out
