"""CSV export and import of a game's cards: one row per design, with a ``copies`` column.

The file starts with a byte-order mark (UTF-8 with BOM, Python's ``utf-8-sig``), so that a spreadsheet opened by
a double click reads it as UTF-8 ("−", "·", "×" intact); import reads files with and without one. The ``name``
column holds the title printed on the card (the face's title line, e.g. Wizard Cards' spell name); where that
differs from the record's own name, a ``record_name`` column keeps the record's name, and import takes the name
from it (``name`` is then, like ``rules_text``, derived and not read back).

Cells that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, or a control character
such as tab or carriage return) are written with a leading apostrophe; a leading apostrophe is also doubled-up for
cells that start with one, so import can strip exactly one and get the value back.

Every cell that holds a control character (a carriage return or line feed, any other C0 or C1 control, NEL, the
Unicode line and paragraph separators), a comma or a double quote is written in double quotes, its characters as
they are (RFC 4180). A line break outside quotes ends a row in every spreadsheet, so an unquoted carriage return in
a card's name would end the row there and start the next one with whatever follows (a formula); inside quotes,
Excel, LibreOffice Calc, Google Sheets and Python's csv module keep it in the cell (Excel shows a lone carriage
return as a box rather than a line break, which is harmless), and import reads the cell back unchanged. Python's
csv writer quotes a cell with a line feed but not one with a lone carriage return when rows end with a line feed,
so the rows are written here.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import json
import math
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wizprint.atomic import safe_relpath
from wizprint.cards import effects_text, tomlwrite
from wizprint.cards.loader import RESERVED_FILES
from wizprint.cards.markup import plain
from wizprint.cards.model import FieldSpec, Game, Record
from wizprint.errors import MAX_SHOWN, DataErrors, Issue, WizprintError, one_line, quote
from wizprint.files import STDIN, FileProblem, open_regular, read_file
from wizprint.finite import loads_json
from wizprint.resources import inside

if TYPE_CHECKING:
    from .layout import GameLayout

BASE = ["id", "name", "type", "deck", "copies"]
TAIL = ["effects", "text", "flavor", "rules_text"]
RECORD_NAME = "record_name"  # the record's own name, when the printed title (``name``) differs from it
BOM = "\ufeff"
DANGEROUS = ("=", "+", "-", "@", "'")
# control characters (C0, DEL, C1 with NEL) and the Unicode line and paragraph separators: every character that
# some program takes for the end of a line or that a terminal acts on
_CONTROLS = "\x00-\x1f\x7f-\x9f\u2028\u2029"
_NEEDS_QUOTES = re.compile(f'[{_CONTROLS},"]')
_CONTROL_START = re.compile(f"[{_CONTROLS}]")


def escape(cell: str) -> str:
    """A cell that a spreadsheet could take for a formula gets a leading apostrophe (see the module's doc)."""
    return "'" + cell if cell.startswith(DANGEROUS) or _CONTROL_START.match(cell) else cell


def csv_row(cells: list[str]) -> str:
    """One row of the CSV text, ending with a line feed: a cell that holds a control character, a comma or a
    double quote is quoted (its quotes doubled), every other cell is written as it is."""
    return ",".join('"' + c.replace('"', '""') + '"' if _NEEDS_QUOTES.search(c) else c for c in cells) + "\n"


def unescape(cell: str) -> str:
    return cell[1:] if cell.startswith("'") else cell


def columns(game: Game, deck: str | None = None) -> list[str]:
    used: list[str] = []
    for t in game.decl.types.values():
        if deck is not None and t.deck != deck:
            continue
        for f in (*t.required, *t.optional):
            if f not in used:
                used.append(f)
    return BASE + used + TAIL


def _cell(spec: FieldSpec | None, v: Any) -> str:
    if v is None:
        return ""
    if spec is not None and spec.type == "effects":
        return effects_text.fmt(v)
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, str)):
        return str(v)
    return json.dumps(_plainify(v), ensure_ascii=False)


def _plainify(v: Any) -> Any:
    if isinstance(v, (list, tuple)):
        return [_plainify(x) for x in v]
    if isinstance(v, Mapping):
        return {k: _plainify(x) for k, x in v.items()}
    return v


