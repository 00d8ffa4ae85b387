"""Load and validate a game's card database into typed records.

Every problem is reported as an :class:`~wizprint.errors.Issue` with file, line and record id; loading collects
all problems it can find and raises one :class:`~wizprint.errors.DataErrors` holding them.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomli

from wizprint.errors import DataErrors, Issue, WizprintError, one_line, quote
from wizprint.files import FileProblem, read_file
from wizprint.finite import NonFinite, loads_toml
from wizprint.resources import cards_dir, inside, register_icons

from .lines import LineMap, TomlLines
from .model import CardType, Component, Deck, EngineDecl, FieldSpec, Game, GameDecl, Kind, Record, Source
from .schema import (
    CONTROL,
    GAME_FILE,
    MAX_COPIES,
    MAX_DATA_FILES,
    MAX_FILE_BYTES,
    MAX_FOLDER_BYTES,
    MAX_NAME_LEN,
    MAX_PHYSICAL_CARDS,
    MAX_RECORDS,
    MAX_TEXT_LEN,
    SpecError,
    check,
    check_data,
    human_path,
    parse_spec,
    schema_issues,
)
from .vocab import Vocabulary

ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,11}$")
GAME_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")  # a shipped game's folder name (wizards-and-relics)
CARD_KEYS = {"id", "name", "type", "deck", "copies", "effects", "text", "flavor"}
RECORD_KEYS = {"id", "name", "effects", "text", "flavor"}
# files of a game folder that hold no records (the game folder's own layouts)
RESERVED_FILES = {"game.toml", "vocabulary.toml", "layout.toml", "sheets.toml", "board-layout.toml",
                  "components-layout.toml", "map-layout.toml", "table-layout.toml"}
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


def read_text(path: Path, issues: list[Issue], shown: str | None = None, limit: int = MAX_FILE_BYTES) -> str | None:
    """A data file's text (UTF-8, at most ``limit`` bytes); on a problem add an issue and return None."""
    shown = shown or display_path(path)
    try:
        raw = read_file(path, limit, "a data file", shown)  # a FIFO or a device would block or never end
    except FileProblem as exc:
        issues.append(Issue(shown, 0, "", exc.reason))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        issues.append(Issue(shown, line, "", f"is not UTF-8 text (byte {exc.start + 1} cannot be read; save the file "
                                             "as UTF-8)"))
        return None
    return text.removeprefix("\ufeff")


def parse_toml(text: str, shown: str, issues: list[Issue]) -> dict[str, Any] | None:
    """Parse TOML text; on a syntax error, or a number that is not finite (``nan``, ``inf``, ``1e400``), add an
    issue with its line and return None."""
    try:
        return loads_toml(text)
    except NonFinite as exc:
        issues.append(Issue(shown, TomlLines(text).line(exc.path), "",
                            f"{human_path(exc.path)}: must be a finite number, not {exc.literal}"))
    except tomli.TOMLDecodeError as exc:
        msg = str(exc)
        m = _TOML_POS.search(msg)
        line = int(m.group(1)) if m else 0
        issues.append(Issue(shown, line, "", f"malformed TOML: {_TOML_POS.sub('', msg).strip()}"))
    except RecursionError:
        issues.append(Issue(shown, 0, "", "malformed TOML: arrays or tables nest too deeply"))
    return None


def read_toml_text(path: Path, issues: list[Issue], shown: str | None = None) -> tuple[dict[str, Any], str] | None:
    """A TOML file's data and text; on a problem add an issue (with its line) and return None."""
    shown = shown or display_path(path)
    text = read_text(path, issues, shown)
    if text is None:
        return None
    data = parse_toml(text, shown, issues)
    return None if data is None else (data, text)


def read_toml(path: Path, issues: list[Issue], shown: str | None = None) -> dict[str, Any] | None:
    """Parse a TOML file; on a problem (unreadable, too large, not UTF-8, malformed) add an issue and return None."""
    got = read_toml_text(path, issues, shown)
    return None if got is None else got[0]


