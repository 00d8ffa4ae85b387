"""`python -m wizprint ARGS` run in the test's own process, for the tests that read what a command says and returns
(its messages, exit code and files) but not how a process behaves (signals, killing, terminals, the console script,
a traceback printed by the interpreter): the same command line, `wizprint.cli.app`, runs with typer's CliRunner,
and the result reads like the CompletedProcess of a subprocess. A Python process start costs ~0.15 s of CPU, more
than most of these commands take.

An exception the command does not turn into an exit code is raised here (a real process would print it as a
traceback on stderr), and so is a fault of wizprint that the command reported as one (its traceback and the
request for a report, exit status BUG_EXIT): a test that asserts "no traceback" fails with it as it failed on the
traceback."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from wizprint.cli import app
from wizprint.clitools import BUG_EXIT

PROG = "python -m wizprint"  # the name click gives the program run as `python -m wizprint` (in usage lines)


def run_here(*args: str, cwd: Path | None = None, input: str | None = None) -> subprocess.CompletedProcess[str]:
    """``wizprint ARGS`` in this process, in the folder ``cwd`` (the current one by default)."""
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        r = CliRunner().invoke(app, list(args), input=input, prog_name=PROG)
    finally:
        os.chdir(old)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    if r.exit_code == BUG_EXIT:
        raise AssertionError(f"wizprint {' '.join(args)} failed with a bug of its own:\n{r.stderr}")
    return subprocess.CompletedProcess([PROG, *args], r.exit_code, r.stdout, r.stderr)


RUNNER = CliRunner()  # the solo safety tests' runner: its Result read by assert_clean


def cli(*args: str, stdin: str = "") -> Any:
    return RUNNER.invoke(app, list(args), input=stdin)


def assert_clean(r: Any, code: int, *words: str) -> list[str]:
    """Exit ``code``; no traceback; every line of stderr an ``error:`` line of sensible length; ``words`` shown."""
    out = r.stdout + r.stderr
    assert r.exit_code == code, out
    assert "Traceback" not in out, out
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    lines = r.stderr.splitlines()
    assert lines and all(ln.startswith(("error: ", "... and ")) and len(ln) < 400 for ln in lines), lines
    assert len(lines) <= 51
    for w in words:
        assert w in r.stderr, (w, r.stderr)
    return lines