def _face_title(game: Game, layout: Any, r: Record) -> str | None:
    """The title printed on a card's front: the text of the face's first text element in the display font that
    the card draws (None when the face has none, or it cannot be worked out)."""
    from .faces import card_context, eval_expr, render_value

    dl = layout.decks.get(r.deck)
    if dl is None:
        return None
    face = layout.front_face(r.deck, r.type)
    ctx = card_context(game, layout, r, dl.size, r.deck)
    for el in face.elements:
        p = el.props
        if el.kind != "text":
            continue
        if str(render_value(p.get("font", "text"), ctx)) != "display":
            continue
        if "when" in p and not eval_expr(p["when"], dict(ctx, i=0)):
            continue
        title = " ".join(plain(str(render_value(p.get("text", ""), dict(ctx, i=0)))).split())
        return title or None
    return None


def printed_titles(game: Game, deck: str | None = None, layout: GameLayout | None = None) -> dict[str, str]:
    """The title printed on each card (by id), from the game's layout (``layout``, when already loaded); a card
    whose face has no title line, or a game without a (valid) layout, is left out: its record name is what it
    shows."""
    from .faces import _ERRORS
    from .layout import load_layout

    if layout is None:
        try:
            layout = load_layout(game)
        except (DataErrors, OSError):
            return {}
    out: dict[str, str] = {}
    for r in game.cards(deck):
        try:
            title = _face_title(game, layout, r)
        except (*_ERRORS, KeyError):
            title = None
        if title:
            out[r.id] = title
    return out


def export_csv(game: Game, deck: str | None = None, *, bom: bool = True, layout: GameLayout | None = None) -> str:
    """The cards as CSV text, starting with a byte-order mark unless ``bom`` is false (see the module's doc);
    ``layout``: the game's layout, when already loaded (a build's)."""
    if deck is not None and deck not in game.decl.decks:
        raise WizprintError(f"game '{game.id}' has no deck '{deck}' (decks: {', '.join(game.decl.decks)})")
    cards = game.cards(deck)
    titles = printed_titles(game, deck, layout)
    cols = columns(game, deck)
    if any(titles.get(r.id, r.name) != r.name for r in cards):
        cols.insert(cols.index("name") + 1, RECORD_NAME)
    out = [csv_row(cols)]
    issues: list[Issue] = []
    for r in cards:
        row = []
        for col in cols:
            if col == "id":
                v = r.id
            elif col == "name":
                v = titles.get(r.id, r.name)
            elif col == RECORD_NAME:
                v = r.name
            elif col == "type":
                v = r.type
            elif col == "deck":
                v = r.deck
            elif col == "copies":
                v = str(r.copies)
            elif col == "effects":
                v = effects_text.fmt(r.effects)
            elif col == "text":
                v = r.text
            elif col == "flavor":
                v = r.flavor
            elif col == "rules_text":
                v = _rules_text(game, r, issues)
            else:
                v = _cell(game.decl.fields.get(col), r.fields.get(col))
            row.append(escape(v))
        out.append(csv_row(row))
    if issues:
        raise DataErrors(issues)
    return (BOM if bom else "") + "".join(out)


def _rules_text(game: Game, r: Record, issues: list[Issue]) -> str:
    """The plain rules text of a card; a text that cannot be rendered is a problem of the card (as when its face
    is drawn), or of the vocabulary (a word whose text renders itself)."""
    from .faces import _ERRORS, _describe

    try:
        return plain(game.text(r))
    except DataErrors as exc:
        issues.extend(exc.issues)
    except _ERRORS as exc:
        issues.append(Issue(r.source.file, r.source.line, r.id, f"rules text: {_describe(exc)}"))
    return ""


# -- reading a CSV file: bounded, in any of the usual encodings, every problem with its row and column ----------

MAX_FILE_BYTES = 16 * 1024 * 1024  # a CSV file larger than this is refused before it is read
MAX_CELL_CHARS = 64 * 1024  # one cell
MAX_ROWS = 10_000  # card rows (designs) in one file
MAX_COLUMNS = 256
MAX_DEPTH = 32  # nesting of brackets in an effects or JSON cell
IMPORT_MARKER = ".wizprint-import.json"  # written by import csv: what it wrote, so that it may replace it later
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WHOLE = re.compile(r"\s*[+-]?[0-9]{1,18}\s*")
_COPIES = re.compile(r"\s*\+?[0-9]{1,9}\s*")
_BOOLS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32", "UTF-32"), (codecs.BOM_UTF32_BE, "utf-32", "UTF-32"),
         (codecs.BOM_UTF8, "utf-8-sig", "UTF-8"), (codecs.BOM_UTF16_LE, "utf-16", "UTF-16"),
         (codecs.BOM_UTF16_BE, "utf-16", "UTF-16"))


