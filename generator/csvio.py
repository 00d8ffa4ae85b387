"""CSV export and import of a game's cards: one row per design, with a ``copies`` column.

Cells that a spreadsheet would run as a formula (starting with ``=``, ``+``, ``-``, ``@``, tab or carriage
return) are written with a leading apostrophe; a leading apostrophe is also doubled-up for cells that start with
one, so import can strip exactly one and get the value back.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wizprint.cards import effects_text, tomlwrite
from wizprint.cards.markup import plain
from wizprint.cards.model import FieldSpec, Game, Record
from wizprint.errors import DataErrors, Issue, WizprintError

BASE = ["id", "name", "type", "deck", "copies"]
TAIL = ["effects", "text", "flavor", "rules_text"]
DANGEROUS = ("=", "+", "-", "@", "\t", "\r", "'")


def escape(cell: str) -> str:
    return "'" + cell if cell.startswith(DANGEROUS) else cell


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


def export_csv(game: Game, deck: str | None = None) -> str:
    if deck is not None and deck not in game.decl.decks:
        raise WizprintError(f"game '{game.id}' has no deck '{deck}' (decks: {', '.join(game.decl.decks)})")
    cols = columns(game, deck)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(cols)
    for r in game.cards(deck):
        row = []
        for col in cols:
            if col == "id":
                v = r.id
            elif col == "name":
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
                v = plain(game.text(r))
            else:
                v = _cell(game.decl.fields.get(col), r.fields.get(col))
            row.append(escape(v))
        w.writerow(row)
    return buf.getvalue()


def _from_cell(spec: FieldSpec, cell: str) -> Any:
    if spec.type == "effects":
        return effects_text.parse_raw(cell)
    if spec.type == "int":
        return int(cell)
    if spec.type == "bool":
        return cell.strip().lower() in ("true", "1", "yes")
    if spec.type in ("list", "table"):
        return json.loads(cell)
    return cell


def read_csv(game: Game, text: str, source: str) -> list[Mapping[str, Any]]:
    """Rows of a CSV file as TOML-shaped card tables; problems as :class:`DataErrors` with row lines."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = [unescape(h) for h in next(reader)]
    except StopIteration:
        raise DataErrors([Issue(source, 1, "", "the CSV file is empty")]) from None
    missing = [c for c in ("id", "name", "type") if c not in header]
    if missing:
        raise DataErrors([Issue(source, 1, "", f"the header lacks column(s) {', '.join(missing)}")])
    issues: list[Issue] = []
    out: list[Mapping[str, Any]] = []
    for lineno, row in enumerate(reader, start=2):
        if not any(row):
            continue
        cells = {h: unescape(v) for h, v in zip(header, row)}
        cid = cells.get("id", "")
        rec: dict[str, Any] = {"id": cid, "name": cells.get("name", ""), "type": cells.get("type", "")}
        try:
            if cells.get("deck"):
                rec["deck"] = cells["deck"]
            copies = int(cells.get("copies") or 1)
            if copies != 1:
                rec["copies"] = copies
            for h, v in cells.items():
                if h in BASE or h in TAIL or v == "":
                    continue
                spec = game.decl.fields.get(h)
                if spec is None:
                    issues.append(Issue(source, lineno, cid, f"unknown column '{h}'"))
                    continue
                rec[h] = _from_cell(spec, v)
            if cells.get("effects"):
                rec["effects"] = effects_text.parse_raw(cells["effects"])
            if cells.get("text"):
                rec["text"] = cells["text"]
            if cells.get("flavor"):
                rec["flavor"] = cells["flavor"]
        except (ValueError, effects_text.ParseError) as exc:
            issues.append(Issue(source, lineno, cid, f"cannot read the row: {exc}"))
            continue
        out.append(rec)
    if issues:
        raise DataErrors(issues)
    return out


def import_csv(game: Game, csv_path: Path, out_dir: Path) -> Path:
    """Write a game folder at ``out_dir``: the CSV's cards as ``cards.toml`` plus the game's declaration,
    vocabulary and non-card data, so that it loads and validates on its own."""
    from wizprint.atomic import ensure_dir, write_atomic

    try:
        text = csv_path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise WizprintError(f"cannot read {csv_path}: {exc.strerror or exc}") from None
    rows = read_csv(game, text, str(csv_path))
    ensure_dir(out_dir)
    for p in sorted(game.root.glob("*.toml")):
        if p.name in ("game.toml", game.decl.vocabulary_file, "layout.toml") or not _has_cards(p):
            if out_dir.resolve() != game.root.resolve():
                shutil.copyfile(p, out_dir / p.name)
        elif out_dir.resolve() != game.root.resolve() and (out_dir / p.name).exists():
            (out_dir / p.name).unlink()
    body = tomlwrite.records("card", rows, f"Cards of {game.name}, imported from {csv_path.name} by wizprint.")
    return write_atomic(out_dir / "cards.toml", body)


def _has_cards(path: Path) -> bool:
    return any(line.strip().startswith("[[card]]") for line in path.read_text(encoding="utf-8").splitlines())


def record_key(r: Record) -> tuple[Any, ...]:
    """What a round trip must preserve."""
    return (r.kind, r.id, r.name, r.type, r.deck, r.copies, dict(r.fields), r.effects, r.text, r.flavor)
