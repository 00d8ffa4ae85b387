"""``benchmarks/RESULTS.md``: each benchmark writes its last run there, in a section of its own (the machine, the date,
the command and what it printed); the other benchmarks' sections are kept. The docs point to this file for figures:
they hold none themselves."""

from __future__ import annotations

import contextlib
import datetime
import io
import os
import platform
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
HEAD = ("# Benchmark results\n\nEach benchmark writes its last run here (`python benchmarks/NAME.py`); a section is "
        "replaced when its benchmark runs again.\n")


def machine() -> str:
    """The machine a run measured: processor, cores, system and Python."""
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def write_section(name: str, command: str, lines: list[str]) -> None:
    """Replace the section ``name`` of RESULTS.md with ``lines`` (markdown), headed by the command, date and machine."""
    text = RESULTS.read_text() if RESULTS.exists() else HEAD
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    body = "\n".join([start, f"## {name} (`{command}`)", "", f"{when} on {machine()}.", "", *lines, end])
    if start in text and end in text:
        text = text[:text.index(start)] + body + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + body + "\n"
    RESULTS.write_text(text)


class _Tee(io.StringIO):
    """Everything written, kept, and passed on to ``out``."""

    def __init__(self, out: TextIO) -> None:
        super().__init__()
        self.out = out

    def write(self, s: str) -> int:
        super().write(s)
        return self.out.write(s)

    def flush(self) -> None:
        self.out.flush()


@contextlib.contextmanager
def recorded(name: str) -> Iterator[None]:
    """Print as usual, and write what was printed to RESULTS.md's section ``name`` once the block ends without an
    error (as a code block: the benchmark's own words and figures)."""
    tee = _Tee(sys.stdout)
    old, sys.stdout = sys.stdout, tee
    try:
        yield
    finally:
        sys.stdout = old
    command = "python benchmarks/" + Path(sys.argv[0]).name + "".join(f" {a}" for a in sys.argv[1:])
    write_section(name, command, ["```text", *tee.getvalue().rstrip("\n").splitlines(), "```"])
