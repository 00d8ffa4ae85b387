"""Every example in the documentation runs as written: each `wizprint` command of every `sh` block of the README and
of every page of `docs/` (in order within a page, in one fresh folder per page holding the files the page's blocks
title, `quit` typed to `solo play`), and every `python` block of a page (in order, in one module per page). Other
commands in `sh` blocks (pip, pytest, python scripts, mkdocs) are looked up and asked for their help, since
installing or running the whole suite from inside the suite is the CI's job (`.ci/run` runs the README's two
commands and builds the docs)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
from cli_helpers import run_here

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```", re.M | re.S)
TITLE = re.compile(r'title="([^"/]+)"')
COMMENT = re.compile(r"\s+#\s.*$")
OTHER = {"pip", "pytest", "python", "mkdocs", "ruff", "mypy"}


def blocks(page: Path, lang: str) -> list[str]:
    return [m.group(3) for m in FENCE.finditer(page.read_text(encoding="utf-8")) if m.group(1) == lang]


def files(page: Path) -> dict[str, str]:
    """The blocks a page titles as files (```toml title="ward.toml"): the files its commands use."""
    out = {}
    for m in FENCE.finditer(page.read_text(encoding="utf-8")):
        t = TITLE.search(m.group(2))
        if t:
            out[t.group(1)] = m.group(3)
    return out


def commands(page: Path) -> list[str]:
    """The commands of a page's ``sh`` blocks, one per line (``a && b`` is two), comments left out."""
    out = []
    for block in blocks(page, "sh"):
        for line in block.splitlines():
            line = COMMENT.sub("", line).strip()
            if line:
                out.extend(part.strip() for part in line.split("&&"))
    return out


def _id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def test_the_pages_hold_examples() -> None:
    assert len([p for p in PAGES if commands(p)]) >= 8


@pytest.mark.parametrize("page", [p for p in PAGES if commands(p)], ids=_id)
def test_every_command_of_a_page_runs(page: Path, tmp_path: Path) -> None:
    for name, text in files(page).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    for cmd in commands(page):
        words = shlex.split(cmd)
        assert words, cmd
        if words[0] == "wizprint":
            args = words[1:]
            typed = "quit\n" if args[:2] in (["solo", "play"], ["solo", "table"]) else None
            r = run_here(*args, cwd=tmp_path, input=typed)
            assert r.returncode == 0, f"{_id(page)}: `{cmd}` ended with {r.returncode}:\n{r.stdout[-2000:]}\n" \
                                      f"{r.stderr[-2000:]}"
            continue
        assert words[0] in OTHER, f"{_id(page)}: `{cmd}` is neither a wizprint command nor a known tool"
        if words[0] == "python" and len(words) > 1 and words[1].endswith(".py"):
            script = ROOT / words[1]
            assert script.is_file(), f"{_id(page)}: `{cmd}`: no {words[1]}"
            r2 = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120,
                                cwd=ROOT, env=dict(os.environ))
            assert r2.returncode == 0, f"{_id(page)}: `{words[1]} --help` failed: {r2.stderr[-1000:]}"
        elif words[0] == "python":
            continue  # python -m venv and the like: the interpreter is here
        else:
            assert shutil.which(words[0]) is not None or words[0] in ("mkdocs", "ruff", "mypy"), \
                f"{_id(page)}: `{words[0]}` is not installed"


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "python")], ids=_id)
def test_every_python_example_of_a_page_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    module = types.ModuleType("docs_example")  # a module of its own: dataclasses look their module up
    monkeypatch.setitem(sys.modules, "docs_example", module)
    for i, code in enumerate(blocks(page, "python")):
        exec(compile(code, f"{_id(page)} (python example {i + 1})", "exec"), module.__dict__)  # the docs' examples
