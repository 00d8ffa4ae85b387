"""``wizprint new FOLDER --from GAME``: a game folder of one's own, copied whole from a shipped game (or another
folder): its card data, its layout files under a game folder's names, the icons of its own, and a short README.
The folder's name becomes the new game's id and its title the name, so its builds go to ``output/<folder>/`` and
never over a shipped game's files.

The copy is made in a temporary folder beside the new one and renamed into place when it is whole: a failure
leaves nothing behind, and an existing folder (unless empty) is never written into."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from wizprint.errors import UsageError, WizprintError, quote
from wizprint.files import FileProblem, read_file
from wizprint.resources import game_ids, inside, layouts_dir

# a shipped game's layout files, and their names in a game folder
LAYOUT_NAMES = {"layout.toml": "layout.toml", "sheets.toml": "sheets.toml", "board.toml": "board-layout.toml",
                "components.toml": "components-layout.toml", "map.toml": "map-layout.toml",
                "table.toml": "table-layout.toml"}
FOLDER_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
FILE_LIMIT = 16 * 1024 * 1024  # the largest file copied
MAX_FILES = 2000


@dataclass(frozen=True)
class Made:
    """What ``new`` wrote: the folder, the new id and title, and how many files of each kind."""

    folder: Path
    id: str
    name: str
    data: int
    layouts: int
    icons: int


def title_of(folder_id: str) -> str:
    """``my-relic`` -> ``My Relic``."""
    return " ".join(w[:1].upper() + w[1:] for w in folder_id.split("-") if w)


def renamed(game_toml: str, new_id: str, new_name: str) -> str:
    """``game.toml``'s text with its top-level ``id`` and ``name`` replaced (the lines before the first table; every
    other line, comments included, as it was)."""
    out, done = [], set()
    for line in game_toml.splitlines(keepends=True):
        stripped = line.lstrip()
        if stripped.startswith("["):
            done.add("tables")
        if "tables" not in done:
            m = re.match(r"^(id|name)\s*=", stripped)
            if m and m.group(1) not in done:
                done.add(m.group(1))
                end = "\n" if line.endswith("\n") else ""
                value = new_id if m.group(1) == "id" else new_name
                line = f'{m.group(1)} = "{value}"{end}'
        out.append(line)
    if not {"id", "name"} <= done:
        raise WizprintError("game.toml of the game copied has no top-level id and name to replace")
    return "".join(out)


def _files(folder: Path, pattern: str) -> list[Path]:
    """The regular files of ``folder`` matching ``pattern``, links that leave it left out."""
    if not folder.is_dir():
        return []
    found = sorted(p for p in folder.glob(pattern) if p.is_file() and inside(folder, p))
    if len(found) > MAX_FILES:
        raise WizprintError(f"{folder}: more than {MAX_FILES} files to copy")
    return found


def _read(path: Path) -> bytes:
    try:
        return read_file(path, FILE_LIMIT, "a game file")
    except FileProblem as exc:
        raise WizprintError(str(exc)) from None


def plan(source: Path, source_id: str) -> dict[str, Path]:
    """Each file of the new folder (its name there) and the file it is copied from."""
    out: dict[str, Path] = {}
    for p in _files(source, "*.toml") + _files(source, "*.md"):
        if p.name != "README.md":
            out[p.name] = p
    shipped = layouts_dir() / source_id
    for ship_name, folder_name in LAYOUT_NAMES.items():
        if folder_name in out:
            continue  # the source folder's own layout file
        p = shipped / ship_name
        if p.is_file():
            out[folder_name] = p
    own_icons = _files(source / "icons", "*")
    for p in own_icons or _files(shipped / "icons", "*"):
        if p.suffix in (".svg", ".md"):
            out[f"icons/{p.name}"] = p
    for p in _files(shipped, "*.md"):
        out.setdefault(f"icons/{p.name}" if p.name.startswith("ICONS") else p.name, p)
    return out


def new_game(folder: Path, source_name: str) -> Made:
    """Copy the game ``source_name`` (a shipped id or a folder) into the new game folder ``folder``."""
    from wizprint.cards.loader import load_game, resolve_game_dir

    new_id = folder.name
    if not FOLDER_ID.match(new_id):
        raise UsageError(f"{quote(str(folder), 80)}: the folder's name is the new game's id: use lower-case letters, "
                         f"digits and '-' (at most 32), e.g. my-{source_name.strip('./')[:20] or 'game'}")
    if new_id in game_ids():
        raise UsageError(f"{quote(new_id)} is a shipped game's id: give the new folder a name of its own "
                         f"(e.g. my-{new_id})")
    if os.path.lexists(folder) and not (folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir())):
        raise UsageError(f"{quote(str(folder), 80)} already exists: wizprint new makes a new folder and never "
                         f"writes into one of yours")
    source = resolve_game_dir(source_name)
    game = load_game(source)  # the source must be a whole game: its problems are said before anything is made
    files = plan(source, game.decl.id)
    name = title_of(new_id)
    parent = folder.absolute().parent
    if not parent.is_dir():
        raise UsageError(f"{quote(str(parent), 80)}: no such folder to make the new game in")
    staging = Path(tempfile.mkdtemp(prefix=f".{new_id}.wizprint-new-", dir=parent))
    try:
        (staging / "icons").mkdir()
        for rel, src in files.items():
            data = _read(src)
            if rel == "game.toml":
                data = renamed(data.decode("utf-8"), new_id, name).encode("utf-8")
            (staging / rel).write_bytes(data)
        (staging / "README.md").write_text(readme(new_id, name, game.decl.name, game.decl.id), encoding="utf-8")
        if not any((staging / "icons").iterdir()):
            (staging / "icons").rmdir()
        if folder.is_dir():
            folder.rmdir()  # the empty folder given: replaced by the whole copy
        os.rename(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    count = {k: sum(1 for r in files if kind(r) == k) for k in ("data", "layout", "icon")}
    return Made(folder, new_id, name, count["data"], count["layout"], count["icon"])


def kind(rel: str) -> str:
    if rel.startswith("icons/"):
        return "icon"
    return "layout" if rel in LAYOUT_NAMES.values() else "data"


def readme(new_id: str, name: str, source_name: str, source_id: str) -> str:
    return f"""# {name}

A game folder made by `wizprint new` from {source_name} (`{source_id}`). Its id is `{new_id}` (`game.toml`), so
its builds go to `output/{new_id}/`.

- `game.toml`: the game (id, name, players, fields, decks, components, the rules engine);
- `vocabulary.toml`: the effect words the cards may use; the other `.toml` files: the cards and records;
- `layout.toml` and the other `*-layout.toml` / `sheets.toml` files: how the cards, sheets and boards look;
- `icons/`: the icons of this game's own (the shared game-icons.net icons are found without copying; see their
  credits in wizprint's `layouts/icons/CREDITS.md`).

Give the folder's path to any command:

```sh
wizprint validate ./{new_id}                # every problem at its file and line
wizprint build ./{new_id}                   # output/{new_id}/
wizprint build ./{new_id} --watch           # rebuild on every save, with proof.png of the changed cards
wizprint solo play ./{new_id}               # play it against the automaton
wizprint solo check ./{new_id} --games 200 --json before.json   # how the cards do
```

The docs' "Your own game" page explains every file.
"""