class _Problems:
    """Counts every problem and keeps the first :data:`MAX_SHOWN` in file order (by line)."""

    def __init__(self, source: str):
        self.source = source
        self.kept: list[Issue] = []
        self.total = 0

    def add(self, line: int, card: str, message: str, file: str | None = None) -> None:
        self.total += 1
        self.kept.append(Issue(file or self.source, line, one_line(card, 40), one_line(message, 300)))
        if len(self.kept) > 4 * MAX_SHOWN:
            self.kept = sorted(self.kept)[:MAX_SHOWN]

    def error(self) -> DataErrors:
        return DataErrors(sorted(self.kept)[:MAX_SHOWN], self.total)

    def check(self) -> None:
        if self.total:
            raise self.error()


def read_csv_text(path: Path, source: str | None = None) -> str:
    """The text of a CSV file (``-``: standard input): only a regular file, refused at once when larger than
    :data:`MAX_FILE_BYTES`; UTF-8 with or without a byte-order mark, or UTF-16/32 with one; anything else is an
    error naming the first line that is not text."""
    source = source or str(path)
    try:
        data = read_file(path, MAX_FILE_BYTES, "a CSV file", source, stdin=True)
    except FileProblem as exc:
        if exc.kind == "size":
            raise DataErrors([Issue(source, 0, "", f"the file {exc.reason}")]) from None
        raise WizprintError(f"cannot read {source}: {exc.detail}") from None
    encoding, label = "utf-8", "UTF-8"
    for bom, enc, name in _BOMS:
        if data.startswith(bom):
            encoding, label = enc, name
            break
    nul = data.find(b"\x00") if label == "UTF-8" else -1
    if nul >= 0:
        raise DataErrors([Issue(source, data.count(b"\n", 0, nul) + 1, "",
                                "holds a NUL byte: not a text CSV file (UTF-16 without a byte-order mark?); "
                                "save the file as 'CSV UTF-8'")])
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].decode(encoding, errors="replace").count("\n") + 1
        hint = " (Latin-1 or Windows-1252?)" if label == "UTF-8" else ""
        raise DataErrors([Issue(source, line, "", f"not {label} text: byte 0x{data[exc.start]:02x} cannot be read"
                                                  f"{hint}; save the file as 'CSV UTF-8'")]) from None
    nul = text.find("\x00")
    if nul >= 0:
        raise DataErrors([Issue(source, text.count("\n", 0, nul) + 1, "", "holds a NUL character: not a text CSV "
                                                                          "file; save the file as 'CSV UTF-8'")])
    return text


def _depth(text: str) -> int:
    """The deepest nesting of brackets in ``text`` outside double-quoted strings."""
    depth = deepest = 0
    in_str = escaped = False
    for ch in text:
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}":
            depth -= 1
    return deepest


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a card can hold")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{one_line(text, 40)} is not a number a card can hold")
    return value


def _check_finite(value: Any) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("a number is too large")
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list):
        for v in value:
            _check_finite(v)


def _from_cell(spec: FieldSpec | None, column: str, cell: str) -> Any:
    """The TOML value of a cell; ValueError with a plain message."""
    kind = "effects" if column == "effects" else spec.type if spec is not None else "str"
    if kind in ("effects", "list", "table") and _depth(cell) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    if kind == "effects":
        try:
            effects = effects_text.parse_raw(cell)
            _check_finite(effects)
            return effects
        except RecursionError:
            raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
        except ValueError as exc:  # effects_text.ParseError included
            raise ValueError(f"cannot read the effects: {one_line(str(exc), 120)}") from None
    if kind == "int":
        if not _WHOLE.fullmatch(cell):
            raise ValueError(f"must be a whole number, not {quote(cell)}")
        return int(cell)
    if kind == "bool":
        flag = _BOOLS.get(cell.strip().lower())
        if flag is None:
            raise ValueError(f"must be true or false, not {quote(cell)}")
        return flag
    if kind in ("list", "table"):
        try:
            return json.loads(cell, parse_constant=_no_constant, parse_float=_finite)
        except RecursionError:
            raise ValueError(f"nested more than {MAX_DEPTH} deep") from None
        except ValueError as exc:
            raise ValueError(f"is not JSON ({one_line(str(exc), 120)})") from None
    return cell


