"""Shared fixtures: builds of the shipped games in temporary folders (built once per test session)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from wizprint.generator.build import BuildOptions, BuildResult, build_game
from wizprint.generator.deckpdf import PrintOptions
from wizprint.resources import cards_dir

Builder = Callable[..., BuildResult]


@pytest.fixture(scope="session")
def build(tmp_path_factory: pytest.TempPathFactory) -> Builder:
    """build(game, paper=..., duplex=..., ...) -> BuildResult, cached per option set for the session."""
    cache: dict[tuple[object, ...], BuildResult] = {}

    def _build(game: str, *, svg: bool = False, png: bool = False, **print_opts: object) -> BuildResult:
        key = (game, svg, png, tuple(sorted(print_opts.items())))
        if key not in cache:
            out = tmp_path_factory.mktemp(f"build-{game}")
            opts = BuildOptions(print=PrintOptions(**print_opts), svg=svg, png=png)  # type: ignore[arg-type]
            cache[key] = build_game(game, out, opts)
        return cache[key]

    return _build


@pytest.fixture
def game_copy(tmp_path: Path) -> Callable[[str], Path]:
    """A writable copy of a shipped game's data folder (with its layout), to break on purpose."""

    def _copy(game: str) -> Path:
        dst = tmp_path / game
        shutil.copytree(cards_dir() / game, dst, ignore=shutil.ignore_patterns("__pycache__"))
        return dst

    return _copy
