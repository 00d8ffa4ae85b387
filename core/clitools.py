"""Shared by the command-line modules: one clear line per user-caused error, never a traceback; a fault of
wizprint itself shows its traceback and asks for a report."""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from wizprint import __version__
from wizprint.errors import MAX_SHOWN, REPORT_TO, DataErrors, WizprintError, more_line, one_line
from wizprint.processes import stop_code, stop_name
from wizprint.termtext import safe_text

F = TypeVar("F", bound=Callable[..., Any])


def err(msg: str) -> None:
    """Print one line to stderr, without control sequences (a message may quote a file: see :func:`say`)."""
    print(safe_text(msg), file=sys.stderr, flush=True)


def say(msg: str) -> None:
    """Print a line of a command's report to stdout. Every line a command prints may hold text from a file (a
    card's name, a scenario's title, a game's error): it is printed without control sequences
    (:func:`~wizprint.termtext.safe_text`), so that a shared file cannot set the terminal's title, clear it or
    colour it."""
    print(safe_text(msg))


def write_data(text: str) -> None:
    """Write a command's data (a CSV, a Markdown reference) to stdout: as it is into a pipe or a file, without
    control sequences on a terminal (a card's text can hold a bidirectional override)."""
    try:
        tty = sys.stdout.isatty()
    except (AttributeError, ValueError):
        tty = False
    sys.stdout.write(safe_text(text) if tty else text)
    sys.stdout.flush()


BUG_EXIT = 70  # the exit status of a fault of wizprint itself (EX_SOFTWARE of sysexits.h)


def report_bug(exc: BaseException) -> None:
    """Print the traceback of a fault of wizprint itself (a :class:`~wizprint.errors.WizprintBug`, or any other
    exception that is not a user's error) and a line asking for a report."""
    err("".join(traceback.format_exception(exc)).rstrip("\n"))
    err(f"this is a bug in wizprint {__version__}, not a problem with your data or options: please report it to "
        f"{REPORT_TO}, with the traceback above and the command you ran")


def error_lines(exc: WizprintError) -> list[str]:
    """A user's error as the command line says it: one line, or a line per problem of the data (the first
    :data:`MAX_SHOWN`, then how many more) and their count."""
    if not isinstance(exc, DataErrors):
        return [f"error: {one_line(str(exc), 4000)}"]
    out = [f"error: {issue}" for issue in exc.issues[:MAX_SHOWN]]
    if exc.total > MAX_SHOWN:
        out.append(more_line(exc.total - MAX_SHOWN))
    return [*out, f"{exc.total} problem{'s' if exc.total != 1 else ''} found"]


def friendly(fn: F) -> F:
    """Turn user-caused errors into one clear message per problem and a non-zero exit, never a traceback; any
    other exception is a fault of wizprint: its traceback, a line asking for a report, and exit status
    :data:`BUG_EXIT`."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except WizprintError as exc:
            for line in error_lines(exc):
                err(line)
            raise typer.Exit(1 if isinstance(exc, DataErrors) else exc.exit_code) from None
        except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM (wizprint.processes.Terminated)
            err("interrupted" if stop_name(stop) == "Ctrl-C" else f"stopped ({stop_name(stop)})")
            raise typer.Exit(stop_code(stop)) from None
        except BrokenPipeError:
            raise typer.Exit(0) from None
        except (typer.Exit, typer.Abort):  # the command's own way out
            raise
        except Exception as exc:  # not a WizprintError: a WizprintBug, or any fault that nothing turned into one
            report_bug(exc)
            raise typer.Exit(BUG_EXIT) from None

    return wrapper  # type: ignore[return-value]
