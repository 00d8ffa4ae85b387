"""Progress reporting: a rich bar on a terminal, plain lines otherwise, nothing in tests."""

from __future__ import annotations

import sys
from typing import Any, Protocol


class Progress(Protocol):
    """A task of ``total`` steps: ``step`` once per step; ``extend`` adds steps that were not known at the start
    (so the count shown never passes its total)."""

    def start(self, total: int, label: str) -> None: ...

    def step(self, what: str) -> None: ...

    def extend(self, more: int) -> None: ...

    def finish(self) -> None: ...


class Silent:
    def start(self, total: int, label: str) -> None:
        pass

    def step(self, what: str) -> None:
        pass

    def extend(self, more: int) -> None:
        pass

    def finish(self) -> None:
        pass


class Plain:
    """One line per step, for logs and pipes."""

    def __init__(self, stream: Any = None):
        self.stream = stream or sys.stderr
        self.total = 0
        self.done = 0
        self.label = ""

    def start(self, total: int, label: str) -> None:
        self.total, self.done, self.label = total, 0, label

    def step(self, what: str) -> None:
        """Print about ten lines per task: the first step, every tenth of the way, and the last."""
        self.done += 1
        every = max(1, self.total // 10)
        if self.done == 1 or self.done % every == 0 or self.done >= self.total:
            print(f"[{self.done}/{self.total}] {self.label}: {what}", file=self.stream, flush=True)

    def extend(self, more: int) -> None:
        self.total += more

    def finish(self) -> None:
        pass


class RichBar:
    def __init__(self) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RP

        self._p = RP(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                     TextColumn("{task.fields[what]}"), TimeElapsedColumn(), transient=False)
        self._task: Any = None
        self._total = 0
        self._started = False

    def start(self, total: int, label: str) -> None:
        if not self._started:
            self._p.start()
            self._started = True
        self._total = total
        self._task = self._p.add_task(label, total=total, what="")

    def step(self, what: str) -> None:
        self._p.update(self._task, advance=1, what=what)

    def extend(self, more: int) -> None:
        self._total += more
        self._p.update(self._task, total=self._total)

    def finish(self) -> None:
        if self._started:
            self._p.stop()
            self._started = False


def for_terminal(quiet: bool = False) -> Progress:
    if quiet:
        return Silent()
    return RichBar() if sys.stderr.isatty() else Plain()