def _header(game: Game, raw: list[str], problems: _Problems) -> list[str]:
    header = [unescape(h).strip() for h in raw]
    if len(header) > MAX_COLUMNS:
        problems.add(1, "", f"the header has {len(header)} columns, more than the limit of {MAX_COLUMNS}")
        problems.check()
    missing = [c for c in ("id", "name", "type") if c not in header]
    if missing:
        problems.add(1, "", f"the header lacks column(s) {', '.join(missing)}")
    known = set(BASE) | set(TAIL) | {RECORD_NAME} | set(game.decl.fields)
    seen: dict[str, int] = {}
    for i, h in enumerate(header, start=1):
        if not h:
            continue
        if len(h) > 200 or _CONTROL.search(h):
            problems.add(1, "", f"column {i} has no usable name ({quote(h)})")
        elif h in seen:
            problems.add(1, "", f"column {quote(h)} appears twice (columns {seen[h]} and {i})")
        elif h not in known:
            problems.add(1, "", f"unknown column {quote(h)} (not a field of {game.id})")
        seen.setdefault(h, i)
    if missing:
        problems.check()
    return header


def _rows(game: Game, text: str, source: str) -> list[tuple[int, dict[str, Any]]]:
    """(line, card table) of every row; raises :class:`DataErrors` naming row and column of each problem."""
    problems = _Problems(source)
    text = text.removeprefix(BOM)  # a text read some other way than read_csv_text may still start with its BOM
    limit = csv.field_size_limit()
    csv.field_size_limit(max(limit, len(text) + 1))  # our own, smaller, cell limit names the column
    try:
        return _read_rows(game, csv.reader(io.StringIO(text, newline="")), problems)
    finally:
        csv.field_size_limit(limit)


def _read_rows(game: Game, reader: Any, problems: _Problems) -> list[tuple[int, dict[str, Any]]]:
    try:
        first = next(reader, None)
    except csv.Error as exc:
        problems.add(1, "", f"cannot read the CSV header: {exc}")
        problems.check()
        raise  # pragma: no cover - check() raised
    if first is None or not any(c.strip() for c in first):
        problems.add(1, "", "the CSV file is empty" if first is None else "the first line (the header) is empty")
        problems.check()
    header = _header(game, first or [], problems)
    ignored = {h for h in header if h not in game.decl.fields and h not in BASE and h not in TAIL
               and h != RECORD_NAME}
    out: list[tuple[int, dict[str, Any]]] = []
    end = reader.line_num
    count = 0
    while True:
        line = end + 1
        try:
            row = next(reader, None)
        except csv.Error as exc:
            problems.add(line, "", f"cannot read the CSV: {exc}; the rest of the file was not read")
            break
        if row is None:
            break
        end = reader.line_num
        if not any(c.strip() for c in row):
            continue
        count += 1
        if count > MAX_ROWS:
            problems.add(line, "", f"more than {MAX_ROWS} card rows, the limit; the rest of the file was not read")
            break
        rec = _row(game, header, ignored, row, line, problems)
        if rec is not None:
            out.append((line, rec))
    problems.check()
    return out


def _row(game: Game, header: list[str], ignored: set[str], row: list[str], line: int,
         problems: _Problems) -> dict[str, Any] | None:
    before = problems.total
    cid = unescape(row[header.index("id")]) if header.index("id") < len(row) else ""

    def bad(column: str | None, message: str) -> None:
        problems.add(line, cid, f"column {quote(column)}: {message}" if column is not None else message)

    extra = [c for c in row[len(header):] if c.strip()]
    if extra:
        bad(None, f"the row has {len(row)} cells, the header names {len(header)} columns")
    cells: dict[str, str] = {}
    for h, raw in zip(header, row):
        if len(raw) > MAX_CELL_CHARS:
            bad(h or None, f"the cell holds {len(raw):,} characters, more than the limit of {MAX_CELL_CHARS:,}")
            continue
        m = _CONTROL.search(raw)
        if m:
            bad(h or None, f"the cell holds a control character (U+{ord(m.group()):04X})")
            continue
        if not h:
            if raw.strip():
                bad(None, "a cell under a column without a name in the header")
            continue
        if h not in ignored and h != "rules_text":
            cells[h] = unescape(raw)
    cid = one_line(cells.get("id", ""), 40)
    # the record's own name: its column when the export wrote one (``name`` is then the printed title)
    name = cells.get(RECORD_NAME) or cells.get("name", "")
    rec: dict[str, Any] = {"id": cells.get("id", ""), "name": name, "type": cells.get("type", "")}
    if cells.get("deck"):
        rec["deck"] = cells["deck"]
    copies = cells.get("copies", "").strip() or "1"
    if not _COPIES.fullmatch(copies) or int(copies) < 1:
        bad("copies", f"must be a whole number of at least 1, not {quote(copies)}")
    elif int(copies) != 1:
        rec["copies"] = int(copies)
    for h, v in cells.items():
        if h in BASE or h in TAIL or h == RECORD_NAME or v == "":
            continue
        try:
            rec[h] = _from_cell(game.decl.fields[h], h, v)
        except ValueError as exc:
            bad(h, str(exc))
    for h in ("effects", "text", "flavor"):
        if cells.get(h):
            try:
                rec[h] = _from_cell(None, h, cells[h])
            except ValueError as exc:
                bad(h, str(exc))
    return rec if problems.total == before else None


