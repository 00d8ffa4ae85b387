"""Where the shipped data lives (inside the installed package)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _pkg_dir(package: str) -> Path:
    return Path(str(files(package)))


def cards_dir() -> Path:
    """Folder holding one sub-folder of TOML data per game."""
    return _pkg_dir("wizprint.cards")


def layouts_dir() -> Path:
    """Folder holding layouts, fonts, icons and templates."""
    return _pkg_dir("wizprint.layouts")


def game_ids() -> list[str]:
    """Ids of the games shipped with wizprint, in the order of DESIGN.md."""
    order = ["relic", "wizards-and-relics", "wizards-cup", "wizard-cards", "covenant"]
    present = {p.name for p in cards_dir().iterdir() if (p / "game.toml").is_file()}
    return [g for g in order if g in present] + sorted(present - set(order))


def inside(root: Path, path: Path) -> bool:
    """Whether ``path`` (links resolved) lies inside ``root``: a path built from data must not leave its root."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, ValueError, RuntimeError):  # a NUL byte, a link loop, a name too long
        return False
