"""Shared fixtures: builds of the shipped games in temporary folders (built once per test session, for all the
workers)."""

from __future__ import annotations

import fcntl
import gc
import hashlib
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer.main
import typer.testing

from wizprint.cli import app
from wizprint.generator.build import BuildOptions, BuildResult, build_game
from wizprint.generator.deckpdf import PrintOptions
from wizprint.resources import cards_dir

Builder = Callable[..., BuildResult]

# The tests keep a large heap (every engine, the builds, hypothesis) and make objects by the million (clones, log
# lines): with Python's default thresholds (700, 10, 10) the cyclic collector ran about 20,000 times in the engine
# tests, 2.8 s of 60. Collecting less often changes no result, only when memory held by cycles is given back.
gc.set_threshold(50_000, 20, 100)


# typer's CliRunner turns the app into a click command at every invoke (3.7 ms of reading annotations; the tests
# invoke the CLI in-process about 1,000 times, most of them in the fuzz tests): wizprint's command is built once
# per process instead, as a real `wizprint` process builds it once. Any other app is built as before.
_COMMAND = typer.main.get_command(app)


def _command_of(typer_app: typer.Typer) -> Any:
    return _COMMAND if typer_app is app else typer.main.get_command(typer_app)


setattr(typer.testing, "_get_command", _command_of)  # noqa: B010 (the private name typer's CliRunner.invoke calls)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What is alive once the tests are collected (modules, engines, card data, the test items) lives to the end:
    moved out of the collector's sight (``gc.freeze``), so its full collections and pytest's last one at exit walk
    only what the tests made (about 40 % of the heap at the end, 0.4 s a process at exit before)."""
    gc.freeze()


def _shared_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this test session that every pytest-xdist worker sees (the parent of the workers' own temporary
    folders, made anew for each session); without xdist, this process's own."""
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared-builds"
    root.mkdir(exist_ok=True)
    return root


def _build_once(root: Path, key: tuple[object, ...], make: Callable[[Path], BuildResult]) -> BuildResult:
    """The build for ``key``, made by the first worker that asks for it and read back by the others (a lock file per
    build: a worker asking for a build being made waits for it instead of making it again)."""
    name = hashlib.sha256(repr(key).encode()).hexdigest()[:16]
    done = root / f"{name}.pickle"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if done.is_file():
            result: BuildResult = pickle.loads(done.read_bytes())
            return result
        result = make(root / name)
        part = root / f"{name}.part"
        part.write_bytes(pickle.dumps(result))
        part.replace(done)
        return result


def _empty(folder: Path) -> Path:
    folder.mkdir(parents=True)
    return folder


@pytest.fixture(scope="session")
def build(tmp_path_factory: pytest.TempPathFactory) -> Builder:
    """build(game, paper=..., duplex=..., ...) -> BuildResult, cached per option set for the session: made once for
    all the pytest-xdist workers (each made its own copy of the same builds), read-only for the tests. The builds
    are in full ink only unless ``ink`` says otherwise (``ink="both"``: with the low-ink set, as wizprint builds by
    default)."""
    cache: dict[tuple[object, ...], BuildResult] = {}
    root = _shared_root(tmp_path_factory)

    def _build(game: str, *, svg: bool = False, png: bool = False, ink: str = "full", **print_opts: object
               ) -> BuildResult:
        key = (game, svg, png, ink, tuple(sorted(print_opts.items())))
        if key not in cache:
            opts = BuildOptions(print=PrintOptions(**print_opts), svg=svg, png=png,  # type: ignore[arg-type]
                                ink=ink)
            cache[key] = _build_once(root, key, lambda folder: build_game(game, _empty(folder / f"build-{game}"), opts))
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