def read_csv(game: Game, text: str, source: str) -> list[Mapping[str, Any]]:
    """Rows of a CSV text as TOML-shaped card tables; problems as :class:`DataErrors` naming row and column."""
    return [rec for _, rec in _rows(game, text, source)]


# -- import: a whole game folder, written beside its place and renamed in --------------------------------------

def previous_import(folder: Path, shown_as: Path | None = None) -> set[str]:
    """The files that an earlier ``import csv`` wrote in ``folder`` (none for a missing or empty folder).

    Refuses (WizprintError) a folder that is not empty and not an earlier import, and an earlier import whose
    files were changed since: the user's own files are never overwritten or deleted."""
    where = shown_as or folder
    if not os.path.lexists(folder):
        return set()
    if not folder.is_dir():
        raise WizprintError(f"{where} exists and is not a folder")
    try:
        with os.scandir(folder) as it:
            if next(it, None) is None:
                return set()
    except OSError as exc:
        raise WizprintError(f"cannot read {where}: {exc.strerror or exc}") from None
    marker = folder / IMPORT_MARKER
    refuse = (f"{where} is not empty and is not an earlier import ({{}}); wizprint will not write into it: choose "
              f"a new or empty folder")
    if marker.is_symlink() or not marker.is_file():
        raise WizprintError(refuse.format(f"it has no {IMPORT_MARKER}"))
    try:
        data = loads_json(read_file(marker, 1024 * 1024).decode("utf-8"))
        files = data["files"]
        listed = {f["file"]: f["sha256"] for f in files}
        if data.get("made_by") != "wizprint import csv" or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in listed.items()):
            raise ValueError
        for name in listed:
            safe_relpath(name)
    except (OSError, ValueError, RecursionError, KeyError, TypeError, WizprintError):
        raise WizprintError(refuse.format(f"its {IMPORT_MARKER} was not written by wizprint")) from None
    for name, digest in sorted(listed.items()):
        path = folder / name
        if path.is_file() and not path.is_symlink():
            try:
                same = _sha256(path) == digest
            except FileProblem as exc:
                raise WizprintError(f"cannot read {where / name}: {exc.detail}") from None
            except OSError as exc:
                raise WizprintError(f"cannot read {where / name}: {exc.strerror or exc}") from None
            if not same:
                raise WizprintError(f"{where / name} was changed after the earlier import; wizprint will not "
                                    f"overwrite it: move it away (or delete it) and import again")
        elif os.path.lexists(path):
            raise WizprintError(f"{where / name} is no longer the file the earlier import wrote; move it away "
                                f"(or delete it) and import again")
    return set(listed) | {IMPORT_MARKER}


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open_regular(path) as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _game_files(game: Game) -> list[tuple[str, bytes]]:
    """The game's own files that an imported folder needs besides its cards: game.toml, vocabulary, the layouts
    (every file the loader reserves) and every TOML file without ``[[card]]`` tables (regular files of a bounded
    size only)."""
    out: list[tuple[str, bytes]] = []
    for p in sorted(game.root.glob("*.toml")):
        if p.is_symlink() and not inside(game.root, p):
            continue
        try:
            data = read_file(p, MAX_FILE_BYTES)
        except FileProblem:
            continue
        if p.name in RESERVED_FILES or p.name == game.decl.vocabulary_file or not _has_cards(data):
            out.append((p.name, data))
    return out