def resolve_game_dir(name_or_path: str) -> Path:
    """A game id (``covenant``) or a path to a game folder (or a file inside one).

    An argument is a path only if it contains a path separator or names a folder that holds a ``game.toml``;
    otherwise it is a game id, so a stray folder ``covenant/`` in the current directory does not hide the game.
    """
    text = str(name_or_path)
    if "\x00" in text or len(text) > 4096:
        raise WizprintError(f"{quote(text)}: not a game id or a folder (a NUL byte, or too long)")
    seps = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    p = Path(text)
    if any(sep in text for sep in seps) or text in (".", "..") or _is_file(p / "game.toml"):
        if _is_file(p):
            p = p.parent
        if not _is_file(p / "game.toml"):
            if not _exists(p):
                raise WizprintError(f"{one_line(text, 80)}: no such game folder")
            raise WizprintError(f"{one_line(text, 80)}: not a game folder (no game.toml in it)")
        return p
    builtin = cards_dir() / text
    if GAME_ID.match(text) and _is_file(builtin / "game.toml"):
        return builtin
    from wizprint.resources import game_ids

    shown = one_line(text, 80)
    close = difflib.get_close_matches(text.strip().lower(), game_ids(), n=1, cutoff=0.6)
    hint = f": did you mean '{close[0]}'?" if close else ""
    raise WizprintError(f"unknown game '{shown}'{hint} (games: {', '.join(game_ids())}; a game folder is given as a "
                        f"path, e.g. ./{shown})")


def _is_file(p: Path) -> bool:
    try:
        return p.is_file()
    except (OSError, ValueError):  # a name too long for the file system, say
        return False


def _lexists(p: Path) -> bool:
    try:
        return os.path.lexists(p)
    except (OSError, ValueError):
        return False


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except (OSError, ValueError):
        return False


# -- the declaration ------------------------------------------------------------------------------------------

def _parse_decl(root: Path, data: Mapping[str, Any], issues: list[Issue], text: str | None = None
                ) -> GameDecl | None:
    """``game.toml`` checked against its schema (:data:`~wizprint.cards.schema.GAME_FILE`), then cross-checked
    (types name declared decks and fields, ids unique); every problem is an issue at its key's line."""
    path = root / "game.toml"
    shown = display_path(path)
    if text is None:
        text = path.read_text(encoding="utf-8")
    lines = TomlLines(text)
    before = len(issues)

    def bad(where: tuple[str | int, ...], msg: str) -> None:
        issues.append(Issue(shown, lines.line(where), "", msg))

    gf, problems = check_data(GAME_FILE, data)
    if problems:
        issues.extend(schema_issues(problems, shown, lines))
        return None
    fields: dict[str, FieldSpec] = {}
    broken: set[str] = set()  # fields with a bad spec: already an error, not "undeclared" again where used
    for name, spec in gf.fields.items():
        try:
            fields[name] = parse_spec(name, spec)
        except SpecError as exc:
            bad(("fields", name), str(exc))
            broken.add(name)
    decks: dict[str, Deck] = {}
    for i, d in enumerate(gf.decks):
        if d.id in decks:
            bad(("decks", i, "id"), f"deck id '{d.id}' is declared twice")
        if d.back and d.backs:
            bad(("decks", i, "backs"), f"deck {quote(d.id)} has 'back' and 'backs': give one back to the whole deck "
                                       "('back') or one to each copy of a card ('backs'), not both")
        decks[d.id] = Deck(id=d.id, name=d.name, count=d.count, back=d.back, doc=d.doc, backs=tuple(d.backs))
    if sum(d.count for d in decks.values()) > MAX_PHYSICAL_CARDS:
        bad(("decks",), f"the decks declare more than {MAX_PHYSICAL_CARDS:,} cards in all")
    types: dict[str, CardType] = {}
    for i, t in enumerate(gf.types):
        ct = CardType(id=t.id, name=t.name, deck=t.deck, code=t.code, required=tuple(t.required),
                      optional=tuple(t.optional), effects=t.effects, free_text=t.free_text, count=t.count, doc=t.doc)
        if ct.id in types:
            bad(("types", i, "id"), f"type id {quote(ct.id)} is declared twice")
        if ct.deck not in decks:
            bad(("types", i, "deck"), f"type {quote(ct.id)} names unknown deck {quote(ct.deck)}")
        for f in ct.required + ct.optional:
            if f not in fields and f not in broken:
                bad(("types", i), f"type {quote(ct.id)} uses undeclared field '{f}'")
        types[ct.id] = ct
    kinds: dict[str, Kind] = {}
    for kid, k in gf.kinds.items():
        if kid == "card":
            bad(("kinds", kid), "'card' is not a kind of record of its own: cards are declared as [[types]]")
            continue
        kinds[kid] = Kind(id=kid, name=k.name or kid, required=tuple(k.required), optional=tuple(k.optional),
                          effects=k.effects, count=k.count, doc=k.doc)
        for f in kinds[kid].required + kinds[kid].optional:
            if f not in fields and f not in broken:
                bad(("kinds", kid), f"kind '{kid}' uses undeclared field '{f}'")
    components: list[Component] = []
    seen: set[str] = set()
    for i, c in enumerate(gf.components):
        if c.id in seen:
            bad(("components", i, "id"), f"component id '{c.id}' is declared twice")
        seen.add(c.id)
        components.append(Component(id=c.id, name=c.name, kind=c.kind, count=c.count, doc=c.doc))

    def bad_engine(key: str, msg: str) -> None:
        bad(("engine", key), msg)

    engine = _parse_engine(gf.engine, kinds, bad_engine)
    if len(issues) > before:
        return None
    return GameDecl(
        id=gf.id, name=gf.name, version=gf.version, short=gf.short if gf.short is not None else gf.id[:2].upper(),
        players_min=gf.players.min, players_max=gf.players.max,
        description=gf.description, rulebook=gf.rulebook, fields=fields, types=types,
        decks=decks, kinds=kinds, components=tuple(components),
        vocabulary_file=gf.vocabulary, engine=engine,
    )


