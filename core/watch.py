"""``wizprint build GAME --watch``: build, then rebuild on every save of the game's files (the ``watchfiles``
package), with a proof sheet of what changed.

Each rebuild checks the data first, as every build does: an edit with a mistake prints its problems and leaves the
last good build as it was. A build keeps the files that come out as before (see ``StagedFolder``), so a rebuild
rewrites only what the edit changed. After a rebuild that changed cards, ``proof.png`` in the build's folder shows
each changed face before and after, side by side (cut from the decks' contact sheets, which are cut from the deck
PDFs: what prints). Ctrl-C ends the watch."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wizprint.errors import WizprintError
from wizprint.files import FileProblem, read_file
from wizprint.resources import layouts_dir

PROOF = "proof.png"
GAME_FILES = (".toml", ".svg")  # the kinds of file a game folder is made of (data, layouts, icons)
DEBOUNCE_MS = 300  # saves closer together than this are one change (an editor's write, rename and touch)
MAX_PROOF_FACES = 60  # a proof sheet shows at most this many changed faces (the count of the rest is said)


@dataclass(frozen=True)
class Faces:
    """The faces of a build, cut from its contact sheets: ``(deck, face id) -> PNG-comparable image``."""

    images: dict[tuple[str, str], Any]

    def changed(self, after: Faces) -> list[tuple[str, str]]:
        """The faces that differ (added, removed or drawn otherwise), in the decks' order."""
        keys = list(dict.fromkeys([*self.images, *after.images]))
        out = []
        for k in keys:
            a, b = self.images.get(k), after.images.get(k)
            if a is None or b is None or a.size != b.size or a.tobytes() != b.tobytes():
                out.append(k)
        return out


def faces_of(out_dir: Path) -> Faces:
    """The faces of the build in ``out_dir`` (none when it has no previews, or is not a build)."""
    from wizprint.generator.contact import contact_cells

    images: dict[tuple[str, str], Any] = {}
    try:
        manifest = json.loads(read_file(out_dir / "manifest.json", 64 * 1024 * 1024).decode("utf-8"))
        entries = [f for f in manifest.get("files", []) if isinstance(f, dict) and f.get("kind") == "preview"]
        for f in entries:
            faces = f.get("faces")
            if not isinstance(faces, list) or not faces:
                continue
            png = read_file(out_dir / str(f["file"]), 256 * 1024 * 1024)
            for face, image in zip(faces, contact_cells(png, len(faces)), strict=True):
                images[(str(f.get("deck", "")), str(face))] = image
    except (FileProblem, OSError, ValueError, KeyError, TypeError):
        return Faces({})
    return Faces(images)


def proof_png(before: Faces, after: Faces, changed: list[tuple[str, str]]) -> bytes:
    """A sheet of the changed faces: a row each, the face before (or empty: added) beside the face after (or empty:
    removed), each row labelled by its id."""
    from PIL import Image, ImageDraw

    from wizprint.generator.contact import png_rgb

    shown = changed[:MAX_PROOF_FACES]
    sizes = [im.size for k in shown for im in (before.images.get(k), after.images.get(k)) if im is not None]
    w = max(s[0] for s in sizes)
    h = max(s[1] for s in sizes)
    gap, label = 12, 18
    sheet = Image.new("RGB", (3 * gap + 2 * w, gap + len(shown) * (h + label + gap)), (235, 235, 235))
    draw = ImageDraw.Draw(sheet)
    for i, key in enumerate(shown):
        y = gap + i * (h + label + gap)
        draw.text((gap, y), f"{key[1]}: before", fill=(60, 60, 60))
        draw.text((2 * gap + w, y), f"{key[1]}: after", fill=(60, 60, 60))
        for col, im in enumerate((before.images.get(key), after.images.get(key))):
            x = gap + col * (w + gap)
            if im is None:
                draw.rectangle((x, y + label, x + w - 1, y + label + h - 1), outline=(160, 160, 160))
                draw.text((x + 8, y + label + 8), "(none)", fill=(120, 120, 120))
            else:
                sheet.paste(im, (x, y + label))
    return png_rgb(sheet)


def watched_paths(game_root: Path, game_id: str) -> list[Path]:
    """The folders whose files make the game: its game folder, and the shipped layouts of its id when the folder
    takes them from there."""
    paths = [game_root]
    shipped = layouts_dir() / game_id
    if shipped.is_dir() and not (game_root / "layout.toml").is_file():
        paths.append(shipped)
    return paths


def relevant(changes: Iterable[tuple[Any, str]], out_dir: Path) -> list[Path]:
    """The changed files that make the game (TOML data and layouts, SVG icons): not the build's own folder, nor an
    editor's hidden, backup or temporary files."""
    out = []
    for _, name in changes:
        p = Path(name)
        try:
            if p.resolve().is_relative_to(out_dir.resolve()):
                continue
        except (OSError, ValueError):
            continue
        if p.name.startswith((".", "#")) or p.suffix not in GAME_FILES:
            continue  # an editor's hidden, backup or temporary file
        out.append(p)
    return out


def watch(game: str, build: Callable[[], Any], out_dir: Path, game_root: Path, game_id: str,
          say: Callable[[str], None], err: Callable[[str], None], stop: threading.Event | None = None) -> None:
    """Build, then rebuild after every change of the game's files until Ctrl-C (or ``stop`` is set)."""
    import logging

    import watchfiles

    from wizprint.atomic import write_atomic

    logging.getLogger("watchfiles").setLevel(logging.WARNING)  # its own notes (how it stopped) are not the user's
    from wizprint.clitools import error_lines

    def attempt() -> bool:
        try:
            build()
        except WizprintError as exc:
            for line in error_lines(exc):
                err(line)
            err(f"the last good build is kept in {out_dir}; watching for the next save")
            return False
        return True

    proof = out_dir / PROOF
    attempt()
    paths = watched_paths(game_root, game_id)
    ready = False
    # an empty yield every half second: the first says that the watch has begun (a save before it is not seen)
    for changes in watchfiles.watch(*paths, debounce=DEBOUNCE_MS, stop_event=stop, raise_interrupt=False,
                                    yield_on_timeout=True, rust_timeout=500):
        if not ready:
            ready = True
            say(f"watching {', '.join(str(p) for p in paths)} for changes (Ctrl-C to stop)")
        files = relevant(changes, out_dir)
        if not files:
            continue
        say(f"changed: {', '.join(sorted({f.name for f in files}))}")
        before = faces_of(out_dir)
        ours = proof.is_file() and not proof.is_symlink()
        if ours:
            proof.unlink()  # the proof of the earlier rebuild: not a file of the user's for the build to keep
        if not attempt():
            continue
        after = faces_of(out_dir)
        changed = before.changed(after) if before.images else []
        if changed:
            write_atomic(proof, proof_png(before, after, changed))
            names = ", ".join(k[1] for k in changed[:10]) + (f" and {len(changed) - 10} more" if len(changed) > 10
                                                              else "")
            say(f"proof: {len(changed)} changed face{'s' if len(changed) != 1 else ''} ({names}) in {proof}")
        else:
            say("no card's face changed")
    say("stopped watching")