def import_csv(game: Game, csv_path: Path, out_dir: Path) -> Path:
    """Write a game folder at ``out_dir``: the CSV's cards as ``cards.toml`` plus the game's declaration,
    vocabulary and non-card data, so that it loads and validates on its own.

    The folder is written beside ``out_dir`` and renamed into place only once it loads without a problem, so a
    failed import leaves nothing behind. ``out_dir`` must be missing, empty or an earlier import (see
    :func:`previous_import`); files of the user's in an earlier import are kept. Problems name the CSV row and
    column (:class:`DataErrors`), also those found when loading the written folder."""
    from wizprint.atomic import StagedFolder
    from wizprint.cards.loader import display_path, load_game

    stdin = str(csv_path) == STDIN
    source = "standard input" if stdin else str(csv_path)
    rows = _rows(game, read_csv_text(csv_path, source), source)
    try:
        written = tomlwrite.write_records("card", [rec for _, rec in rows], f"Cards of {game.name}, imported from "
                                          f"{source if stdin else csv_path.name} by wizprint.")
    except (ValueError, TypeError) as exc:  # pragma: no cover - the rows were checked cell by cell
        raise WizprintError(f"{source}: cannot write the cards as TOML: {exc}") from None
    ours = [*((n, d) for n, d in _game_files(game) if n != "cards.toml"), ("cards.toml", written.text.encode())]
    with StagedFolder(out_dir, "import folder") as stage:
        previous_import(stage.real, out_dir)
        for name, data in ours:
            stage.write(name, data)
        listed = previous_import(stage.real, out_dir)
        kept = stage.carry_over(lambda rel: rel in listed)
        assert stage.path is not None
        try:
            load_game(stage.path)
        except DataErrors as exc:
            files = {display_path(stage.path / name): name for name, _ in ours}
            files.update({display_path(stage.path / rel): rel for rel in kept})
            raise _map_back(exc, source, rows, written, files, game, out_dir, {n for n, _ in ours}) from None
        marker = {"made_by": "wizprint import csv", "game": game.id, "csv": csv_path.name,
                  "files": [{"file": n, "sha256": hashlib.sha256(d).hexdigest()} for n, d in ours]}
        stage.write(IMPORT_MARKER, json.dumps(marker, indent=1) + "\n")
        stage.commit()
    return out_dir / "cards.toml"


def _map_back(exc: DataErrors, source: str, rows: list[tuple[int, dict[str, Any]]], written: tomlwrite.Written,
              files: dict[str, str], game: Game, out_dir: Path, ours: set[str]) -> DataErrors:
    """Problems found by loading the written folder, told where the user can fix them: a card's problem at its
    CSV row and column, a count the game declares at the CSV file, a problem in a kept or copied file at that
    file (as the user knows it)."""
    from wizprint.cards.loader import display_path

    problems = _Problems(source)
    first_row: dict[Any, int] = {}
    for index, (_, rec) in enumerate(rows):
        first_row.setdefault(rec.get("id"), index)

    def csv_line(toml_line: int) -> int:
        at = written.locate(toml_line)
        return rows[at[0]][0] if at is not None and at[0] < len(rows) else 0

    def where(name: str) -> str:
        return display_path(game.root / name) if name in ours else display_path(out_dir / name)

    # a message may name a place in the written files too ("duplicate id 'X' (first at .../cards.toml:24)")
    places = re.compile("(" + "|".join(re.escape(f) for f in sorted(files, key=len, reverse=True)) + r")(?::(\d+))?")

    def place(m: re.Match[str]) -> str:
        name, line = files[m.group(1)], m.group(2)
        if name == "cards.toml":
            return f"{source}:{csv_line(int(line))}" if line else source
        return where(name) + (f":{line}" if line else "")

    def retold(message: str) -> str:
        return places.sub(place, message) if files else message

    for issue in exc.issues:
        name = files.get(issue.file)
        message = retold(issue.message)
        if name == "cards.toml":
            at = written.locate(issue.line) if issue.line else None
            if at is None and issue.card in first_row:
                at = (first_row[issue.card], None)
            if at is not None and at[0] < len(rows):
                index, column = at
                problems.add(rows[index][0], issue.card, f"column {quote(column)}: {message}" if column else message)
            else:
                problems.add(0, issue.card, message)
        elif name == "game.toml" or name is None:
            problems.add(0, issue.card, message)
        else:
            problems.add(issue.line, issue.card, message, file=where(name))
    return problems.error()


def _has_cards(data: bytes) -> bool:
    return any(line.strip().startswith("[[card]]") for line in data.decode("utf-8", "replace").splitlines())


def record_key(r: Record) -> tuple[Any, ...]:
    """What a round trip must preserve."""
    return (r.kind, r.id, r.name, r.type, r.deck, r.copies, dict(r.fields), r.effects, r.text, r.flavor)