ENGINE_KEYS = {"module", "players", "variants", "variant_kind", "step_cap", "search", "search_budget",
               "rollout_depth", "rivals"}
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
            fail(str(key), f"unknown key {quote(key)} (allowed: {', '.join(sorted(ENGINE_KEYS))})")

    def whole(key: str, default: int, lo: int, hi: int) -> int:
        v = raw.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            fail(key, f"{key} must be a whole number from {lo} to {hi:,}, not {quote(v)}")
            return default
        return v

    module = raw.get("module")
    if not isinstance(module, str) or not _MODULE.match(module):
        fail("module", "module must name an engine package of wizprint (lowercase letters, digits and _), "
                       f"not {quote(module)}")
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
        fail("variant_kind", f"variant_kind must name a record kind of this game, not {quote(vkind)}")
        vkind = ""
    search = raw.get("search", "tree")
    if search not in ("tree", "paired"):
        fail("search", f"search must be 'tree' or 'paired', not {quote(search)}")
        search = "tree"
    rivals = raw.get("rivals", "search")
    if rivals not in ("search", "automaton"):
        fail("rivals", f"rivals must be 'search' or 'automaton', not {quote(rivals)}")
        rivals = "search"
    step_cap = whole("step_cap", 10_000, 10, 10_000_000)
    budget = whole("search_budget", 800, 1, 1_000_000)
    depth = whole("rollout_depth", 2000, 1, 1_000_000)
    if not ok:
        return None
    return EngineDecl(module=str(module), players_min=pmin, players_max=pmax, variants=tuple(variants),
                      variant_kind=vkind, step_cap=step_cap, search=str(search), search_budget=budget,
                      rollout_depth=depth, rivals=str(rivals))


# -- records --------------------------------------------------------------------------------------------------

def _parse_record(decl: GameDecl, vocab: Vocabulary, kind: str, raw: Any, index: int, shown: str, lm: LineMap,
                  issues: list[Issue]) -> Record | None:
    if not isinstance(raw, Mapping):
        issues.append(Issue(shown, lm.line(kind, index), "", f"[[{kind}]] entry must be a table"))
        return None
    rid = raw.get("id")
    label = one_line(rid, 80) if isinstance(rid, str) else f"#{index + 1}"
    before = len(issues)

    def add(msg: str, key: str | None = None, needle: str | None = None) -> None:
        line = lm.find(kind, index, needle) if needle else 0
        issues.append(Issue(shown, line or lm.line(kind, index, key), label, msg))

    if not isinstance(rid, str):
        add("missing string 'id'", "id")
    elif not ID_PATTERN.match(rid):
        add(f"id {quote(rid)} must be 1-12 letters, digits or . _ + - (a short code printed on the card)", "id")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        add("missing 'name'" if name is None or isinstance(name, str) else f"name must be text, not {quote(name)}",
            "name")
        name = ""
    else:
        _check_text(name, "name", MAX_NAME_LEN, add)
    if kind == "card":
        allowed_base = CARD_KEYS
        ctype = raw.get("type")
        tdecl = decl.types.get(ctype) if isinstance(ctype, str) else None
        if tdecl is None:
            add(f"type {quote(ctype)} is not one of {', '.join(decl.types)}" if ctype is not None
                else "missing 'type'", "type")
            return None
        required, optional = tdecl.required, tdecl.optional
        allow_effects, allow_text = tdecl.effects, tdecl.free_text
        deck = raw.get("deck", tdecl.deck)
        if deck != tdecl.deck:
            add(f"deck {quote(deck)} does not match type '{ctype}' (deck '{tdecl.deck}')", "deck")
        copies = raw.get("copies", 1)
        if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
            add(f"copies must be a whole number from 1 to {MAX_COPIES:,}, not {quote(copies)}", "copies")
            copies = 1
        else:
            backs = decl.decks[tdecl.deck].backs if tdecl.deck in decl.decks else ()
            if backs and copies != len(backs):
                add(f"copies must be {len(backs)}, not {copies}: deck '{tdecl.deck}' gives each copy of a card its "
                    f"own back ({', '.join(backs)})", "copies")
    else:
        allowed_base = RECORD_KEYS
        kdecl = decl.kinds[kind]
        required, optional = kdecl.required, kdecl.optional
        allow_effects, allow_text = kdecl.effects, True
        ctype, deck, copies = "", "", 1
    allowed = allowed_base | set(required) | set(optional)
    for key in raw:
        if key not in allowed:
            add(f"unknown key {quote(key)} (allowed: {', '.join(sorted(allowed))})", key)
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
    _check_text(text, "text", MAX_TEXT_LEN, add)
    flavor = raw.get("flavor", "")
    if not isinstance(flavor, str):
        add("flavor must be a string", "flavor")
        flavor = ""
    _check_text(flavor, "flavor", MAX_TEXT_LEN, add)
    if len(issues) > before or not isinstance(rid, str):
        return None
    return Record(kind=kind, id=rid, name=name, type=ctype or "", deck=deck, copies=copies, fields=fields,
                  effects=effects, text=text, flavor=flavor, source=Source(shown, lm.line(kind, index)))


