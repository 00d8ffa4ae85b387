"""Where the shipped data lives (inside the installed package)."""

from __future__ import annotations

import os
from functools import cache
from importlib.resources import files
from pathlib import Path


@cache  # where the package lies does not change while it runs
def _pkg_dir(package: str) -> Path:
    return Path(str(files(package)))


def cards_dir() -> Path:
    """Folder holding one sub-folder of TOML data per game."""
    return _pkg_dir("wizprint.cards")


def layouts_dir() -> Path:
    """Folder holding layouts, fonts, icons and templates."""
    return _pkg_dir("wizprint.layouts")


_FOLDER_ICONS: dict[str, Path] = {}  # a game folder's own icons/, by the game's id (see register_icons)


def register_icons(game: str, folder: Path) -> None:
    """A game folder that carries its own icons (``icons/`` beside its ``game.toml``): they are found first for
    that game's id, before the shipped game's and the shared ones."""
    _FOLDER_ICONS[game] = folder


def folder_icons(game: str) -> Path | None:
    """The icon folder a loaded game folder registered for ``game`` (None: none)."""
    return _FOLDER_ICONS.get(game)


def game_ids() -> list[str]:
    """Ids of the games shipped with wizprint, in the order of DESIGN.md."""
    order = ["relic", "wizards-and-relics", "wizards-cup", "wizard-cards", "covenant"]
    present = {p.name for p in cards_dir().iterdir() if (p / "game.toml").is_file()}
    return [g for g in order if g in present] + sorted(present - set(order))


def _shipped(path: Path) -> bool:
    """Whether ``path`` is (lexically) inside the shipped data folders: the installation's own files."""
    p = Path(os.path.normpath(path.absolute()))
    return any(p.is_relative_to(os.path.normpath(d.absolute())) for d in (cards_dir(), layouts_dir()))


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` (links resolved) lies inside ``root``: a path built from data must not leave its root.
    The shipped games' own files are trusted as they are found: an editable install in strict mode
    (``editable_mode=strict``) makes every shipped file a link into the source tree."""
    try:
        if path.resolve().is_relative_to(root.resolve()):
            return True
        return _shipped(root) and _shipped(path) and Path(os.path.normpath(path.absolute())).is_relative_to(
            os.path.normpath(root.absolute()))
    except (OSError, ValueError, RuntimeError):  # a NUL byte, a link loop, a name too long
        return False
