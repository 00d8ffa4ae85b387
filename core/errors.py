"""Typed errors. Everything a user can cause derives from :class:`WizprintError`.

The CLI prints ``str(error)`` on one line (or one line per issue for :class:`DataErrors`)
and exits non-zero; no traceback is shown for these.

A fault of wizprint itself (a broken invariant, a handler missing from an engine, a job that made other files
than it said) is a :class:`WizprintBug`, outside that tree: the CLI prints its traceback and asks for a report
(:data:`REPORT_TO`), so that a bug never passes for something the user did wrong.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

MAX_SHOWN = 50  # problem lines printed before "... and N more problems"
MAX_QUOTE = 80  # characters of a user value quoted in a message
MAX_MESSAGE = 600  # a message longer than this (from any source) is cut
REPORT_TO = "the wizprint issue tracker"  # where a WizprintBug is to be reported (the one place that names it)


def quote(value: object, limit: int = MAX_QUOTE) -> str:
    """A user value for a message: its repr, at most ``limit`` characters of it (a 200,000-character id does not
    make a 200,000-character line), on one line.

    >>> quote("abc")
    "'abc'"
    >>> quote("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (1,000 characters)"
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    r = reprlib.Repr()
    r.maxstring = r.maxother = r.maxlong = limit
    r.maxlist = r.maxtuple = r.maxdict = r.maxset = 6
    r.maxlevel = 3
    text = r.repr(value)
    return text if len(text) <= limit + 20 else text[:limit] + "..."


def one_line(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` on one line (line breaks and control characters escaped), cut at ``limit`` characters."""
    if len(text) > limit:
        text = text[:limit] + "..."
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def capped(lines: Iterable[str], limit: int = MAX_SHOWN) -> Iterator[str]:
    """The first ``limit`` lines, then one line ``... and N more problems`` for the rest."""
    n = 0
    for line in lines:
        n += 1
        if n <= limit:
            yield line
    if n > limit:
        yield more_line(n - limit)


def more_line(rest: int) -> str:
    return f"... and {rest:,} more problem{'s' if rest != 1 else ''}"


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
        where = f"{one_line(self.file, 200)}:{self.line}" if self.line else one_line(self.file, 200)
        who = f" [{one_line(self.card, MAX_QUOTE)}]" if self.card else ""
        return f"{where}:{who} {one_line(self.message)}"


class DataErrors(WizprintError):
    """One or more problems in card or layout data. ``str()`` shows the first :data:`MAX_SHOWN` of them, then
    ``... and N more problems``. ``total`` is how many there are in all, where only the first were kept (a huge CSV
    file is not read into a million issues)."""

    def __init__(self, issues: list[Issue], total: int = 0) -> None:
        self.issues = sorted(set(issues))
        self.total = max(total, len(self.issues))
        super().__init__("\n".join(self.lines()))

    def lines(self, limit: int = MAX_SHOWN) -> list[str]:
        """One line per problem, at most ``limit`` of them, then the count of the rest."""
        shown = [str(i) for i in self.issues[:limit]]
        if self.total > len(shown):
            shown.append(more_line(self.total - len(shown)))
        return shown


class FitError(WizprintError):
    """A text does not fit its box even at the minimum size."""


class BuildError(WizprintError):
    """A build could not be completed (output folder, paper, options)."""


class EngineError(WizprintError):
    """A rules-engine failure a user can cause: an illegal action (of a scenario, a save, a player), a runaway game
    (step cap), a game folder or save the engine cannot play. A fault of the engine itself is an
    :class:`EngineBug`."""


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


class WizprintBug(Exception):
    """A fault of wizprint itself, not of the user's data or options (never a :class:`WizprintError`): the CLI
    shows its traceback and asks for a report at :data:`REPORT_TO`."""


class EngineBug(WizprintBug):
    """A rules engine's own fault: a broken invariant of its state, a decision with no handler, an engine module
    without its ENGINE."""
