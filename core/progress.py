"""Progress reporting: a rich bar on a terminal, plain lines otherwise, nothing in tests."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
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


ESTIMATE_AFTER = 5  # steps done before the bar shows the time left


def time_left(done: int, total: int, took: float, since: float, after: int = ESTIMATE_AFTER) -> float | None:
    """Seconds left, estimated from the average pace so far: the ``took`` seconds the ``done`` steps took, over
    ``done``, times the steps left, less the ``since`` seconds since the last step (so the estimate counts down
    between steps that come in bursts). None before ``after`` steps are done."""
    if done < max(1, after):
        return None
    return max(0.0, took / done * max(0, total - done) - since)


def clock_text(seconds: float) -> str:
    """``H:MM:SS``, as rich shows the time elapsed."""
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class RichBar:
    """The bar on a terminal: label, bar, steps done of the total, the step, the time elapsed and, after
    :data:`ESTIMATE_AFTER` steps, the time left (:func:`time_left`)."""

    def __init__(self, console: Any = None, clock: Callable[[], float] = time.monotonic) -> None:
        from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RP
        from rich.text import Text

        bar = self

        class TimeLeft(ProgressColumn):
            def render(self, task: Any) -> Text:
                left = bar.left()
                return Text("" if left is None else f"{clock_text(left)} left", style="progress.remaining")

        self._clock = clock
        self._p = RP(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                     TextColumn("{task.fields[what]}"), TimeElapsedColumn(), TimeLeft(), transient=False,
                     console=console)
        self._task: Any = None
        self._total = 0
        self._done = 0
        self._began = self._last = 0.0
        self._started = False

    def start(self, total: int, label: str) -> None:
        if not self._started:
            self._p.start()
            self._started = True
        self._total = total
        self._done = 0
        self._began = self._last = self._clock()
        self._task = self._p.add_task(label, total=total, what="")

    def left(self) -> float | None:
        """Seconds left in the task, or None while there is too little to go on."""
        now = self._clock()
        return time_left(self._done, self._total, self._last - self._began, now - self._last)

    def step(self, what: str) -> None:
        self._done += 1
        self._last = self._clock()
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