def _check_text(value: str, key: str, limit: int, add: Any) -> None:
    if len(value) > limit:
        add(f"{key} is {len(value):,} characters long, more than {limit:,}", key)
    elif (bad := CONTROL.search(value)) is not None:
        add(f"{key} holds a control character (character {bad.start() + 1})", key)


def load_game(name_or_path: str | Path, *, strict: bool = True) -> Game:
    """Load a game folder. Raises :class:`DataErrors` listing every problem found."""
    root = resolve_game_dir(str(name_or_path))
    issues: list[Issue] = []
    got = read_toml_text(root / "game.toml", issues)
    if got is None:
        raise DataErrors(issues)
    data, game_text = got
    decl = _parse_decl(root, data, issues, game_text)
    if decl is None:
        raise DataErrors(issues)
    if (root / "icons").is_dir():  # a game folder's own icons, found before the shipped ones for its id
        register_icons(decl.id, root / "icons")
    vpath = root / decl.vocabulary_file
    vshown = display_path(vpath)
    vdata: dict[str, Any] | None = {}
    vtext = ""
    if vpath.exists() and not inside(root, vpath):
        issues.append(Issue(vshown, 0, "", "is a link to a file outside the game folder"))
        raise DataErrors(issues)
    missing_vocabulary = not _lexists(vpath)
    if not missing_vocabulary:  # a folder or a pipe by that name is an error, not an empty vocabulary
        vgot = read_toml_text(vpath, issues)
        vdata, vtext = vgot if vgot is not None else (None, "")
    if vdata is None:
        raise DataErrors(issues)
    vlines = TomlLines(vtext)
    vocab, vissues = Vocabulary.load(decl.id, vdata, vshown, vlines)
    issues.extend(vissues)
    if vocab is None:
        raise DataErrors(issues)
    # without its vocabulary file a game may still have cards without effects; an effect word its cards name is
    # then one problem naming the missing file, not one per effect
    vocab.missing = missing_vocabulary
    for p in vocab.check_self():
        m = re.search(r"word '([^']+)'", p)
        key = "text" if "text template" in p else "example" if "example" in p else ""
        where: tuple[str, ...] = ("words", m.group(1), key) if m else ()
        issues.append(Issue(vshown, vlines.line(where), "", p))

    records: list[Record] = []
    present: list[tuple[str, str, str, int]] = []  # (kind, type, deck, copies) of every entry, valid or not
    files = sorted(p for p in root.glob("*.toml") if p.name not in RESERVED_FILES and p.name != decl.vocabulary_file)
    if len(files) > MAX_DATA_FILES:
        issues.append(Issue(display_path(root), 0, "", f"holds {len(files):,} .toml files, more than "
                                                       f"{MAX_DATA_FILES} (the limit for a game folder)"))
        raise DataErrors(issues)
    kinds_allowed = {"card", *decl.kinds}
    total_bytes = 0
    entries_seen = 0
    unread = False  # a data file that could not be read: its records are not counted against the declaration
    for path in files:
        shown = display_path(path)
        if not inside(root, path):
            issues.append(Issue(shown, 0, "", "is a link to a file outside the game folder"))
            continue
        with contextlib.suppress(OSError):
            total_bytes += path.stat().st_size
        if total_bytes > MAX_FOLDER_BYTES:
            issues.append(Issue(shown, 0, "", f"the game's data files hold more than "
                                              f"{MAX_FOLDER_BYTES // (1024 * 1024)} MiB (the limit for a game)"))
            break
        got = read_toml_text(path, issues)
        if got is None:
            unread = True
            continue
        raw, text = got
        lm = LineMap(text)
        for kind, entries in raw.items():
            if kind not in kinds_allowed:
                expected = "]], [[".join(sorted(kinds_allowed))
                issues.append(Issue(shown, 0, "", f"unknown table {quote(kind)} (expected [[{expected}]])"))
                continue
            if not isinstance(entries, list):
                issues.append(Issue(shown, 0, "", f"'{kind}' must be an array of tables: write [[{kind}]]"))
                continue
            for i, entry in enumerate(entries):
                entries_seen += 1
                if entries_seen > MAX_RECORDS:
                    issues.append(Issue(shown, lm.line(kind, i), "", f"the game has more than {MAX_RECORDS:,} "
                                                                     "records (the limit for a game)"))
                    break
                rec = _parse_record(decl, vocab, kind, entry, i, shown, lm, issues)
                if rec is not None:
                    records.append(rec)
                present.append(_presence(decl, kind, entry))
            if entries_seen > MAX_RECORDS:
                break
        if entries_seen > MAX_RECORDS:
            break
    vocab.names.update({r.id: r.name for r in records})
    if vocab.unknown_words:
        words = sorted(vocab.unknown_words)
        named = ", ".join(quote(w, 40) for w in words[:5]) + (", ..." if len(words) > 5 else "")
        issues.append(Issue(vshown, 0, "", f"is missing: the cards' effects name {len(words):,} word"
                                           f"{'s' if len(words) != 1 else ''} ({named}) that this file declares: a "
                                           f"game folder needs its vocabulary file"))
    unreadable = any(i.message.startswith(("malformed TOML", "is not UTF-8", "cannot be read", "is larger than"))
                     for i in issues) or unread or entries_seen > MAX_RECORDS
    physical = sum(p[3] for p in present if p[0] == "card")
    if physical > MAX_PHYSICAL_CARDS:
        issues.append(Issue(display_path(root / "game.toml"), 0, "",
                            f"the game has {physical:,} cards (copies counted), more than {MAX_PHYSICAL_CARDS:,}"))
    _cross_check(decl, vocab, root, records, issues, present if not unreadable else None, game_text)
    if issues and strict:
        raise DataErrors(issues)
    return Game(decl=decl, root=root, vocabulary=vocab, records=records)


