"""A progress recorder for the build tests: what the build announced and every step it reported."""

from __future__ import annotations


class Recorder:
    """Records the total a build announces (and extends) and each step; ``peak`` is how far the steps ever ran
    past the total (0 when the count is exact or short)."""

    def __init__(self) -> None:
        self.total = 0
        self.steps: list[str] = []
        self.peak = 0

    def start(self, total: int, label: str) -> None:
        self.total = total

    def step(self, what: str) -> None:
        self.steps.append(what)
        self.peak = max(self.peak, len(self.steps) - self.total)

    def extend(self, more: int) -> None:
        self.total += more

    def finish(self) -> None:
        """Nothing to do: the recorder keeps what it saw for the test to read."""
