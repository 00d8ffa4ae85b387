"""Typed errors. Everything a user can cause derives from :class:`WizprintError`.

The CLI prints ``str(error)`` on one line (or one line per issue for :class:`DataErrors`)
and exits non-zero; no traceback is shown for these.
"""

from __future__ import annotations

from dataclasses import dataclass


class WizprintError(Exception):
    """An error a user can cause and fix (bad data, bad option, unwritable folder)."""

    exit_code = 1


class UsageError(WizprintError):
    """A bad option or argument."""

    exit_code = 2


@dataclass(frozen=True, order=True)
class Issue:
    """One problem in the data, located by file and line."""

    file: str
    line: int
    card: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        who = f" [{self.card}]" if self.card else ""
        return f"{where}:{who} {self.message}"


class DataErrors(WizprintError):
    """One or more problems in card or layout data."""

    def __init__(self, issues: list[Issue]) -> None:
        self.issues = sorted(set(issues))
        super().__init__("\n".join(str(i) for i in self.issues))


class FitError(WizprintError):
    """A text does not fit its box even at the minimum size."""


class BuildError(WizprintError):
    """A build could not be completed (output folder, paper, options)."""


class EngineError(WizprintError):
    """A rules-engine failure (illegal action, step cap, broken state)."""


class IllegalActionError(EngineError):
    """An action that is not among the legal actions of the state."""


class StepCapError(EngineError):
    """A game ran past its step cap: a runaway game, reported as an error."""


class SaveError(EngineError):
    """A saved game (or any state JSON) that does not match its game's declaration or rules: every problem, each
    with its JSON path (``state.hands[1][3]: expected a string, got 5``)."""

    MAX_SHOWN = 50

    def __init__(self, problems: list[str]):
        self.problems = problems
        more = f" (and {len(problems) - self.MAX_SHOWN} more)" if len(problems) > self.MAX_SHOWN else ""
        super().__init__("; ".join(problems[: self.MAX_SHOWN]) + more)