def _decl_line(text: str, table: str, ident: str, key: str = "count") -> int:
    """The line of ``key`` in the ``[[table]]`` of game.toml whose id is ``ident`` (or of ``[kinds.ident]``)."""
    lines = text.splitlines()
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
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        copies = 1
    return (kind, ctype if isinstance(ctype, str) else "", deck if isinstance(deck, str) else "", copies)


def _cross_check(decl: GameDecl, vocab: Vocabulary, root: Path, records: list[Record], issues: list[Issue],
                 present: list[tuple[str, str, str, int]] | None, game_text: str) -> None:
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
                    issues.append(Issue(r.source.file, r.source.line, r.id, f"{fname} names unknown id {quote(ref)}"))
        for ref in _effect_refs(vocab, r.effects):
            if ref not in ids:
                issues.append(Issue(r.source.file, r.source.line, r.id, f"an effect names unknown id {quote(ref)}"))
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
            issues.append(Issue(game_file, _decl_line(game_text, "decks", d.id), "",
                                f"deck '{d.id}' has {deck_counts[d.id]} cards, game.toml declares {d.count}"))
    for t in decl.types.values():
        if t.count is not None and type_counts[t.id] != t.count:
            issues.append(Issue(game_file, _decl_line(game_text, "types", t.id), "",
                                f"type '{t.id}' has {type_counts[t.id]} cards, game.toml declares {t.count}"))
    kind_counts = Counter(p[0] for p in present)
    for k in decl.kinds.values():
        if k.count is not None and kind_counts[k.id] != k.count:
            issues.append(Issue(game_file, _decl_line(game_text, "kinds", k.id), "",
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
